"""Odds per move from rollouts: rates, Wilson intervals, expected rounds, the expected outcome moves are ranked by,
and which moves cannot be told apart from the best on the same dice (exact values computed by hand)."""

from __future__ import annotations

import pytest

from npc_tactics.gm.advice.odds import MoveOdds, Rate, best_move, cannot_tell, mark_within_best, move_odds, not_worse
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


def test_within_best_pairs_the_rollouts_that_share_their_dice() -> None:
    """Rollout k of every move shares its dice: a move that loses where the best wins, on the same dice, is told
    worse even when the win rates' own intervals overlap; the same win rate on other dice is a tie."""
    def odds(wins: int, start: int = 0) -> MoveOdds:
        return move_odds(_rolls([("win", "active", 1) if start <= k < start + wins else ("loss", "dead", 1)
                                 for k in range(100)]))

    marked = mark_within_best({1: odds(60), 2: odds(52), 3: odds(60, start=40), 4: odds(60)})
    # 2 loses 8 of the best's wins and wins nothing back: paired mean -0.1, far below 0 (its Wilson interval,
    # [0.42, 0.62], would have overlapped the best's [0.50, 0.69]); 3 trades 40 wins for 40 others: mean 0
    assert {m: o.within_best for m, o in marked.items()} == {1: True, 2: False, 3: True, 4: True}
    assert best_move(marked) == 1  # ties broken by the win rate, then the lower action number
    assert not cannot_tell(list(marked.values()))


def test_a_score_counts_draws_flights_and_the_npcs_survival() -> None:
    o = move_odds(_rolls([("win", "active", 1), ("draw", "active", 1), ("fled", "fled", 1), ("loss", "dead", 1)]))
    assert [round(v, 4) for v in o.values] == [1.25, 0.75, 0.5, 0.0]  # +0.25 each time the NPC lives
    assert o.score == pytest.approx(2.5 / 4) and o.survival == pytest.approx(0.75)
    d = o.to_dict()
    assert d["win"]["count"] + d["draw"]["count"] + d["fled"]["count"] + d["loss"]["count"] == 4


def test_when_nothing_is_separated_no_move_is_starred() -> None:
    same = {m: move_odds(_rolls([("win", "active", 1), ("loss", "dead", 1)] * 5)) for m in (1, 2, 3)}
    marked = mark_within_best(same)
    assert not any(o.within_best for o in marked.values()) and cannot_tell(list(marked.values()))
    assert not_worse(marked[1].values, marked[2].values) and not_worse([], [])


def test_no_rollouts_is_an_error() -> None:
    with pytest.raises(ValueError):
        move_odds([])
