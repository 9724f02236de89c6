"""What the GM page asks for a RuneQuest combatant and situation (``GET /bestiary/runequest``): the bestiary's
stat blocks and the situation keys its loader reads (their meaning: :mod:`npc_tactics.gm.service.forms`)."""

from __future__ import annotations

from typing import Any

__all__ = ["FORM", "templates"]

FORM: dict[str, Any] = {
    "wounds": {"kind": "damage", "key": "wounds"},
    "position": {"key": "position", "unit": "m"},
    "engaged_within": 2.0,
    "statuses": ["active", "unconscious", "dead", "fled", "incapacitated"],
    "combatant_fields": [],
    "situation_fields": [
        {"key": "round", "label": "Round", "type": "int", "min": 1, "max": 1000, "default": 1},
        {"key": "distance", "label": "Distance (m) where no position is given", "type": "number", "min": 0,
         "max": 1000},
    ],
    "uses_scenario": False,
}


def templates() -> list[dict[str, Any]]:
    from npc_tactics.systems.runequest.rules.content import bestiary
    from npc_tactics.systems.runequest.rules.statblock import location_rows

    return [{"name": name, "description": str(t.get("description", "")),
             "locations": [row.name for row in location_rows(t, "bestiary.yaml", name)]}
            for name, t in sorted(bestiary().items())]
