"""Monte-Carlo odds of each legal move: win / fled / dead rates with Wilson 95% intervals, expected rounds.

The rollouts themselves (seeds, common random numbers, process pool) are :mod:`npc_tactics.rollouts`; this
module turns them into what a GM reads. "Within the best" marks every move whose win rate lies inside the
Wilson interval of the best move's: with that many rollouts, those moves cannot be told apart from the best.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from npc_tactics.evaluation.stats import wilson_interval
from npc_tactics.rollouts import Rollout

__all__ = ["DEFAULT_FALLBACK_ODDS", "MAX_ODDS", "MoveOdds", "Rate", "mark_within_best", "move_odds"]

#: Rollouts per move run automatically when the situation is out of the policy's distribution.
DEFAULT_FALLBACK_ODDS = 100
#: The most rollouts per move one query may ask for.
MAX_ODDS = 100_000


@dataclass(frozen=True, slots=True)
class Rate:
    count: int
    n: int
    low: float
    high: float

    @property
    def rate(self) -> float:
        return self.count / self.n if self.n else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {"rate": round(self.rate, 4), "low": round(self.low, 4), "high": round(self.high, 4),
                "count": self.count}

    @classmethod
    def of(cls, count: int, n: int) -> Rate:
        low, high = wilson_interval(count, n)
        return cls(count, n, low, high)


@dataclass(frozen=True, slots=True)
class MoveOdds:
    """The odds of one move over ``n`` rollouts. ``win``/``fled`` are the NPC side's results, ``dead`` the
    acting NPC's death; ``rounds`` the mean rounds until the fight ends (counting this one) and ``rounds_ci``
    its normal 95% interval."""

    n: int
    win: Rate
    fled: Rate
    dead: Rate
    loss: Rate
    rounds: float
    rounds_ci: tuple[float, float]
    within_best: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"rollouts": self.n, "win": self.win.to_dict(), "fled": self.fled.to_dict(),
                "dead": self.dead.to_dict(), "loss": self.loss.to_dict(), "rounds": round(self.rounds, 2),
                "rounds_low": round(self.rounds_ci[0], 2), "rounds_high": round(self.rounds_ci[1], 2),
                "within_best": self.within_best}


def move_odds(rollouts: Sequence[Rollout]) -> MoveOdds:
    n = len(rollouts)
    if n == 0:
        raise ValueError("move_odds needs at least one rollout")
    rounds = [r.rounds for r in rollouts]
    mean = sum(rounds) / n
    var = sum((x - mean) ** 2 for x in rounds) / (n - 1) if n > 1 else 0.0
    half = 1.96 * math.sqrt(var / n)
    return MoveOdds(
        n,
        Rate.of(sum(r.result == "win" for r in rollouts), n),
        Rate.of(sum(r.result == "fled" for r in rollouts), n),
        Rate.of(sum(r.actor == "dead" for r in rollouts), n),
        Rate.of(sum(r.result == "loss" for r in rollouts), n),
        mean,
        (max(1.0, mean - half), mean + half),
    )


def mark_within_best(odds: Mapping[int, MoveOdds]) -> dict[int, MoveOdds]:
    """The same odds with ``within_best`` set: the best win rate's move and every move whose win rate lies in
    that move's Wilson interval."""
    if not odds:
        return {}
    best = max(odds.values(), key=lambda o: o.win.rate)
    return {m: MoveOdds(o.n, o.win, o.fled, o.dead, o.loss, o.rounds, o.rounds_ci,
                        best.win.low - 1e-12 <= o.win.rate <= best.win.high + 1e-12)
            for m, o in odds.items()}
