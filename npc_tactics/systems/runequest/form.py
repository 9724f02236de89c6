"""What the GM page asks for a RuneQuest combatant and situation (``GET /bestiary/runequest``): the bestiary's
stat blocks and the situation keys its loader reads, drawn from their declaration (:mod:`.rules.situation_fields`;
the format: :mod:`npc_tactics.gm.service.forms`)."""

from __future__ import annotations

from typing import Any

from npc_tactics.systems.runequest.rules.situation_fields import FIELDS, STATUS_NAMES

__all__ = ["FORM", "templates"]

FORM: dict[str, Any] = {
    "wounds": {"kind": "damage", "key": "wounds"},
    "position": {"key": "position", "unit": "m"},
    "engaged_within": 2.0,
    "statuses": list(STATUS_NAMES),
    "combatant_fields": FIELDS.form("combatant"),
    "situation_fields": FIELDS.form("situation"),
    "uses_scenario": False,
}


def templates() -> list[dict[str, Any]]:
    from npc_tactics.systems.runequest.rules.content import bestiary
    from npc_tactics.systems.runequest.rules.statblock import location_rows

    return [{"name": name, "description": str(t.get("description", "")),
             "locations": [row.name for row in location_rows(t, "bestiary.yaml", name)]}
            for name, t in sorted(bestiary().items())]
