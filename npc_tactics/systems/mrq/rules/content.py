"""MRQ content entry point (contract §4): weapons, bestiary, scenarios and GM situations from YAML.

The work is split by job: ``bestiary`` (weapons and stat blocks, read with :mod:`npc_tactics.configs.validate`),
``scenario`` (scenarios) and ``situation`` (fights in progress). Every error is a one-line
:class:`~npc_tactics.errors.ConfigError` naming the file and the field path; unknown keys are errors.
:func:`stat_line` is a combatant's line in the GM's language (the tracker's hook).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from npc_tactics.errors import ConfigError
from npc_tactics.systems.mrq.rules.bestiary import (
    CHARS,
    DIR,
    KINDS,
    STYLES,
    TEMPLATE_KEYS,
    build_profile,
    load_weapons,
)
from npc_tactics.systems.mrq.rules.scenario import (
    Scenario,
    inline_fields,
    list_scenarios,
    load_scenario,
    scenario_from_mapping,
)
from npc_tactics.systems.mrq.rules.situation import load_situation
from npc_tactics.systems.mrq.rules.statblock_check import bestiary_listing, check_bestiary
from npc_tactics.systems.mrq.rules.statblock_files import load_bestiary
from npc_tactics.systems.mrq.rules.statblock_print import format_stat_block
from npc_tactics.systems.mrq.rules.statblock_print import stat_line as print_stat_line

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
    "stat_block",
    "stat_line",
]


def _template_of(entry: Mapping[str, Any]) -> tuple[str, dict[str, Any]] | None:
    """A tracker combatant as (name, template): its bestiary template with the skill and armour it changes, or
    its pasted stat block read by the book-layout parser (or its fields in full); None for an unknown template."""
    if "template" in entry:
        name = str(entry["template"])
        templates = load_bestiary()
        if name not in templates:
            return None
        return name, {**templates[name], **{k: entry[k] for k in ("skill", "armour") if k in entry}}
    name = str(entry.get("name", "stat_block"))
    own = {k: v for k, v in entry.items() if k in TEMPLATE_KEYS or k == "stat_block"}
    return name, inline_fields(own, (), "<tracker>", "")


def stat_line(entry: Mapping[str, Any], lang: str = "en") -> str | None:
    """The stat line of a tracker combatant in ``lang``, printed as the bestiary prints its own (None when the
    entry does not read as a stat block: the tracker then shows what the GM typed)."""
    try:
        found = _template_of(entry)
        return None if found is None else print_stat_line(found[0], found[1], lang, "<tracker>")
    except ConfigError:
        return None


def stat_block(entry: Mapping[str, Any]) -> str | None:
    """The full stat block of a tracker combatant, in the book layout its parser reads back (what the tracker's
    Edit box starts from), or None when the entry does not read as a stat block."""
    try:
        found = _template_of(entry)
        return None if found is None else format_stat_block(found[0], found[1], "<tracker>")
    except ConfigError:
        return None
