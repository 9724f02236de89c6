"""MRQ content entry point (contract §4): weapons, bestiary, scenarios and GM situations from YAML.

The work is split by job: ``bestiary`` (weapons and stat blocks, read with :mod:`npc_tactics.configs.validate`),
``scenario`` (scenarios) and ``situation`` (fights in progress). Every error is a one-line
:class:`~npc_tactics.errors.ConfigError` naming the file and the field path; unknown keys are errors.
"""

from __future__ import annotations

from npc_tactics.systems.mrq.rules.bestiary import CHARS, DIR, KINDS, STYLES, build_profile, load_weapons
from npc_tactics.systems.mrq.rules.scenario import (
    Scenario,
    list_scenarios,
    load_scenario,
    scenario_from_mapping,
)
from npc_tactics.systems.mrq.rules.situation import load_situation
from npc_tactics.systems.mrq.rules.statblock_check import bestiary_listing, check_bestiary
from npc_tactics.systems.mrq.rules.statblock_files import load_bestiary

__all__ = [
    "CHARS",
    "DIR",
    "KINDS",
    "STYLES",
    "Scenario",
    "bestiary_listing",
    "check_bestiary",
    "build_profile",
    "list_scenarios",
    "load_bestiary",
    "load_scenario",
    "load_situation",
    "load_weapons",
    "scenario_from_mapping",
]
