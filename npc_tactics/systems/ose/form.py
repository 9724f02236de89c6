"""What the GM page asks for a OSE combatant and situation (``GET /bestiary/ose``): the bestiary's
stat blocks and the situation keys its loader reads, drawn from their declaration (:mod:`.rules.situation_fields`;
the format: :mod:`npc_tactics.gm.service.forms`)."""

from __future__ import annotations

from typing import Any

from npc_tactics.systems.ose.rules.situation_fields import FIELDS, STATUS_NAMES

__all__ = ["FORM", "templates"]

FORM: dict[str, Any] = {
    "wounds": {"kind": "hp", "key": "hp", "max_key": "max_hp"},
    "position": {"key": "position", "unit": "m"},
    "engaged_within": 1.5,
    "statuses": list(STATUS_NAMES),
    "combatant_fields": FIELDS.form("combatant"),
    "situation_fields": FIELDS.form("situation"),
    "uses_scenario": True,
}


def templates() -> list[dict[str, Any]]:
    from npc_tactics.systems.ose.rules.templates import raw_templates

    return [{"name": name, "description": str(raw.get("description", "")), "locations": [],
             "hp": str(raw.get("hp", raw.get("hd", "")))}
            for name, (_file, raw) in sorted(raw_templates().items())]
