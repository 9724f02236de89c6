"""What the GM page asks for a MRQ combatant and situation (``GET /bestiary/mrq``): the bestiary's
stat blocks and the situation keys its loader reads, drawn from their declaration (:mod:`.rules.situation_fields`;
the format: :mod:`npc_tactics.gm.service.forms`)."""

from __future__ import annotations

from typing import Any

from npc_tactics.systems.mrq.rules.situation_fields import FIELDS, STATUS_NAMES

__all__ = ["FORM", "templates"]

#: the page's order of the combatant inputs (the declaration keeps the loader's order of keys)
COMBATANT_INPUTS = ("reactions", "weapon", "prone")


def _page_order(entry: dict[str, Any]) -> int:
    key = entry["key"]
    return COMBATANT_INPUTS.index(key) if key in COMBATANT_INPUTS else len(COMBATANT_INPUTS)


FORM: dict[str, Any] = {
    "wounds": {"kind": "current", "key": "locations"},
    "position": None,
    "engaged_within": None,
    "statuses": list(STATUS_NAMES),
    "combatant_fields": sorted(FIELDS.form("combatant"), key=_page_order),
    "situation_fields": FIELDS.form("situation"),
    "uses_scenario": False,
}


def templates() -> list[dict[str, Any]]:
    """Every template (shipped and the user's) with its hit locations, its mount, its tags and its stat block in
    the book's layout (what the page shows, and what a GM may paste back edited as ``stat_block``)."""
    from npc_tactics.systems.mrq.rules.bestiary import tags
    from npc_tactics.systems.mrq.rules.statblock_files import all_templates
    from npc_tactics.systems.mrq.rules.statblock_print import format_stat_block
    from npc_tactics.systems.mrq.rules.tables import LOCATION_NAMES

    return [{"name": name, "description": str(t.get("description", "")),
             "locations": list(LOCATION_NAMES[str(t.get("body", "humanoid"))]),
             "mount": str((t.get("mount") or {}).get("template", "")),  # a rider's mount, described under it
             **tags(t, file, name),
             "stat_block": format_stat_block(name, t, file)}
            for name, (file, t) in sorted(all_templates().items())]
