"""Odds per move from rollouts: rates, Wilson intervals, expected rounds, and which moves are within the best
move's interval (exact values computed by hand)."""

from __future__ import annotations

import pytest

from npc_tactics.gm.advice.odds import Rate, mark_within_best, move_odds
from npc_tactics.rollouts import Rollout


def _rolls(results: list[tuple[str, str, int]]) -> list[Rollout]:
    return [Rollout(0, k, k, res, actor, rounds, 1) for k, (res, actor, rounds) in enumerate(results)]


def test_rates_and_rounds() -> None:
    odds = move_odds(_rolls([("win", "active", 2), ("win", "active", 4), ("fled", "fled", 1),
                             ("loss", "dead", 3)]))
    assert (odds.win.count, odds.fled.count, odds.dead.count, odds.loss.count, odds.n) == (2, 1, 1, 1, 4)
    assert odds.rounds == pytest.approx(2.5)
    # sample sd of 2, 4, 1, 3 is sqrt(5/3); half-width 1.96 * sd / 2
    half = 1.96 * (5 / 3) ** 0.5 / 2
    assert odds.rounds_ci == pytest.approx((max(1.0, 2.5 - half), 2.5 + half))


def test_wilson_interval_of_a_rate() -> None:
    # 8 of 10: Wilson 95% = [0.4902, 0.9433] (Wilson 1927; e.g. Newcombe 1998 table)
    r = Rate.of(8, 10)
    assert (round(r.low, 4), round(r.high, 4)) == (0.4902, 0.9433)
    assert Rate.of(0, 10).low == 0.0 and Rate.of(10, 10).high == 1.0


def test_within_best() -> None:
    def odds(wins: int) -> object:
        return move_odds(_rolls([("win", "active", 1)] * wins + [("loss", "dead", 1)] * (100 - wins)))

    marked = mark_within_best({1: odds(60), 2: odds(52), 3: odds(45), 4: odds(60)})  # type: ignore[dict-item]
    # best 60/100: Wilson [0.502, 0.691]; 52% is inside, 45% is not; a tie with the best is marked
    assert {m: o.within_best for m, o in marked.items()} == {1: True, 2: True, 3: False, 4: True}


def test_no_rollouts_is_an_error() -> None:
    with pytest.raises(ValueError):
        move_odds([])
