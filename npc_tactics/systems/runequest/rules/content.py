"""RQG content, the registry's ``content`` slot: scenarios (:mod:`.scenario`) and GM situations
(:mod:`.situation`), in two modules so the engine and the situation loader read scenarios without an import cycle.
"""

from __future__ import annotations

from npc_tactics.systems.runequest.rules.bestiary_check import bestiary_listing, check_bestiary
from npc_tactics.systems.runequest.rules.scenario import (
    DIR,
    ENTRY_KEYS,
    SCENARIO_DIR,
    SCENARIO_KEYS,
    SIDE_KEYS,
    bestiary,
    build_state,
    list_scenarios,
    load_scenario,
    make_combatant,
    validate_scenario,
    weapons,
)
from npc_tactics.systems.runequest.rules.situation import load_situation

__all__ = [
    "DIR",
    "ENTRY_KEYS",
    "SCENARIO_DIR",
    "SCENARIO_KEYS",
    "SIDE_KEYS",
    "bestiary",
    "bestiary_listing",
    "build_state",
    "check_bestiary",
    "list_scenarios",
    "load_scenario",
    "load_situation",
    "make_combatant",
    "validate_scenario",
    "weapons",
]
