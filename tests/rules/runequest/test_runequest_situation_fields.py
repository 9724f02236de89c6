"""RuneQuest's situation keys are declared once (``systems/runequest/rules/situation_fields.py``): the loader accepts
exactly the declared keys, refuses values outside the declared ranges (the error giving that range), uses the
declared defaults for the keys left out, and the web form is drawn from the same declaration."""

from __future__ import annotations

import copy
import re
from typing import Any

import pytest

from npc_tactics.dice import ScriptedRoller
from npc_tactics.errors import ConfigError
from npc_tactics.registry import get_system
from npc_tactics.rules.base import Status
from npc_tactics.rules.situation_fields import NO_DEFAULT, SituationField
from npc_tactics.systems.runequest import form
from npc_tactics.systems.runequest.rules import content
from npc_tactics.systems.runequest.rules.engine import RuneQuestEngine
from npc_tactics.systems.runequest.rules.pending import KINDS
from npc_tactics.systems.runequest.rules.scenario import ENTRY_KEYS, SCENARIO_KEYS, SIDE_KEYS
from npc_tactics.systems.runequest.rules.situation_fields import FIELDS, PENDING_KINDS, STATUS_NAMES

#: one valid value of each declared key, for the small situation below (Snik, a trollkin, faces a Humakti)
SITUATION_SAMPLES: dict[str, Any] = {
    "round": 2,
    "acting": "Snik",
    "pending": {"aimed_blow": {"target": "humakti_swordsman"}},
    "name": "a sample",
    "description": "Snik toe to toe with a Humakti",
    "max_rounds": 10,
    "distance": 3,
    "surprised": 0,
    "options": {"crit_db": "max"},
    "sides": None,  # the situation's own (every situation gives it)
}
COMBATANT_SAMPLES: dict[str, Any] = {
    "hp": 6,
    "wounds": {"left_leg": 1},
    "rune_points": 0,
    "status": "active",
    "weapon_hp": {"club": 3},
    "bleeding": True,
    "poison_doses": [{"potency": 12, "rounds": 1}],
}


def _situation(snik: dict[str, Any] | None = None, humakti: dict[str, Any] | None = None,
               **top: Any) -> dict[str, Any]:
    return {
        "round": 3,
        "acting": "Snik",
        "sides": [
            {"name": "a", "combatants": [{"template": "trollkin", "name": "Snik", **(snik or {})},
                                         {"template": "trollkin", "name": "Nob", "position": -1}]},
            {"name": "b", "combatants": [{"template": "humakti_swordsman", "position": 1.5, **(humakti or {})}]},
        ],
        **top,
    }


def _load(sit: dict[str, Any], notes: list[str] | None = None) -> Any:
    return content.load_situation(RuneQuestEngine(), copy.deepcopy(sit), ScriptedRoller([]), notes)


def _error(sit: dict[str, Any]) -> ConfigError:
    with pytest.raises(ConfigError) as info:
        _load(sit)
    return info.value


def _put(scope: str, key: str, value: Any) -> dict[str, Any]:
    """The small situation with ``key`` set to ``value`` (at the top, or on Snik)."""
    return _situation(**{key: value}) if scope == "situation" else _situation({key: value})


def test_the_plugin_and_the_form_use_the_declaration() -> None:
    assert get_system("runequest").situation_declaration() is FIELDS
    assert form.FORM["situation_fields"] == FIELDS.form("situation")
    assert form.FORM["combatant_fields"] == FIELDS.form("combatant")
    assert form.FORM["statuses"] == list(STATUS_NAMES) == list(FIELDS.field("status", "combatant").choices)
    # the page's labels as before the declaration (msgids of the web catalogue)
    assert [(f["key"], f["label"]) for f in form.FORM["situation_fields"]] == [
        ("round", "Round"), ("distance", "Distance (m) where no position is given")]
    assert [f["key"] for f in form.FORM["combatant_fields"]] == ["poison_doses"]  # a row of inputs per dose


def test_the_declared_keys_are_the_scenario_keys_plus_the_situation_s_own() -> None:
    assert set(FIELDS.keys("situation")) == SCENARIO_KEYS | {"round", "acting", "pending"}
    assert FIELDS.keys("side") == ()
    assert PENDING_KINDS == tuple(KINDS)
    assert set(SITUATION_SAMPLES) == set(FIELDS.keys("situation"))
    assert set(COMBATANT_SAMPLES) == set(FIELDS.keys("combatant"))


def test_an_undeclared_situation_key_is_refused_and_the_valid_ones_are_the_declared_ones() -> None:
    err = _error(_situation(phase="declare"))
    assert err.field == "phase"
    assert str(err).endswith(f"unknown key 'phase'; valid keys: {', '.join(sorted(FIELDS.keys('situation')))}")


def test_an_undeclared_combatant_key_is_refused_and_the_valid_ones_are_the_entry_and_declared_ones() -> None:
    err = _error(_situation({"morale": 3}))
    assert err.field == "sides[0].combatants[0].morale"
    valid = sorted(ENTRY_KEYS | set(FIELDS.keys("combatant")))
    assert str(err).endswith(f"unknown key 'morale'; valid keys: {', '.join(valid)}")


def test_a_side_takes_only_the_scenario_s_side_keys() -> None:
    sit = _situation()
    sit["sides"][1]["morale_checked"] = []
    err = _error(sit)
    assert err.field == "sides[1].morale_checked"
    assert str(err).endswith(f"valid keys: {', '.join(sorted(SIDE_KEYS | set(FIELDS.keys('side'))))}")


@pytest.mark.parametrize("key", [k for k in FIELDS.keys("situation") if k != "sides"])
def test_each_declared_situation_key_is_accepted(key: str) -> None:
    _load(_situation(**{key: SITUATION_SAMPLES[key]}))


@pytest.mark.parametrize("key", FIELDS.keys("combatant"))
def test_each_declared_combatant_key_is_accepted(key: str) -> None:
    _load(_situation({key: COMBATANT_SAMPLES[key]}))


def test_every_declared_key_at_once() -> None:
    top = {k: v for k, v in SITUATION_SAMPLES.items() if k != "sides"}
    state = _load(_situation(dict(COMBATANT_SAMPLES), **top))
    snik = state.combatants[0]
    assert (state.round, state.max_rounds, state.surprised) == (2, 10, (0,))
    assert (snik.hp, snik.rune_points, snik.weapons[0].hp, snik.bleed_clock > 0) == (6, 0, 3, True)


def _range_text(low: Any, high: Any) -> str:
    """What :func:`npc_tactics.configs.validate.integer`/``number`` say is expected."""
    if low is not None and high is not None:
        return f"{low}..{high}"
    return f"at least {low}" if low is not None else f"at most {high}"


def _bounded() -> list[tuple[SituationField, Any]]:
    cases = []
    for f in FIELDS.fields:
        if f.kind not in ("int", "number"):
            continue
        step = 1 if f.kind == "int" else 0.5
        if f.low is not None:
            cases.append((f, f.low - step))
        if f.high is not None:
            cases.append((f, f.high + step))
    return cases


@pytest.mark.parametrize(("field", "value"), _bounded(), ids=lambda x: x.key if isinstance(x, SituationField) else "")
def test_an_out_of_range_value_names_the_declared_range(field: SituationField, value: Any) -> None:
    low, high = field.low, field.high
    if field.key == "round":  # narrowed to the situation's round cap (by default the declared one)
        high = FIELDS.field("max_rounds").default
    err = _error(_put(field.scope, field.key, value))
    assert err.field == (field.key if field.scope == "situation" else f"sides[0].combatants[0].{field.key}")
    assert re.search(r"is out of range: expected (.+)$", str(err)).group(1) == _range_text(low, high)  # type: ignore[union-attr]


def test_the_round_is_bounded_by_the_situation_s_max_rounds() -> None:
    assert _error(_situation(round=9, max_rounds=8)).message.endswith("9 is out of range: expected 1..8")
    assert _load(_situation(round=8, max_rounds=8)).round == 8


@pytest.mark.parametrize(("key", "value", "fragment"), [
    ("status", "zombie", f"unknown status 'zombie'; valid: {', '.join(STATUS_NAMES)}"),
    ("bleeding", "yes", "expected true or false, got 'yes'"),
    ("hp", "x", "expected an integer, got 'x'"),
])
def test_a_value_of_the_wrong_kind_is_refused(key: str, value: Any, fragment: str) -> None:
    err = _error(_situation({key: value}))
    assert err.field == f"sides[0].combatants[0].{key}"
    assert str(err).endswith(fragment)


@pytest.mark.parametrize("status", STATUS_NAMES)
def test_every_declared_status_is_accepted(status: str) -> None:
    snik = {"status": status, **({"hp": 2} if status == "unconscious" else {})}
    state = _load(_situation(snik, acting="Nob"))
    assert state.combatants[0].status == Status[status.upper()]


#: where the loaded state shows each key that has a declared default
_SEEN = {
    "round": lambda st: st.round,
    "max_rounds": lambda st: st.max_rounds,
    "distance": lambda st: st.combatants[2].pos,  # the Humakti, given no position, stands at the distance
    "bleeding": lambda st: st.combatants[0].bleed_clock > 0,
}


def test_every_declared_default_is_looked_at() -> None:
    assert set(_SEEN) == {f.key for f in FIELDS.fields if f.default is not NO_DEFAULT}


@pytest.mark.parametrize("key", sorted(_SEEN))
def test_a_key_left_out_takes_its_declared_default(key: str) -> None:
    sit = _situation()
    sit.pop("round")
    del sit["sides"][1]["combatants"][0]["position"]
    notes: list[str] = []
    state = _load(sit, notes)
    assert _SEEN[key](state) == FIELDS.field(key, "situation" if key in FIELDS.keys("situation")
                                             else "combatant").default
    if key == "round":  # the note says the default
        default = FIELDS.field("round").default
        assert f"round not given: round {default} (no surprise penalty applies after round 1)" in map(str, notes)


def test_surprised_left_out_surprises_nobody() -> None:
    assert _load(_situation()).surprised == ()


@pytest.mark.parametrize("key", FIELDS.required("situation"))
def test_a_required_key_left_out_is_an_error_naming_it(key: str) -> None:
    sit = _situation()
    sit.pop(key)
    assert _error(sit).field == key
