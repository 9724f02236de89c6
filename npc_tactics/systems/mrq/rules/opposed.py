"""Success levels, opposed tests and the combat tables (mrq-opposed.md §2, §3, A1–A5, A7).

Pure functions: no state, so they are exact-value testable.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from npc_tactics.rules.base import EventSink
from npc_tactics.systems.mrq.rules.tables import (
    CRITICAL,
    DP_TABLE_EFFECTS,
    FAILURE,
    FUMBLE,
    SIMPLE_TABLE_EFFECTS,
    SUCCESS,
)


def critical_range(skill: int) -> int:
    """Highest roll that is a critical: 10% of the modified skill, rounded half up (§2 [PUB ✓]; rounding
    [HOUSE], the SRD gives none)."""
    return max(0, (skill + 5) // 10)


def success_level(roll: int, skill: int, auto: bool = True) -> int:
    """Level of a D100 ``roll`` against ``skill`` (§2): 00 (100) fumbles; ≤ 10% critical; ≤ skill success.

    ``auto`` (option ``automatic_success_failure``, [PUB] unverified): 01–05 always succeed, 96–99 always fail.
    """
    if roll >= 100:
        return FUMBLE
    if roll <= critical_range(skill):
        return CRITICAL
    if roll <= skill:
        return FAILURE if auto and roll >= 96 else SUCCESS
    return SUCCESS if auto and roll <= 5 else FAILURE


def halve_down(value: int) -> int:
    """Halved skills round down (A7)."""
    return value // 2


def halve(value: int, up: bool = True) -> int:
    """Halved damage and Deflection Points round up by default (A7, option ``round_half_up``)."""
    return (value + 1) // 2 if up else value // 2


def compare(
    att_level: int,
    att_roll: int,
    def_level: int,
    def_roll: int,
    margins_among_failures: bool = False,
) -> tuple[int, int]:
    """Winner (0 attacker, 1 defender, -1 nobody) and margin of an opposed test (§2 steps 2–4, A1, A2).

    Neither succeeded → nobody wins (A1; with ``margins_among_failures`` a failure beats a fumble by 1).
    Equal levels → the higher roll wins at margin 0; equal rolls → the defender (A2).
    """
    if att_level < SUCCESS and def_level < SUCCESS:
        if not margins_among_failures or att_level == def_level:
            return -1, 0
        return (0, att_level - def_level) if att_level > def_level else (1, def_level - att_level)
    if att_level > def_level:
        return 0, att_level - def_level
    if def_level > att_level:
        return 1, def_level - att_level
    return (0, 0) if att_roll > def_roll else (1, 0)


def effects_granted(opts: Mapping[str, Any], winner: int, margin: int, extra: int) -> int:
    """Special effects the winner picks (§3): by margin from the table in use, plus ``extra`` (precise
    attack/defence and skill halvings, A8 and §10) when the winner earned them."""
    if winner < 0:
        return 0
    if opts["deflection_points"]:
        base = tuple(opts["dp_effects_by_margin"])[margin]
    else:
        base = SIMPLE_TABLE_EFFECTS[margin]
    return int(base) + extra


def opposed_test(
    sink: EventSink,
    actor: int,
    skill: int,
    other: int,
    other_skill: int,
    why: str,
    auto: bool = True,
    rule: str = "",
    lower_wins: bool = False,
) -> bool:
    """A non-combat opposed test (Endurance, Disarm, Trip, Brute Force...): True if ``actor`` wins.

    A success beats a failure, a higher level beats a lower one, equal successes go to the higher roll (A2).
    When both fail (option ``opposed_both_fail``, §2 A1): "tester_loses" (default, [HOUSE]: the side making
    the test must succeed to win) or "lower_roll_wins" (``lower_wins``: the lower failed roll wins, as a
    secondary source reports for MRQ1; a fumble still loses to a failure) [?]. Rolls the actor's D100 then the
    other's.
    """
    a = sink.die(100, why, actor, other)
    b = sink.die(100, why + " (opposed)", other, actor)
    la, lb = success_level(a, skill, auto), success_level(b, other_skill, auto)
    if la < SUCCESS and lb < SUCCESS and lower_wins:
        won = la > lb or (la == lb and a < b)
    else:
        won = la >= SUCCESS and (la > lb or (la == lb and a > b))
    sink.emit(
        "opposed_test",
        actor,
        other,
        rule=rule,
        why=why,
        skill=skill,
        other_skill=other_skill,
        roll=a,
        other_roll=b,
        result="won" if won else "lost",
    )
    return won


def simple_test(sink: EventSink, actor: int, skill: int, why: str, auto: bool = True, rule: str = "") -> bool:
    """An unopposed skill test: success or critical."""
    roll = sink.die(100, why, actor)
    ok = success_level(roll, skill, auto) >= SUCCESS
    sink.emit(
        "skill_test",
        actor,
        None,
        rule=rule,
        why=why,
        skill=skill,
        roll=roll,
        result="passed" if ok else "failed",
    )
    return ok


def level_distribution(skill: int, auto: bool = True) -> dict[int, Fraction]:
    """Exact probability of each success level for ``skill`` (exact-value tests, analysis)."""
    counts = {FUMBLE: 0, FAILURE: 0, SUCCESS: 0, CRITICAL: 0}
    for roll in range(1, 101):
        counts[success_level(roll, skill, auto)] += 1
    return {k: Fraction(v, 100) for k, v in counts.items()}


def win_probability(att_skill: int, def_skill: int, auto: bool = True) -> Fraction:
    """Exact probability that the attacker wins an opposed combat test (§2), enumerating both D100s."""
    wins = 0
    levels_a = [success_level(r, att_skill, auto) for r in range(1, 101)]
    levels_d = [success_level(r, def_skill, auto) for r in range(1, 101)]
    for ra, la in enumerate(levels_a, start=1):
        for rd, ld in enumerate(levels_d, start=1):
            if compare(la, ra, ld, rd)[0] == 0:
                wins += 1
    return Fraction(wins, 10000)


__all__ = [
    "CRITICAL",
    "FAILURE",
    "FUMBLE",
    "SUCCESS",
    "DP_TABLE_EFFECTS",
    "compare",
    "critical_range",
    "effects_granted",
    "halve",
    "halve_down",
    "level_distribution",
    "opposed_test",
    "simple_test",
    "success_level",
    "win_probability",
]
