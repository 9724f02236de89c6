"""What the GM page asks for a dice-pool combatant and situation (``GET /bestiary/dicepool``): the bestiary's
stat blocks and the situation keys its loader reads, drawn from their declaration (:mod:`.rules.situation_fields`;
the format: :mod:`npc_tactics.gm.service.forms`).

Each template also carries its character sheet as text (English and French, the form a combatant's
``stat_block`` takes, rules/sheet.py), its location maxima ("HP left" out of what), the names its body plan
gives the seven locations, and its tags (kind, faction, player_character)."""

from __future__ import annotations

from typing import Any

from npc_tactics.systems.dicepool.rules.situation_fields import FIELDS, STATUS_NAMES

__all__ = ["FORM", "templates"]

FORM: dict[str, Any] = {
    "wounds": {"kind": "current", "key": "location_hp"},
    "position": {"key": "position", "unit": "m"},
    "engaged_within": 2.0,
    "statuses": list(STATUS_NAMES),
    "combatant_fields": FIELDS.form("combatant"),
    "situation_fields": FIELDS.form("situation"),
    "uses_scenario": False,
    #: a combatant may give its own sheet instead of a template: the text of a template's ``stat_block``
    "stat_block": {"key": "stat_block", "languages": ["en", "fr"], "replaces": "template"},
}


def templates() -> list[dict[str, Any]]:
    from npc_tactics.systems.dicepool.rules import tables as T
    from npc_tactics.systems.dicepool.rules.bestiary import DEFAULT_PLAN, HUMAN_LOCATIONS, template_tags
    from npc_tactics.systems.dicepool.rules.sheet import format_sheet
    from npc_tactics.systems.dicepool.rules.sheet_labels import labels
    from npc_tactics.systems.dicepool.rules.user_bestiary import all_templates

    rows = []
    for name, (_file, t) in sorted(all_templates().items()):
        plan = labels().plan_locations[t.get("body_plan", DEFAULT_PLAN)]
        locs = HUMAN_LOCATIONS if t["locations"] == "human" else t["locations"]
        rows.append({
            "name": name,
            "description": str(t.get("description", "")),
            "locations": list(T.LOCATIONS),
            "location_max": {loc: int(locs[loc]) for loc in T.LOCATIONS},
            "location_labels": {lang: {loc: plan.label(loc, lang) for loc in T.LOCATIONS} for lang in ("en", "fr")},
            "stat_block": format_sheet(t, name),
            "stat_block_fr": format_sheet(t, name, "fr"),
            "tags": template_tags(t),
        })
    return rows
