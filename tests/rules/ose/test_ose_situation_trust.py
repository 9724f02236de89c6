"""Issue 8 §3 for OSE: a situation means what the GM wrote. Impossible hit points and options are errors
naming the field; what is left out is defaulted and said in ``notes``."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from npc_tactics.dice import RngRoller
from npc_tactics.errors import ConfigError
from npc_tactics.systems.ose.rules.content import load_situation
from npc_tactics.systems.ose.rules.engine import OSEEngine


def situation(goblin: dict[str, Any], **top: Any) -> dict[str, Any]:
    return {
        "acting": "Snikkit",
        "sides": [
            {
                "combatants": [
                    {"template": "goblin_archer", "name": "Snikkit", "position": 0, **goblin},
                    {"template": "goblin", "name": "Grak", "position": 0, "hp": 3, "max_hp": 3},
                ]
            },
            {"combatants": [{"template": "fighter_1", "name": "Brannoc", "position": 1.5, "hp": 5, "max_hp": 9}]},
        ],
        **top,
    }


def load(sit: dict[str, Any], notes: list[str] | None = None, seed: int = 0) -> Any:
    return load_situation(OSEEngine(), sit, RngRoller(np.random.default_rng(seed)), notes)


def error(sit: dict[str, Any]) -> ConfigError:
    with pytest.raises(ConfigError) as err:
        load(sit)
    assert "\n" not in str(err.value)
    return err.value


def test_hp_above_max_hp_is_an_error() -> None:
    e = error(situation({"hp": 10, "max_hp": 3}))  # used to become 3/3
    assert e.field == "sides[0].combatants[0].hp" and "at most max_hp (3)" in str(e)


def test_negative_hp_of_an_active_combatant_is_an_error() -> None:
    e = error(situation({"hp": -5}))  # used to show the goblin active at 1/3
    assert e.field == "sides[0].combatants[0].hp" and "status: dead" in str(e)
    notes: list[str] = []
    st = load(situation({"hp": -5, "status": "dead"}, acting="Grak"), notes)
    assert st.combatants[0].hp == -5 and len(notes) == 2 and "first death" in notes[0]
    assert "0 or less" in str(error(situation({"hp": 2, "status": "dead"}, acting="Grak")))


def test_hp_alone_is_the_current_hp_of_an_average_goblin() -> None:
    notes: list[str] = []
    c = load(situation({"hp": 1}), notes).combatants[0]  # used to mean 1/1, an unhurt goblin
    assert (c.hp, c.max_hp) == (1, 3)  # 1d8-1: average 3 (the OSE stat block's "(3hp)")
    assert notes == [
        "Snikkit: max_hp not given, taken as 3 (the goblin_archer average, 1d8-1); hp 1 is its current hit points"
    ]
    notes.clear()
    c = load(situation({"hp": 6}), notes).combatants[0]
    assert (c.hp, c.max_hp) == (6, 6) and "unhurt" in notes[0]
    e = error(situation({"hp": 8}))  # more than 1d8-1 can roll
    assert "at most 7" in str(e) and "max_hp" in str(e)
    c = load(situation({"hp": 8, "max_hp": 12})).combatants[0]
    assert (c.hp, c.max_hp) == (8, 12)


def test_max_hp_alone_is_unhurt_and_said() -> None:
    notes: list[str] = []
    c = load(situation({"max_hp": 5}), notes).combatants[0]
    assert (c.hp, c.max_hp) == (5, 5) and notes == ["Snikkit: hp not given, taken as max_hp 5 (unhurt)"]


def test_hp_left_out_is_rolled_and_said() -> None:
    notes: list[str] = []
    c = load(situation({}), notes, seed=3).combatants[0]
    assert notes == [f"Snikkit: hp not given, rolled {c.hp} (1d8-1)"] and c.hp == c.max_hp


def test_hp_must_be_a_number() -> None:
    e = error(situation({"hp": "1d8"}))
    assert e.field == "sides[0].combatants[0].hp" and "whole number" in str(e)


def test_option_values_are_checked() -> None:
    e = error(situation({"hp": 2}, options={"tie_mode": "bogus"}))
    assert e.field == "options.tie_mode" and "simultaneous" in str(e) and "'bogus'" in str(e)
    e = error(situation({"hp": 2}, options={"withdraw_attack": "sometimes"}))
    assert e.field == "options.withdraw_attack"
    e = error(situation({"hp": 2}, options={"morale": "yes"}))
    assert e.field == "options.morale"


def test_morale_passed_cannot_exceed_the_checks_made() -> None:
    sit = situation({"hp": 2, "morale_passed": 1})
    sit["sides"][0]["morale_checked"] = []
    e = error(sit)
    assert e.field == "sides[0].combatants[0].morale_passed"
    sit["sides"][0]["morale_checked"] = ["dinner"]
    assert error(sit).field == "sides[0].morale_checked[0]"
