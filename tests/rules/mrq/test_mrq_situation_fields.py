"""The MRQ situation keys are declared once (:mod:`npc_tactics.systems.mrq.rules.situation_fields`): the loader
accepts exactly the declared keys, checks the simple values against the declared ranges and choices, falls back on
the declared defaults, and the web form draws the labelled fields from the same declaration."""

from __future__ import annotations

import copy
from dataclasses import fields
from typing import Any

import numpy as np
import pytest

from npc_tactics.configs import validate as V
from npc_tactics.dice import RngRoller
from npc_tactics.errors import ConfigError
from npc_tactics.rules.base import Status
from npc_tactics.rules.situation_fields import NO_DEFAULT
from npc_tactics.systems.mrq.form import FORM
from npc_tactics.systems.mrq.rules.content import load_situation
from npc_tactics.systems.mrq.rules.engine import MRQEngine
from npc_tactics.systems.mrq.rules.scenario import COMBATANT_KEYS
from npc_tactics.systems.mrq.rules.situation import load_plain_situation
from npc_tactics.systems.mrq.rules.situation_fields import FIELDS, MOUNT_KEYS, STATUS_NAMES, WEAPON_STATES
from npc_tactics.systems.mrq.rules.state import DROPPED, MRQState
from npc_tactics.systems.mrq.rules.tables import APART, LONG

ENGINE = MRQEngine()
GUARD = "sides[0].combatants[0]"


def _sit(guard: dict[str, Any] | None = None, axe: dict[str, Any] | None = None, **over: Any) -> dict[str, Any]:
    """A small valid situation: the Guard (sword and shield, 3 Reactions a round) acts against the Axeman."""
    base: dict[str, Any] = {
        "acting": "Guard",
        "sides": [
            {"name": "npc", "combatants": [{"template": "sword_and_shield", "name": "Guard", **(guard or {})}]},
            {"name": "pc", "combatants": [{"template": "great_axe", "name": "Axeman", **(axe or {})}]},
        ],
    }
    base.update(over)
    return base


def _load(sit: dict[str, Any], notes: list[str] | None = None) -> MRQState:
    return load_situation(ENGINE, copy.deepcopy(sit), RngRoller(np.random.default_rng(0)), notes)


def _error(sit: dict[str, Any]) -> ConfigError:
    with pytest.raises(ConfigError) as info:
        _load(sit)
    return info.value


def _digest(st: MRQState) -> dict[str, Any]:
    """What a loaded state holds, comparable between two loads."""
    return {
        "round": st.round, "max_rounds": st.max_rounds, "dist": list(st.dist), "gap": list(st.gap),
        "order": list(st.order), "decision": repr(st.decision),
        "combatants": [{f.name: repr(getattr(c, f.name)) for f in fields(c) if f.name != "prof"}
                       for c in st.combatants],
    }


# ----- the loader accepts exactly the declared keys ------------------------------------------------------------

#: a valid situation using each declared situation key (acting and sides are in every one)
SITUATION_SAMPLES: dict[str, dict[str, Any]] = {
    "round": {"round": 2},
    "acting": {},
    "distance": {"distance": "close"},
    "range": {"distance": "apart", "range": 10},
    "distances": {"distances": [{"a": "Guard", "b": "Axeman", "distance": "apart", "metres": 12}]},
    "options": {"options": {"knockback": True}},
    "max_rounds": {"max_rounds": 30},
    "sides": {},
    "name": {"name": "a test"},
    "description": {"description": "the Guard at the gate"},
    "pending": {"distance": "close", "pending": {"incoming": {"attacker": "Axeman"}}},
}
#: per declared combatant key: (the Guard's fields, the Axeman's fields), a valid situation using it
COMBATANT_SAMPLES: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
    "locations": ({"locations": {"chest": 3}}, {}),
    "prone": ({"prone": True}, {}),
    "weapon": ({"weapon": "dropped"}, {}),
    "reactions": ({"reactions": 1}, {}),
    "lost_ca": ({}, {"lost_ca": 2}),
    "status": ({"status": "active"}, {}),
    "useless": ({"locations": {"left_arm": -1}, "useless": ["left_arm"]}, {}),
    "ammo": ({}, {"template": "archer", "ammo": 5}),
    "mount": ({"template": "mounted_lancer", "mount": {"locations": {"head": 2}, "reactions": 1}}, {}),
}


def test_every_declared_key_has_a_sample() -> None:
    assert set(SITUATION_SAMPLES) == set(FIELDS.keys("situation"))
    assert set(COMBATANT_SAMPLES) == set(FIELDS.keys("combatant"))


@pytest.mark.parametrize("key", list(SITUATION_SAMPLES))
def test_every_declared_situation_key_is_accepted(key: str) -> None:
    st = _load(_sit(**SITUATION_SAMPLES[key]))
    assert st.combatants[0].name == "Guard"


@pytest.mark.parametrize("key", list(COMBATANT_SAMPLES))
def test_every_declared_combatant_key_is_accepted(key: str) -> None:
    guard, axe = COMBATANT_SAMPLES[key]
    assert key in guard or key in axe
    _load(_sit(guard, axe))


def test_the_loader_s_own_key_list_is_the_declaration() -> None:
    """``pending`` is taken off by the shared pending loader; the plain loader still accepts it (declared)."""
    st = load_plain_situation(ENGINE, _sit(pending={"incoming": {"attacker": "Axeman"}}),
                              RngRoller(np.random.default_rng(0)))
    assert st.decision is not None and st.decision.actor == 0


def test_an_undeclared_situation_key_is_refused_naming_it() -> None:
    err = _error(_sit(hp=3))
    assert err.field == "hp"
    assert str(err.message) == f"unknown key 'hp'; valid keys: {', '.join(FIELDS.keys('situation'))}"


def test_an_undeclared_combatant_key_is_refused_naming_it() -> None:
    """A scenario combatant's keys (less those a situation gives another meaning), then the declared ones."""
    err = _error(_sit({"hp": 3}))
    assert err.field == f"{GUARD}.hp"
    own = [k for k in COMBATANT_KEYS if k not in FIELDS.keys("combatant")]
    assert str(err.message) == f"unknown key 'hp'; valid keys: {', '.join(own + list(FIELDS.keys('combatant')))}"


def test_the_mount_takes_the_declared_mount_keys() -> None:
    assert set(MOUNT_KEYS) <= set(FIELDS.keys("combatant"))
    assert FIELDS.field("mount", "combatant").kind == "mapping"
    err = _error(_sit({"template": "mounted_lancer", "mount": {"prone": True}}))
    assert err.field == f"{GUARD}.mount.prone"
    assert str(err.message) == f"unknown key 'prone'; valid keys: {', '.join(MOUNT_KEYS)}"
    horse = {"locations": {"head": 1}, "status": "unconscious", "useless": [], "reactions": 0}
    assert set(horse) == set(MOUNT_KEYS)
    st = _load(_sit({"template": "mounted_lancer", "mount": horse}))
    assert [c.status for c in st.combatants if c.template == "warhorse"] == [Status.UNCONSCIOUS]
    assert st.combatants[0].mount < 0  # the mount out of the fight has thrown its rider, who is on foot


def test_the_required_keys_are_declared_required() -> None:
    assert FIELDS.required("situation") == ("acting", "sides")
    for key in FIELDS.required("situation"):
        sit = _sit()
        del sit[key]
        err = _error(sit)
        assert (err.field, str(err.message)) == (key, "missing required key")


# ----- simple values are checked against the declaration ------------------------------------------------------

#: the int fields checked against their declared range as it stands (round: with max_rounds at its top)
PLAIN_RANGES = {("situation", "round"), ("situation", "max_rounds"), ("situation", "range"),
                ("combatant", "lost_ca")}
#: the int fields whose top the situation narrows: (the top for the Guard, the top for an archer)
NARROWED = {("combatant", "reactions"): 3, ("combatant", "ammo"): 0}


def _int_fields() -> list[tuple[str, str]]:
    return [(f.scope, f.key) for f in FIELDS.fields if f.kind == "int"]


def test_every_int_field_is_tested_for_its_range() -> None:
    assert set(_int_fields()) == PLAIN_RANGES | set(NARROWED)


def _with(scope: str, key: str, value: Any) -> tuple[dict[str, Any], str]:
    if scope == "situation":
        over = {key: value} if key != "round" else {"round": value, "max_rounds": 1000}
        return _sit(**over), key
    return _sit({key: value}), V.join(GUARD, key)


@pytest.mark.parametrize(("scope", "key"), sorted(PLAIN_RANGES))
@pytest.mark.parametrize("side", ["low", "high"])
def test_an_out_of_range_value_gives_the_declared_range(scope: str, key: str, side: str) -> None:
    f = FIELDS.field(key, scope)
    assert f.low is not None and f.high is not None
    value = int(f.low) - 1 if side == "low" else int(f.high) + 1
    sit, path = _with(scope, key, value)
    err = _error(sit)
    assert err.field == path
    assert str(err.message) == f"{value} is out of range: expected {int(f.low)}..{int(f.high)}"


@pytest.mark.parametrize(("scope", "key"), sorted(NARROWED))
def test_a_narrowed_range_keeps_the_declared_bottom(scope: str, key: str) -> None:
    f = FIELDS.field(key, scope)
    top = NARROWED[(scope, key)]
    assert f.low == 0 and f.high is not None and top <= f.high
    for value in (-1, top + 1):
        err = _error(_with(scope, key, value)[0])
        assert err.field == V.join(GUARD, key)
        assert str(err.message) == f"{value} is out of range: expected {int(f.low)}..{top}"


def test_the_round_is_at_most_max_rounds() -> None:
    err = _error(_sit(round=6, max_rounds=5))
    assert str(err.message) == "6 is out of range: expected 1..5"


def test_an_archer_s_ammo_is_at_most_its_template_s() -> None:
    err = _error(_sit(axe={"template": "archer", "ammo": 13}))
    assert (err.field, str(err.message)) == ("sides[1].combatants[0].ammo", "13 is out of range: expected 0..12")


@pytest.mark.parametrize(("scope", "key"), [(f.scope, f.key) for f in FIELDS.fields if f.kind == "choice"])
def test_an_unknown_choice_lists_the_declared_choices(scope: str, key: str) -> None:
    f = FIELDS.field(key, scope)
    sit, path = _with(scope, key, "bogus")
    err = _error(sit)
    assert err.field == path
    assert str(err.message) == f"unknown {f.what or f.key} 'bogus'; valid: {', '.join(f.choices)}"


def test_the_choices_are_the_engine_s() -> None:
    assert STATUS_NAMES == tuple(s.name.lower() for s in Status)
    assert FIELDS.field("status", "combatant").choices == STATUS_NAMES
    assert FIELDS.field("weapon", "combatant").choices == WEAPON_STATES
    assert FIELDS.field("weapon", "combatant").what == "weapon state"


def test_a_bool_field_wants_true_or_false() -> None:
    err = _error(_sit({"prone": "yes"}))
    assert (err.field, str(err.message)) == (f"{GUARD}.prone", "expected true or false, got 'yes'")


@pytest.mark.parametrize("key", ["status", "reactions"])
def test_the_mount_s_values_are_checked_as_a_combatant_s(key: str) -> None:
    err = _error(_sit({"template": "mounted_lancer", "mount": {key: "bogus"}}))
    assert err.field == f"{GUARD}.mount.{key}"


# ----- declared defaults are what the loader takes ------------------------------------------------------------


def _defaulted() -> list[tuple[str, str]]:
    return [(f.scope, f.key) for f in FIELDS.fields if f.default is not NO_DEFAULT]


def test_the_declared_defaults() -> None:
    shown = {(s, k): FIELDS.field(k, s).default for s, k in _defaulted()}
    assert shown == {
        ("situation", "round"): 1, ("situation", "distance"): "long", ("situation", "range"): 0,
        ("situation", "max_rounds"): 20, ("situation", "name"): "situation",
        ("combatant", "prone"): False, ("combatant", "weapon"): "ready", ("combatant", "lost_ca"): 0,
        ("combatant", "status"): "active",
    }


@pytest.mark.parametrize(("scope", "key"), _defaulted())
def test_leaving_a_key_out_is_giving_its_declared_default(scope: str, key: str) -> None:
    default = FIELDS.field(key, scope).default
    if scope == "situation":
        left_out, given = _sit(), _sit(**{key: default})
    else:
        left_out, given = _sit(), _sit({key: default})
    assert _digest(_load(left_out)) == _digest(_load(given))


def test_the_defaults_land_in_the_state() -> None:
    st = _load(_sit())
    g = st.combatants[0]
    assert st.round == FIELDS.field("round").default
    assert st.max_rounds == FIELDS.field("max_rounds").default
    assert st.distance(0, 1) == LONG and FIELDS.field("distance").default == "long"
    assert (g.prone, g.lost_ca, g.status) == (False, 0, Status.ACTIVE)
    assert g.reactions == 3  # derived, not declared: all a round gives (2 Combat Actions + the shield)
    apart = _load(_sit(distance="apart"))
    assert apart.distance(0, 1) == APART and apart.metres(0, 1) == FIELDS.field("range").default


def test_a_given_value_is_not_the_default() -> None:
    """The comparison above can fail: a value other than the default changes the state."""
    assert _digest(_load(_sit())) != _digest(_load(_sit({"weapon": "dropped"})))
    assert _load(_sit({"weapon": "dropped"})).combatants[0].weapon_state == DROPPED


def test_the_derived_defaults_are_said() -> None:
    notes: list[str] = []
    st = _load(_sit(axe={"template": "archer"}), notes)
    assert "round not given: round 1" in notes
    assert "Guard: reactions not given, all 3 left this round" in notes
    archer = st.combatants[1]
    assert archer.ammo == archer.prof.ammo == 12


# ----- the web form is drawn from the declaration -------------------------------------------------------------


def test_the_form_fields_are_the_declaration_s() -> None:
    assert FORM["situation_fields"] == FIELDS.form("situation")
    by_key = sorted(FIELDS.form("combatant"), key=lambda e: str(e["key"]))
    assert sorted(FORM["combatant_fields"], key=lambda e: str(e["key"])) == by_key
    assert FORM["statuses"] == list(STATUS_NAMES)


def test_the_form_keeps_the_page_s_order_and_labels() -> None:
    """Labels are msgids of the web catalogue: the page translates them."""
    assert [(e["key"], e["label"]) for e in FORM["combatant_fields"]] == [
        ("reactions", "Reactions left"), ("weapon", "Weapon"), ("prone", "Prone")]
    assert [(e["key"], e["label"]) for e in FORM["situation_fields"]] == [("round", "Round"), ("distance", "Distance")]


def test_the_form_entries() -> None:
    """What the page drew before the declaration, plus the defaults it may show."""
    assert FORM["combatant_fields"] == [
        {"key": "reactions", "label": "Reactions left", "type": "int", "min": 0, "max": 10},
        {"key": "weapon", "label": "Weapon", "choices": ["ready", "dropped", "broken"], "default": "ready"},
        {"key": "prone", "label": "Prone", "type": "bool", "default": False},
    ]
    assert FORM["situation_fields"] == [
        {"key": "round", "label": "Round", "type": "int", "min": 1, "max": 1000, "default": 1},
        {"key": "distance", "label": "Distance", "choices": ["apart", "long", "close"], "default": "close"},
    ]
