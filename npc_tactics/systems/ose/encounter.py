"""How the encounter builder composes an OSE fight (:class:`~npc_tactics.encounters.adapters.Adapter`): 12 m
between the fronts, ranks one 1.5 m square apart, and a combatant's threat as its chance to hit AC 5 times its
damage (a monster's whole attack routine)."""

from __future__ import annotations

from typing import Any

from npc_tactics.encounters.adapters import Adapter, mean_damage
from npc_tactics.systems.ose.encoder import melee_damage
from npc_tactics.systems.ose.rules.classes import class_template_names
from npc_tactics.systems.ose.rules.scenario import parse_scenario
from npc_tactics.systems.ose.rules.templates import all_templates, core_template_names, template_names
from npc_tactics.systems.ose.wear import WEAR

__all__ = ["ADAPTER"]


def _strength(c: Any) -> tuple[float, float]:
    p = c.prof
    hit = min(0.95, max(0.05, (21 - (p.thac0 - 5)) / 20))  # to hit AC 5 (chainmail) with 1d20 >= THAC0 - AC
    melee = melee_damage(p) if p.routine else mean_damage(p.melee_damage) + p.str_mod  # the whole routine
    dmg = max(melee, mean_damage(p.missile_damage) if p.missile_weapon else 0.0)
    return float(c.max_hp), hit * max(dmg, 1.0)


def _names() -> list[str]:
    """Bestiary and character templates, and every class at every level (``dwarf_6``, ``elf_9``)."""
    return sorted({*template_names(), *class_template_names()})


def _foes() -> list[str]:
    """Monsters (shipped and the user's) and not player characters: the builder's default pool."""
    return sorted(n for n, (_file, raw) in all_templates().items()
                  if "class" not in raw and not raw.get("player_character", False))


ADAPTER = Adapter("ose", 12.0, 1.5, _names, parse_scenario, lambda d: {}, _strength, wear=WEAR,
                  threat_reference=core_template_names, foe_templates=_foes)
