"""How the encounter builder composes an MRQ fight (:class:`~npc_tactics.encounters.adapters.Adapter`): no
positions, the distance named as a band (close, long, apart at a range), and a combatant's threat as its
skill times damage past ~3 AP (its missile weapon's when that is better)."""

from __future__ import annotations

from typing import Any

from npc_tactics.encounters.adapters import Adapter, mean_damage
from npc_tactics.systems.mrq.rules.bestiary import shipped_templates
from npc_tactics.systems.mrq.rules.scenario import scenario_from_mapping
from npc_tactics.systems.mrq.rules.statblock_files import load_bestiary
from npc_tactics.systems.mrq.wear import WEAR

__all__ = ["ADAPTER"]


def _templates() -> list[str]:
    return sorted(load_bestiary())


def _top(distance: float) -> dict[str, Any]:
    """MRQ names its distance: engaged (close), weapon's length (long), or apart at ``range`` metres."""
    if distance <= 1.0:
        return {"distance": "close"}
    if distance <= 3.0:
        return {"distance": "long"}
    return {"distance": "apart", "range": int(round(distance))}


def _strength(c: Any) -> tuple[float, float]:
    p = c.prof
    dmg = max(mean_damage(p.weapon.damage) + mean_damage(p.dm) - 3.0, 0.5)  # against ~3 AP
    if p.missile is not None:
        dmg = max(dmg, p.missile_skill / max(p.skill, 1) * max(mean_damage(p.missile.damage) - 3.0, 0.5))
    return float(c.max_hp), min(p.skill, 95) / 100 * dmg


def _threat_reference() -> list[str]:
    """The shipped templates: a GM's bestiary (NPC_TACTICS_BESTIARY) must not move the threat scale, and with it
    every encounter draw of the shipped distributions."""
    return sorted(shipped_templates())


ADAPTER = Adapter("mrq", 2.0, 0.0, _templates, scenario_from_mapping, _top, _strength, positions=False, wear=WEAR,
                  threat_reference=_threat_reference)
