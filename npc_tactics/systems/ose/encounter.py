"""How the encounter builder composes an OSE fight (:class:`~npc_tactics.encounters.adapters.Adapter`): 12 m
between the fronts, ranks one 1.5 m square apart, and a combatant's threat as its chance to hit AC 5 times its
damage."""

from __future__ import annotations

from typing import Any

from npc_tactics.encounters.adapters import Adapter, mean_damage
from npc_tactics.systems.ose.rules.scenario import parse_scenario
from npc_tactics.systems.ose.rules.templates import template_names
from npc_tactics.systems.ose.wear import WEAR

__all__ = ["ADAPTER"]


def _strength(c: Any) -> tuple[float, float]:
    p = c.prof
    hit = min(0.95, max(0.05, (21 - (p.thac0 - 5)) / 20))  # to hit AC 5 (chainmail) with 1d20 >= THAC0 - AC
    dmg = max(mean_damage(p.melee_damage) + p.str_mod, mean_damage(p.missile_damage) if p.missile_weapon else 0.0)
    return float(c.max_hp), hit * max(dmg, 1.0)


ADAPTER = Adapter("ose", 12.0, 1.5, template_names, parse_scenario, lambda d: {}, _strength, wear=WEAR)
