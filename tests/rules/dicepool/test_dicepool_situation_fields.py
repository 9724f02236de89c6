"""The dice-pool situation keys, declared once (systems/dicepool/rules/situation_fields.py): the loader accepts
exactly the declared keys, checks the simple values against the declared ranges and falls back on the declared
defaults; the web form and the docs table are the declaration's."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from npc_tactics.dice import ScriptedRoller
from npc_tactics.errors import ConfigError
from npc_tactics.gm.service.forms import COMMON_STATUSES
from npc_tactics.gm.service.web_strings import WEB_STRINGS
from npc_tactics.registry import get_system
from npc_tactics.rules.base import Status
from npc_tactics.rules.situation_fields import NO_DEFAULT
from npc_tactics.systems.dicepool.form import FORM
from npc_tactics.systems.dicepool.rules import content
from npc_tactics.systems.dicepool.rules.content import load_plain_situation, load_situation
from npc_tactics.systems.dicepool.rules.engine import DicePoolEngine
from npc_tactics.systems.dicepool.rules.pending import KINDS
from npc_tactics.systems.dicepool.rules.situation_fields import FIELDS, STATUS_NAMES
from tests.rules.dicepool.test_dicepool_situations import duel  # the two duellists every situation test starts from

ENGINE = DicePoolEngine()
DOCS = Path(__file__).resolve().parents[3] / "docs" / "dicepool.md"




def load(sit: dict[str, Any], notes: list[str] | None = None) -> Any:
    return load_situation(ENGINE, sit, ScriptedRoller([]), notes)


def refused(sit: dict[str, Any]) -> str:
    with pytest.raises(ConfigError) as err:
        load(sit)
    return str(err.value)


# one valid value of each declared key, on a duel that stays loadable (the archer joins for aim_target)
ARCHER = {"template": "guard_crossbow", "name": "Ila", "position": 10}
VALID: dict[tuple[str, str], dict[str, Any]] = {
    ("situation", "name"): duel(name="the duel"),
    ("situation", "description"): duel(description="round three"),
    ("situation", "max_rounds"): duel(max_rounds=12),
    ("situation", "escape_distance"): duel(escape_distance=25.5),
    ("situation", "options"): duel(options={"disengage": "free"}),
    ("situation", "sides"): duel(),
    ("situation", "round"): duel(round=3),
    ("situation", "acting"): duel(),
    ("situation", "then"): duel(then=["Varo"]),
    ("situation", "pending"): duel(pending={"split": {"target": "Varo"}}),
    ("combatant", "location_hp"): duel(varo={"location_hp": {"left_leg": 2}}),
    ("combatant", "defense_dice"): duel(varo={"defense_dice": 3}),
    ("combatant", "aim_target"): {**duel(), "sides": [
        {"combatants": [duel()["sides"][0]["combatants"][0], {**ARCHER, "aim_target": "Varo"}]},
        duel()["sides"][1]]},
    ("combatant", "moving"): duel(varo={"moving": True}),
    ("combatant", "status"): duel(varo={"status": "active"}),
    ("combatant", "facing"): duel(kesh={"facing": "Varo"}),
}


def _declared() -> list[tuple[str, str]]:
    return [(f.scope, f.key) for f in FIELDS.fields]


def test_the_loader_takes_its_key_lists_from_the_declaration() -> None:
    assert content.SITUATION_KEYS == FIELDS.keys("situation")
    assert set(content.SCENARIO_KEYS) <= set(FIELDS.keys("situation"))  # a situation is a scenario in progress
    assert content.SITUATION_COMBATANT_KEYS == content.COMBATANT_KEYS + FIELDS.keys("combatant")
    assert FIELDS.keys("side") == ()  # a side takes the scenario's keys only
    assert FIELDS.required("situation") == ("sides", "acting")
    assert set(VALID) == set(_declared()), "give a valid value of each declared key in VALID"


@pytest.mark.parametrize("where", list(VALID), ids=lambda w: f"{w[0]}.{w[1]}")
def test_every_declared_key_is_accepted(where: tuple[str, str]) -> None:
    sit = copy.deepcopy(VALID[where])
    scope, key = where
    if scope == "situation":
        assert key in sit
    else:
        assert any(key in c for side in sit["sides"] for c in side["combatants"])
    state = load(sit)
    assert state.combatants[state.actor].name == "Kesh"
    if key != "pending":  # the plain loader reads the same keys (pending: load_situation reads it first)
        load_plain_situation(ENGINE, copy.deepcopy(sit), ScriptedRoller([]))


@pytest.mark.parametrize("scope", ["situation", "combatant"])
def test_an_undeclared_key_is_refused_naming_it(scope: str) -> None:
    sit = duel()
    if scope == "situation":
        sit["hit_points"] = 3
        valid = FIELDS.keys("situation")
        where = "hit_points"
    else:
        sit["sides"][0]["combatants"][0]["hit_points"] = 3
        valid = content.COMBATANT_KEYS + FIELDS.keys("combatant")
        where = "sides[0].combatants[0].hit_points"
    message = refused(sit)
    assert f"{where}: unknown key 'hit_points'; valid keys: {', '.join(valid)}" in message


def _numeric() -> list[Any]:
    return [f for f in FIELDS.fields if f.kind in ("int", "number") and (f.low is not None or f.high is not None)]


def _with(scope: str, key: str, value: Any) -> dict[str, Any]:
    return duel(**{key: value}) if scope == "situation" else duel(kesh={key: value})


@pytest.mark.parametrize("field", _numeric(), ids=lambda f: f.key)
def test_an_out_of_range_value_names_the_declared_range(field: Any) -> None:
    assert field.low is not None and field.high is not None
    for value in (field.low - 1, field.high + 1):
        message = refused(_with(field.scope, field.key, value))
        assert f"{field.key}: {value} is out of range: expected {field.low}..{field.high}" in message


def test_the_simple_values_are_checked_by_their_kind() -> None:
    assert "defense_dice: expected an integer, got '3'" in refused(duel(kesh={"defense_dice": "3"}))
    assert "escape_distance: expected a number, got 'far'" in refused(duel(escape_distance="far"))
    assert "moving: expected true or false, got 'yes'" in refused(duel(kesh={"moving": "yes"}))
    assert (f"status: unknown status 'asleep'; valid: {', '.join(STATUS_NAMES)}"
            in refused(duel(kesh={"status": "asleep"})))


def test_the_checks_that_depend_on_other_values_stay_in_the_loader() -> None:
    """Within the declared range, the loader still bounds what the situation itself bounds."""
    assert "max_rounds: 4 is out of range: expected 5..1000" in refused(duel(round=5, max_rounds=4))
    assert ("defense_dice: at most 7 (the dice of its melee pool that can be moved to DEFENSE), got 8"
            in refused(duel(kesh={"defense_dice": 8})))
    assert ("aim_target: an enemy, aimed at with a readied ranged weapon (D7)"
            in refused(duel(kesh={"aim_target": "Varo"})))
    assert "facing: the name of another combatant" in refused(duel(kesh={"facing": "Kesh"}))


def test_the_declared_defaults_are_what_the_loader_uses() -> None:
    defaulted = {(f.scope, f.key): f.default for f in FIELDS.fields if f.default is not NO_DEFAULT}
    assert set(defaulted) == {("situation", "max_rounds"), ("situation", "escape_distance"), ("situation", "round"),
                              ("combatant", "defense_dice"), ("combatant", "moving")}
    notes: list[str] = []
    state = load(duel(), notes)
    kesh = state.combatants[0]
    assert state.round == defaulted["situation", "round"]
    assert "round not given, assumed game turn 1" in notes and defaulted["situation", "round"] == 1
    assert state.max_rounds == defaulted["situation", "max_rounds"]
    assert state.escape_distance == defaulted["situation", "escape_distance"]
    assert type(state.escape_distance) is float
    assert kesh.defense_dice == defaulted["combatant", "defense_dice"]
    assert kesh.moving is defaulted["combatant", "moving"]
    assert load(duel(round=25)).max_rounds == 25  # the round cap is at least the round played


def test_a_status_left_out_comes_from_the_wounds() -> None:
    assert FIELDS.field("status", "combatant").default is NO_DEFAULT
    sit = duel(varo={"location_hp": {"head": -1}}, then=[])
    sit["sides"][1]["combatants"].append({"template": "duelist", "name": "Dax", "position": 2})
    notes: list[str] = []
    assert load(sit, notes).combatants[1].status == Status.UNCONSCIOUS
    assert any(n.startswith("Varo: status not given, unconscious") for n in notes)
    assert load(duel()).combatants[1].status == Status.ACTIVE


def test_the_web_form_is_the_declaration() -> None:
    assert FORM["situation_fields"] == FIELDS.form("situation")
    assert FORM["combatant_fields"] == FIELDS.form("combatant")
    assert FORM["statuses"] == list(STATUS_NAMES) == COMMON_STATUSES
    labels = {e["key"]: e["label"] for e in FORM["situation_fields"] + FORM["combatant_fields"]}
    assert labels == {"round": "Round", "defense_dice": "Dice in DEFENSE"}  # the page's words, unchanged
    assert set(labels.values()) <= set(WEB_STRINGS)
    dice = FORM["combatant_fields"][0]
    assert (dice["type"], dice["min"], dice["max"]) == ("int", 0, FIELDS.field("defense_dice", "combatant").high)


def test_the_pending_help_names_every_pending_kind() -> None:
    text = FIELDS.field("pending").help
    assert all(f"{{{name}: {{target:" in text for name in KINDS)


def test_the_plugin_and_the_docs_page_carry_the_declaration() -> None:
    assert get_system("dicepool").situation_declaration() is FIELDS
    assert FIELDS.markdown() in DOCS.read_text(encoding="utf-8")
