"""Success levels, margins and exact probabilities (mrq-opposed.md §2, test vector 11, A1, A2)."""

from __future__ import annotations

from fractions import Fraction

from npc_tactics.systems.mrq.rules.opposed import (
    compare,
    critical_range,
    effects_granted,
    level_distribution,
    success_level,
    win_probability,
)
from npc_tactics.systems.mrq.rules.tables import (
    CRITICAL,
    FAILURE,
    FUMBLE,
    SUCCESS,
    combat_actions,
    damage_modifier,
    location_hp,
)

DEFAULTS = {"deflection_points": True, "dp_effects_by_margin": [0, 1, 1, 1]}


def test_levels() -> None:
    assert success_level(100, 200) == FUMBLE
    assert success_level(7, 70) == CRITICAL
    assert success_level(8, 70) == SUCCESS
    assert success_level(70, 70) == SUCCESS
    assert success_level(71, 70) == FAILURE
    assert success_level(3, 1) == SUCCESS  # 01–05 always succeed
    assert success_level(3, 1, auto=False) == FAILURE
    assert success_level(97, 150) == FAILURE  # 96–99 always fail
    assert critical_range(45) == 5 and critical_range(44) == 4


def test_vector_11_margins() -> None:
    assert compare(CRITICAL, 5, FAILURE, 80) == (0, 2)  # critical vs failure: major victory
    assert compare(SUCCESS, 30, FUMBLE, 100) == (0, 2)
    assert compare(CRITICAL, 3, FUMBLE, 100) == (0, 3)  # critical victory
    assert compare(SUCCESS, 41, SUCCESS, 55) == (
        1,
        0,
    )  # equal levels: higher roll wins, partial victory
    assert compare(SUCCESS, 55, SUCCESS, 55) == (1, 0)  # equal rolls: the defender (A2)


def test_a1_nobody_wins_among_failures_unless_option() -> None:
    assert compare(FAILURE, 80, FUMBLE, 100) == (-1, 0)
    assert compare(FAILURE, 80, FUMBLE, 100, margins_among_failures=True) == (0, 1)
    assert compare(FAILURE, 80, FAILURE, 90, margins_among_failures=True) == (-1, 0)


def test_effects_by_table() -> None:
    assert [effects_granted(DEFAULTS, 0, m, 0) for m in range(4)] == [0, 1, 1, 1]
    assert effects_granted({**DEFAULTS, "dp_effects_by_margin": [0, 1, 1, 2]}, 0, 3, 0) == 2  # A4 option
    simple = {**DEFAULTS, "deflection_points": False}
    assert [effects_granted(simple, 1, m, 0) for m in range(4)] == [0, 1, 2, 3]
    assert effects_granted(DEFAULTS, 0, 0, 1) == 1  # vector 8: precise win at margin 0 still earns one effect
    assert effects_granted(DEFAULTS, -1, 0, 1) == 0


def test_exact_probabilities() -> None:
    dist = level_distribution(50)
    assert dist == {
        FUMBLE: Fraction(1, 100),
        FAILURE: Fraction(49, 100),
        SUCCESS: Fraction(45, 100),
        CRITICAL: Fraction(5, 100),
    }
    assert sum(dist.values()) == 1
    # equal skills 50: crit beats non-crit 5×95, crit vs crit higher roll C(5,2), success vs failure/fumble
    # 45×50, success vs success higher roll C(45,2): the defender keeps ties
    assert win_probability(50, 50) == Fraction(5 * 95 + 10 + 45 * 50 + 990, 10000)
    assert win_probability(90, 45) > Fraction(1, 2)


def test_published_tables() -> None:
    assert [combat_actions(d) for d in (6, 7, 12, 13, 18, 19)] == [1, 2, 2, 3, 3, 4]
    assert damage_modifier(25) == "" and damage_modifier(26) == "1d2" and damage_modifier(5) == "-1d8"
    assert location_hp(5)[:4] == (1, 1, 2, 3)  # legs 1, abdomen 2, chest 3 (§17.1)
    assert location_hp(21)[:4] == (5, 5, 6, 7)
