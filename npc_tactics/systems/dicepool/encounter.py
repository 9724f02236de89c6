"""How the encounter builder composes a dice-pool fight (:class:`~npc_tactics.encounters.adapters.Adapter`):
2 m between the fronts, ranks 1.5 m apart, and a combatant's threat as its best weapon's pool times damage."""

from __future__ import annotations

from typing import Any

from npc_tactics.encounters.adapters import Adapter, mean_damage
from npc_tactics.systems.dicepool.rules.bestiary import load_bestiary
from npc_tactics.systems.dicepool.rules.content import scenario_from_mapping
from npc_tactics.systems.dicepool.wear import WEAR

__all__ = ["ADAPTER"]


def _templates() -> list[str]:
    return sorted(load_bestiary())


def _strength(f: Any) -> tuple[float, float]:
    best = 0.0
    for w in f.weapons:
        dice = f.skills.get(w.skill, 0) + f.coordination
        best = max(best, dice * (mean_damage(w.damage) + f.strength * (w.kind == "melee")))
    return float(f.max_hp), best / 4.0


ADAPTER = Adapter("dicepool", 2.0, 1.5, _templates, scenario_from_mapping, lambda d: {}, _strength, wear=WEAR)
