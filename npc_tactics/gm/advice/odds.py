"""Monte-Carlo odds of each legal move: win / draw / fled / lost shares (Wilson 95% intervals), the acting NPC's
death, expected rounds, and the expected outcome for the NPC's side that moves are ranked by.

The rollouts themselves (seeds, common random numbers, process pool) are :mod:`npc_tactics.rollouts`; this
module turns them into what a GM reads. The win rate alone says nothing when every move wins about 0% (a
retreat that saves the band and a last stand that loses it look alike), so a move's ``score`` is the mean over
its rollouts of ``OUTCOME_VALUE[result] + SURVIVAL_WEIGHT * (the acting NPC lives)``.

"Within the best" (the star) marks the best-scoring move and every move whose score the rollouts cannot tell
from it: rollout k of every move shares its dice seed, so the paired difference of scores is tested (95%, one
sided). When no move at all is separated from the best, a star would say nothing: none is set, and
:func:`cannot_tell` is true (the answer says the odds cannot tell the moves apart with that many rollouts).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from npc_tactics.agents.value import OUTCOME_VALUE, SURVIVAL_WEIGHT, outcome_value
from npc_tactics.evaluation.stats import wilson_interval
from npc_tactics.rollouts import Rollout

__all__ = ["DEFAULT_FALLBACK_ODDS", "MAX_ODDS", "OUTCOME_VALUE", "SURVIVAL_WEIGHT", "MoveOdds", "Rate", "best_move",
           "cannot_tell", "mark_within_best", "move_odds", "not_worse", "rollout_value"]

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
    """The odds of one move over ``n`` rollouts. ``win``/``draw``/``fled``/``loss`` are the NPC side's results
    (they add up to ``n``), ``dead`` the acting NPC's death; ``rounds`` the mean rounds until the fight ends
    (counting this one) and ``rounds_ci`` its normal 95% interval; ``values`` each rollout's worth
    (:func:`rollout_value`, in rollout order: what the paired comparison of two moves reads)."""

    n: int
    win: Rate
    fled: Rate
    dead: Rate
    loss: Rate
    rounds: float
    rounds_ci: tuple[float, float]
    within_best: bool = False
    draw: Rate | None = None
    values: tuple[float, ...] = field(default=(), repr=False)

    @property
    def score(self) -> float:
        """The expected outcome for the NPC's side (see the module docstring); the win rate without values."""
        return sum(self.values) / len(self.values) if self.values else self.win.rate

    @property
    def survival(self) -> float:
        """The share of rollouts the acting NPC lives through."""
        return 1.0 - self.dead.rate

    def to_dict(self) -> dict[str, Any]:
        draw = self.draw if self.draw is not None else Rate.of(self.n - self.win.count - self.fled.count
                                                               - self.loss.count, self.n)
        return {"rollouts": self.n, "win": self.win.to_dict(), "draw": draw.to_dict(), "fled": self.fled.to_dict(),
                "dead": self.dead.to_dict(), "loss": self.loss.to_dict(), "score": round(self.score, 4),
                "survival": round(self.survival, 4), "rounds": round(self.rounds, 2),
                "rounds_low": round(self.rounds_ci[0], 2), "rounds_high": round(self.rounds_ci[1], 2),
                "within_best": self.within_best}


def rollout_value(r: Rollout) -> float:
    """What one rollout is worth to the NPC's side: its result's value, plus survival when the actor lives."""
    return outcome_value(r.result, r.actor != "dead")


def not_worse(best: Sequence[float], other: Sequence[float]) -> bool:
    """Whether ``other`` cannot be told worse than ``best`` at 95% (one-sided), pairing rollout k with rollout k
    (they share their dice seed). Two moves whose rollouts all agree are tied."""
    diffs = [o - b for o, b in zip(other, best, strict=True)]
    n = len(diffs)
    if n == 0:
        return True
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else 0.0
    return mean + 1.96 * math.sqrt(var / n) >= -1e-12


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
        draw=Rate.of(sum(r.result == "draw" for r in rollouts), n),
        values=tuple(rollout_value(r) for r in rollouts),
    )


def best_move(odds: Mapping[int, MoveOdds]) -> int:
    """The move of the best expected outcome (ties: the higher win rate, then the lower action number)."""
    return max(odds, key=lambda m: (odds[m].score, odds[m].win.rate, -m))


def mark_within_best(odds: Mapping[int, MoveOdds]) -> dict[int, MoveOdds]:
    """The same odds with ``within_best`` set: the best-scoring move and every move that cannot be told worse
    (:func:`not_worse`); none when no move is told worse (the rollouts separate nothing)."""
    if not odds:
        return {}
    best = odds[best_move(odds)]
    tied = {m: o is best or not_worse(best.values, o.values) for m, o in odds.items()}
    separated = not all(tied.values())
    return {m: replace(o, within_best=separated and tied[m]) for m, o in odds.items()}


def cannot_tell(odds: Sequence[MoveOdds | None]) -> bool:
    """Whether rolled-out moves were compared and none is told apart from the best (no star set)."""
    rolled = [o for o in odds if o is not None]
    return len(rolled) > 1 and not any(o.within_best for o in rolled)
