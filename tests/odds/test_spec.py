"""What a GM types for an encounter: groups and targets, read strictly (one line naming the option)."""

from __future__ import annotations

import math

import pytest

from npc_tactics.errors import UserError
from npc_tactics.gm.encounter.spec import Bound, group_text, parse_group, parse_target

NAMES = ["goblin", "goblin_archer", "orc", "fighter_2", "cleric_2"]


def test_groups_with_and_without_counts_add_up() -> None:
    assert parse_group("goblin x4, goblin_archer x2", NAMES) == (("goblin", 4), ("goblin_archer", 2))
    assert parse_group("fighter_2, cleric_2", NAMES, "--party") == (("fighter_2", 1), ("cleric_2", 1))
    assert parse_group("goblin x2, orc, goblin ×1", NAMES) == (("goblin", 3), ("orc", 1))
    assert group_text((("goblin", 3), ("orc", 1))) == "goblin x3, orc"


@pytest.mark.parametrize(("text", "fragment"), [
    ("gobelin x4", "--foes: unknown template 'gobelin'; valid templates: cleric_2, fighter_2, goblin"),
    ("goblin x0", "--foes: expected a count from 1 to 6 for goblin, got 0"),
    ("goblin x4, orc x3", "--foes: at most 6 combatants on a side, got 7"),
    ("goblin four", "--foes: expected NAME or NAME xN"),
    ("goblin,,orc", "--foes: expected NAME or NAME xN"),
    ("", "--foes: expected template names"),
])
def test_bad_groups_name_the_option(text: str, fragment: str) -> None:
    with pytest.raises(UserError, match=None) as caught:
        parse_group(text, NAMES)
    assert fragment in str(caught.value)


def test_targets_equalities_bounds_ranges_and_percentages() -> None:
    t = parse_target("win=0.7,pc_death<10%,rounds=4-8")
    assert t.bounds == (Bound("win", 0.7, 0.7), Bound("pc_death", -math.inf, 0.1), Bound("rounds", 4, 8))
    assert t.text() == "win=0.7,pc_death<=0.1,rounds=4-8"
    assert parse_target(" rout >= 0.2 ").get("rout") == Bound("rout", 0.2, math.inf)
    assert parse_target("win=60%-80%").get("win") == Bound("win", 0.6, 0.8)
    assert parse_target("win=0.7").get("rounds") is None


@pytest.mark.parametrize(("text", "fragment"), [
    ("loot=3", "unknown target key 'loot'; valid target keys: pc_death, rounds, rout, win"),
    ("win=1.7", "win: expected a rate from 0 to 1"),
    ("win=170%", "win: expected a rate from 0 to 1"),
    ("win=nan", "win: expected a finite number"),
    ("win=inf", "win: expected a finite number"),
    ("win=abc", "win: expected a number"),
    ("rounds=0", "rounds: expected a number of rounds from 1 to 100"),
    ("rounds=50%", "rounds: expected a number of rounds"),
    ("rounds=8-4", "rounds: the range '8-4' runs backwards"),
    ("rounds<4-8", "a range A-B goes with '='"),
    ("win=0.7,win>0.5", "win is given twice"),
    ("win", "expected KEY=VALUE"),
    ("", "expected terms such as"),
])
def test_bad_targets_name_the_term(text: str, fragment: str) -> None:
    with pytest.raises(UserError) as caught:
        parse_target(text)
    assert str(caught.value).startswith("--target: ") and fragment in str(caught.value)
