"""What the GM web page needs to build a situation form for one system: its bestiary and its situation fields.

The page is generic: it draws inputs from this description (``GET /bestiary/{system}``) and writes the same
situation mapping a GM would write in YAML, so every check of the system's ``load_situation`` applies
unchanged. Field lists are data, one entry per situation key the system's loader reads; labels are msgids of
the ``web`` gettext domain (translated by the page).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from npc_tactics.configs.validate import load_yaml
from npc_tactics.errors import UnknownNameError
from npc_tactics.systems import available_systems

_STATUSES = ["active", "unconscious", "dead", "fled", "surrendered", "incapacitated"]

#: Per system: how a combatant's wounds are written, where it stands, which extra fields the loader reads.
#:   wounds.kind: "hp" (one pool: hp / max_hp), "damage" (damage taken per location), "current" (HP left per
#:   location). position: metres on a line, or None where distance is one situation-level band (MRQ).
FORMS: dict[str, dict[str, Any]] = {
    "ose": {
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
    },
    "runequest": {
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
    },
    "mrq": {
        "wounds": {"kind": "current", "key": "locations"},
        "position": None,
        "engaged_within": None,
        "statuses": _STATUSES,
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
    },
    "dicepool": {
        "wounds": {"kind": "current", "key": "location_hp"},
        "position": {"key": "position", "unit": "m"},
        "engaged_within": 2.0,
        "statuses": _STATUSES,
        "combatant_fields": [
            {"key": "defense_dice", "label": "Dice in DEFENSE", "type": "int", "min": 0, "max": 30},
        ],
        "situation_fields": [
            {"key": "round", "label": "Round", "type": "int", "min": 1, "max": 1000, "default": 1},
        ],
        "uses_scenario": False,
    },
}


def _ose_templates() -> list[dict[str, Any]]:
    from npc_tactics.rules.ose.templates import raw_templates

    return [{"name": name, "description": str(raw.get("description", "")), "locations": [],
             "hp": str(raw.get("hp", raw.get("hd", "")))}
            for name, (_file, raw) in sorted(raw_templates().items())]


def _rq_templates() -> list[dict[str, Any]]:
    from npc_tactics.rules.runequest import tables as T
    from npc_tactics.rules.runequest.content import bestiary

    return [{"name": name, "description": str(t.get("description", "")),
             "locations": [row.name for row in T.HIT_LOCATIONS[t.get("locations", "humanoid")]]}
            for name, t in sorted(bestiary().items())]


def _mrq_templates() -> list[dict[str, Any]]:
    from npc_tactics.rules.mrq.bestiary import load_bestiary
    from npc_tactics.rules.mrq.tables import LOCATION_NAMES

    return [{"name": name, "description": str(t.get("description", "")),
             "locations": list(LOCATION_NAMES[str(t.get("body", "humanoid"))]),
             "mount": str((t.get("mount") or {}).get("template", ""))}  # a rider's mount, described under it
            for name, t in sorted(load_bestiary().items())]


def _dicepool_templates() -> list[dict[str, Any]]:
    from npc_tactics.rules.dicepool import tables as T
    from npc_tactics.rules.dicepool.bestiary import load_bestiary

    return [{"name": name, "description": str(t.get("description", "")), "locations": list(T.LOCATIONS)}
            for name, t in sorted(load_bestiary().items())]


_TEMPLATES = {"ose": _ose_templates, "runequest": _rq_templates, "mrq": _mrq_templates,
              "dicepool": _dicepool_templates}


def bestiary_form(system: str) -> dict[str, Any]:
    """The stat blocks of ``system`` (name, description, hit locations) and its situation form description."""
    if system not in FORMS or system not in available_systems():
        raise UnknownNameError("system", system, FORMS)
    return {"system": system, "templates": _TEMPLATES[system](), **FORMS[system]}


def scenario_document(system: str, scenario: str) -> dict[str, Any] | None:
    """The shipped scenario file ``scenario`` of ``system`` as written (the page's starting situation), or None
    when it is not a shipped name (a bundle trained on a scenario file elsewhere)."""
    from npc_tactics.configs import system_dir

    folder = Path(system_dir(system)) / "scenarios"
    names = {p.stem: p for p in folder.glob("*.yaml")}
    path = names.get(scenario)
    if path is None:
        return None
    data = load_yaml(path)
    return data if isinstance(data, dict) else None


def starting_situation(system: str, scenario: str, side: int) -> dict[str, Any] | None:
    """A situation at round 1 of the shipped ``scenario``, the first combatant of ``side`` acting: where the
    page starts before the GM edits wounds, distances and the pending decision. None for an unshipped one."""
    doc = scenario_document(system, scenario)
    if doc is None:
        return None
    sides = doc.get("sides") or []
    try:
        acting = str(sides[side]["combatants"][0]["name"])
    except (IndexError, KeyError, TypeError):
        return None
    if FORMS[system]["uses_scenario"]:
        return {"scenario": scenario, "round": 1, "acting": acting, "sides": sides}
    return {**doc, "round": 1, "acting": acting}
