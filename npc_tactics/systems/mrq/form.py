"""What the GM page asks for a MRQ combatant and situation (``GET /bestiary/mrq``): the bestiary's
stat blocks and the situation keys its loader reads (their meaning: :mod:`npc_tactics.gm.service.forms`)."""

from __future__ import annotations

from typing import Any

from npc_tactics.gm.service.forms import COMMON_STATUSES

__all__ = ["FORM", "templates"]

FORM: dict[str, Any] = {
    "wounds": {"kind": "current", "key": "locations"},
    "position": None,
    "engaged_within": None,
    "statuses": COMMON_STATUSES,
    "combatant_fields": [
        {"key": "reactions", "label": "Reactions left", "type": "int", "min": 0, "max": 10},
        {"key": "weapon", "label": "Weapon", "choices": ["ready", "dropped", "broken"]},
        {"key": "prone", "label": "Prone", "type": "bool"},
    ],
    "situation_fields": [
        {"key": "round", "label": "Round", "type": "int", "min": 1, "max": 1000, "default": 1},
        {"key": "distance", "label": "Distance", "choices": ["apart", "long", "close"], "default": "close"},
    ],
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
