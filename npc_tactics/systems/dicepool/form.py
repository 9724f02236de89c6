"""What the GM page asks for a dice-pool combatant and situation (``GET /bestiary/dicepool``): the bestiary's
stat blocks and the situation keys its loader reads (their meaning: :mod:`npc_tactics.gm.service.forms`)."""

from __future__ import annotations

from typing import Any

from npc_tactics.gm.service.forms import COMMON_STATUSES

__all__ = ["FORM", "templates"]

FORM: dict[str, Any] = {
    "wounds": {"kind": "current", "key": "location_hp"},
    "position": {"key": "position", "unit": "m"},
    "engaged_within": 2.0,
    "statuses": COMMON_STATUSES,
    "combatant_fields": [
        {"key": "defense_dice", "label": "Dice in DEFENSE", "type": "int", "min": 0, "max": 30},
    ],
    "situation_fields": [
        {"key": "round", "label": "Round", "type": "int", "min": 1, "max": 1000, "default": 1},
    ],
    "uses_scenario": False,
}


def templates() -> list[dict[str, Any]]:
    from npc_tactics.systems.dicepool.rules import tables as T
    from npc_tactics.systems.dicepool.rules.bestiary import load_bestiary

    return [{"name": name, "description": str(t.get("description", "")), "locations": list(T.LOCATIONS)}
            for name, t in sorted(load_bestiary().items())]
