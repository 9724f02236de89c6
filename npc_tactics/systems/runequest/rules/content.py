"""RQG content, the registry's ``content`` slot: scenarios (:mod:`.scenario`) and GM situations
(:mod:`.situation`), in two modules so the engine and the situation loader read scenarios without an import cycle;
and :func:`stat_line`, a combatant's line in the GM's language (the tracker's hook).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from npc_tactics.errors import ConfigError
from npc_tactics.systems.runequest.rules.bestiary_check import bestiary_listing, check_bestiary
from npc_tactics.systems.runequest.rules.scenario import (
    DIR,
    ENTRY_KEYS,
    SCENARIO_DIR,
    SCENARIO_KEYS,
    SIDE_KEYS,
    bestiary,
    build_state,
    entry_template,
    list_scenarios,
    load_scenario,
    make_combatant,
    validate_scenario,
    weapons,
)
from npc_tactics.systems.runequest.rules.situation import load_situation
from npc_tactics.systems.runequest.rules.statblock_print import format_stat_block
from npc_tactics.systems.runequest.rules.statblock_print import stat_line as print_stat_line

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
    "stat_block",
    "stat_line",
    "validate_scenario",
    "weapons",
]


def stat_line(entry: Mapping[str, Any], lang: str = "en") -> str | None:
    """The stat line of a tracker combatant in ``lang``: its template with the fields it changes, its pasted stat
    block read by the book-layout parser, or its fields in full, printed as the bestiary prints its own (None
    when the entry does not read as a stat block: the tracker then shows what the GM typed)."""
    try:
        _, t = entry_template(entry, "<tracker>", "")
    except ConfigError:
        return None
    return print_stat_line(t, lang)


def stat_block(entry: Mapping[str, Any]) -> str | None:
    """The full stat block of a tracker combatant, in the book layout its parser reads back (what the tracker's
    Edit box starts from), or None when the entry does not read as a stat block."""
    try:
        _, t = entry_template(entry, "<tracker>", "")
    except ConfigError:
        return None
    return format_stat_block(t)
