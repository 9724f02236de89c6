"""Issue 8 §3 for RuneQuest: a situation means what the GM wrote. Impossible states and bad option
values are one-line errors naming the field; values left out are defaulted and reported in
``notes``; the situation's rules options apply. Issue 8 §5: positions print to 0.1 m."""

from __future__ import annotations

from typing import Any

import pytest

from npc_tactics.dice import ScriptedRoller
from npc_tactics.errors import ConfigError
from npc_tactics.systems.runequest.rules import content
from npc_tactics.systems.runequest.rules.engine import RuneQuestEngine


def _situation(snik: dict[str, Any] | None = None, **top: Any) -> dict[str, Any]:
    return {
        "name": "mid-fight",
        "round": 3,
        "acting": "Snik",
        "sides": [
            {"name": "a", "combatants": [{"template": "trollkin", "name": "Snik", **(snik or {})}]},
            {"name": "b", "combatants": [{"template": "humakti_swordsman", "position": 1.5}]},
        ],
        **top,
    }


def _load(sit: dict[str, Any], notes: list[str] | None = None, **opts: Any):  # type: ignore[no-untyped-def]
    eng = RuneQuestEngine(opts or None)
    return eng, content.load_situation(eng, sit, ScriptedRoller([]), notes)


@pytest.mark.parametrize(
    ("snik", "field", "fragment"),
    [
        ({"hp": 7, "wounds": {"left_leg": 3}}, "hp", "7 is more than the 5 its wounds leave"),
        ({"hp": 0}, "hp", "dies at the end of the round"),
        ({"hp": -3, "status": "active"}, "hp", "give status: dead"),
        ({"wounds": {"head": 3}, "status": "active"}, "status", "make it unconscious"),
        ({"weapon_hp": {"club": 30}}, r"weapon_hp\.club", "out of range"),
        ({"mp": 20}, "mp", "more than its POW"),
        ({"bleeding": "yes"}, "bleeding", "expected true or false"),
    ],
)
def test_impossible_conditions_are_rejected(snik: dict[str, Any], field: str, fragment: str) -> None:
    with pytest.raises(ConfigError, match=rf"<situation>: sides\[0\]\.combatants\[0\]\.{field}: .*{fragment}"):
        _load(_situation(snik))


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"knockback_rule": "shove"}, "options.knockback_rule"),
        ({"flight": "teleport"}, "options.flight"),
        ({"metres_per_mov": 0}, "options.metres_per_mov"),
        ({"crit_db": True}, "options.crit_db"),
        ({"bleeding_clocks": "no"}, "options.bleeding_clocks"),
        ({"tie_mode": "reroll"}, "options.tie_mode"),
    ],
)
def test_option_values_are_checked(options: dict[str, Any], field: str) -> None:
    with pytest.raises(ConfigError, match=rf"<situation>: {field}: "):
        _load(_situation(options=options))
    scen = {**content.load_scenario("parry_duel")}
    with pytest.raises((ConfigError, ValueError)):
        content.validate_scenario({k: v for k, v in scen.items() if k != "file"} | {"options": options}, "x.yaml")


def test_engine_checks_option_values_of_a_scenario_mapping() -> None:
    """A scenario handed straight to ``new_combat`` goes through the same value check."""
    scen = {**content.load_scenario("parry_duel"), "options": {"lost_parry": "never"}}
    with pytest.raises(ValueError, match="lost_parry"):
        RuneQuestEngine().new_combat(scen, ScriptedRoller([]))
    with pytest.raises(ValueError, match="metres_per_mov"):
        RuneQuestEngine({"metres_per_mov": -2})


def test_situation_options_apply_and_the_command_line_wins() -> None:
    eng, state = _load(_situation(options={"flight": "escape"}))
    assert state.options["flight"] == "escape" and eng.options["flight"] == "pursuit"  # the engine's stay put
    notes: list[str] = []
    _, state = _load(_situation(options={"flight": "escape"}), notes, flight="pursuit")
    assert state.options["flight"] == "pursuit"
    assert any("flight" in n and "command line" in n for n in notes)


def test_assumptions_are_reported_in_notes() -> None:
    notes: list[str] = []
    sit = _situation({"wounds": {"left_leg": 2}})
    del sit["round"]
    _, s = _load(sit, notes)
    snik, hum = s.combatants
    assert s.round == 1 and snik.hp == snik.max_hp - 2
    assert "round not given: round 1" in notes[0]
    assert f"Snik: hp not given, {snik.max_hp - 2}/{snik.max_hp}" in " ".join(notes)
    assert "Snik: position not given, placed at 0m" in notes
    assert any(n.startswith("humakti_swordsman: rune_points not given, full (3)") for n in notes)
    quiet: list[str] = []
    _load(_situation({"hp": 5, "mp": 8, "position": 0}), quiet)
    assert not any(n.startswith("Snik") for n in quiet)


def test_a_given_unconscious_status_is_kept() -> None:
    """An unhurt character the GM calls unconscious stays unconscious (settle must not wake it)."""
    sit = _situation(acting="humakti_swordsman")
    sit["sides"][0]["combatants"][0]["status"] = "unconscious"
    _, s = _load(sit)
    assert s.combatants[0].status.name == "UNCONSCIOUS"


def test_positions_print_to_a_tenth_of_a_metre() -> None:
    """Issue 8 §5: a 1.5 m position printed as "2m" hid that the foe was within 2 m reach."""
    eng, s = _load(_situation())
    text = eng.describe(s)
    assert "pos 1.5m" in text and "pos 0m" in text and "2m" not in text
