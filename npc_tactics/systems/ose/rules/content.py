"""OSE content, the registry's ``content`` slot: scenarios (:mod:`.scenario`) and GM situations
(:mod:`.situation`), in two modules so the engine and the situation loader read scenarios without an import cycle.
"""

from __future__ import annotations

from npc_tactics.systems.ose.rules.bestiary_check import bestiary_listing, check_bestiary
from npc_tactics.systems.ose.rules.scenario import (
    SCENARIO_DIR,
    CombatantSpec,
    Scenario,
    build_state,
    list_scenarios,
    load_scenario,
    parse_scenario,
)
from npc_tactics.systems.ose.rules.situation import load_situation

#: a user bestiary file with no ``system:`` key is an OSE one (the first format: name -> stat line)
READS_UNTAGGED_BESTIARIES = True

__all__ = [
    "READS_UNTAGGED_BESTIARIES",
    "SCENARIO_DIR",
    "CombatantSpec",
    "Scenario",
    "bestiary_listing",
    "build_state",
    "check_bestiary",
    "list_scenarios",
    "load_scenario",
    "load_situation",
    "parse_scenario",
]
