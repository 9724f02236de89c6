"""The one outcome rule of every system (``side_outcome``): who wins, and when a beaten side counts as FLED."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from npc_tactics.rules.base import SideResult, Status, side_outcome

A, D, F, U, S = Status.ACTIVE, Status.DEAD, Status.FLED, Status.UNCONSCIOUS, Status.SURRENDERED
W, L, R, X = SideResult.WIN, SideResult.LOSS, SideResult.FLED, SideResult.DRAW


@dataclass
class _C:
    side: int
    status: Status


def _fight(*sides: tuple[Status, ...]) -> list[_C]:
    return [_C(side, status) for side, members in enumerate(sides) for status in members]


@pytest.mark.parametrize(
    ("sides", "results", "winner", "reason"),
    [
        (((A,), (D,)), (W, L), 0, "defeated"),
        (((A,), (F,)), (W, R), 0, "fled"),
        (((D, F), (A,)), (R, W), 1, "fled"),  # one fled, the other died: nobody left behind alive
        (((U, F), (A,)), (L, W), 1, "defeated"),  # a wounded friend left on the field: the side lost it
        (((S, F), (A,)), (L, W), 1, "defeated"),  # a surrendered one is left behind too
        (((D, D), (A, D)), (L, W), 1, "defeated"),
        (((D,), (D,)), (X, X), None, "mutual destruction"),
        (((F,), (F,)), (X, X), None, "mutual destruction"),  # nobody active at all: every side draws
        (((A,), (F,), (D,)), (W, R, L), 0, "fled"),  # spec.sides sides, not two
    ],
)
def test_side_outcome(sides: tuple[tuple[Status, ...], ...], results: tuple[SideResult, ...], winner: int | None,
                      reason: str) -> None:
    out = side_outcome(_fight(*sides), len(sides), rounds=4)
    assert out is not None
    assert (out.results, out.winner, out.reason, out.rounds) == (results, winner, reason, 4)


def test_no_outcome_while_two_sides_have_an_active_member() -> None:
    assert side_outcome(_fight((A, D), (U, A)), 2, rounds=1) is None
    assert side_outcome(_fight((A,), (D,), (A,)), 3, rounds=1) is None
