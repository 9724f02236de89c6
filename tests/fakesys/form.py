"""What the GM page asks for a fake combatant and situation (``GET /bestiary/fake``): the stat blocks of
:mod:`tests.fakesys.bestiary` and the keys :func:`tests.fakesys.content.load_situation` reads."""

from __future__ import annotations

from typing import Any

from tests.fakesys.situation_fields import FIELDS, STATUSES

__all__ = ["FORM", "starting_situation", "templates"]

FORM: dict[str, Any] = {
    "wounds": {"kind": "hp", "key": "hp", "max_key": "max_hp"},
    "position": None,
    "engaged_within": None,
    "statuses": list(STATUSES),
    "combatant_fields": FIELDS.form("combatant"),
    "situation_fields": FIELDS.form("situation"),
    "uses_scenario": False,
}


def templates() -> list[dict[str, Any]]:
    from tests.fakesys.bestiary import TEMPLATES

    return [{"name": name, "description": description, "locations": [], "hp": str(hp)}
            for name, (hp, description) in sorted(TEMPLATES.items())]


def starting_situation(scenario: str, side: int) -> dict[str, Any] | None:
    """Round 1 of the shipped ``scenario``, the first fighter of ``side`` acting (None for an unknown one)."""
    from tests.fakesys.content import SCENARIOS

    if scenario not in SCENARIOS:
        return None
    data = SCENARIOS[scenario][1]
    out: dict[str, Any] = {"round": 1, "acting": data["sides"][side][0]["name"],
                           "sides": [[dict(f) for f in members] for members in data["sides"]]}
    if data.get("options"):
        out["options"] = dict(data["options"])
    return out
