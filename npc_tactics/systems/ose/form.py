"""What the GM page asks for a OSE combatant and situation (``GET /bestiary/ose``): the bestiary's
stat blocks and the situation keys its loader reads (their meaning: :mod:`npc_tactics.gm.service.forms`)."""

from __future__ import annotations

from typing import Any

__all__ = ["FORM", "templates"]

FORM: dict[str, Any] = {
    "wounds": {"kind": "hp", "key": "hp", "max_key": "max_hp"},
    "position": {"key": "position", "unit": "m"},
    "engaged_within": 1.5,
    "statuses": ["active", "dead", "fled", "held", "asleep", "unconscious", "surrendered"],
    "combatant_fields": [{"key": "declared", "label": "Declared", "choices": ["none", "withdraw", "retreat"]}],
    "situation_fields": [
        {"key": "round", "label": "Round", "type": "int", "min": 1, "max": 1000, "default": 1},
        {"key": "phase", "label": "Pending decision", "choices": ["", "declare", "move", "missile", "melee"]},
    ],
    "uses_scenario": True,
}


def templates() -> list[dict[str, Any]]:
    from npc_tactics.systems.ose.rules.templates import raw_templates

    return [{"name": name, "description": str(raw.get("description", "")), "locations": [],
             "hp": str(raw.get("hp", raw.get("hd", "")))}
            for name, (_file, raw) in sorted(raw_templates().items())]
