"""How a fight stands and ends: combatant status, per-side results and the one outcome rule of every system.

Part of the engine protocol (re-exported by :mod:`npc_tactics.rules.base`); kept apart so the protocol module
stays readable. Imports nothing from the rest of the package.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import Any

__all__ = ["DEFEATED", "FLED_REASON", "MAX_ROUNDS", "MUTUAL", "Outcome", "SideResult", "Status", "side_outcome"]


class Status(IntEnum):
    """A combatant's standing in the fight. Only ACTIVE combatants decide or act."""

    ACTIVE = 0
    UNCONSCIOUS = 1
    DEAD = 2
    FLED = 3  #: left the fight alive (retreat off the field, morale break); counts as a flee, not a kill
    SURRENDERED = 4
    INCAPACITATED = 5  #: alive and conscious but out of the fight (held, asleep, severe wound)


class SideResult(IntEnum):
    WIN = 0
    LOSS = 1
    DRAW = 2
    FLED = 3  #: the side's survivors all left the field: not a win, but the NPCs live


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a fight ended: one :class:`SideResult` per side, the winner (or None), rounds played, why."""

    results: tuple[SideResult, ...]
    winner: int | None
    rounds: int
    reason: str

    def result(self, side: int) -> SideResult:
        return self.results[side]


#: The reasons :func:`side_outcome` gives; every engine ends a fight with one of these (or ``MAX_ROUNDS``).
DEFEATED = "defeated"
FLED_REASON = "fled"
MUTUAL = "mutual destruction"
MAX_ROUNDS = "max_rounds"


def side_outcome(combatants: Sequence[Any], sides: int, rounds: int) -> Outcome | None:
    """The outcome once at most one side has an ACTIVE combatant, else ``None``.

    One rule for every system: the side still standing wins; every other side is ``FLED`` when at least one of
    its members fled and none was left behind alive (all its non-fled members are dead), else ``LOSS``; when
    nobody is active at all, every side draws. A side that ran but left a wounded friend on the field lost it.
    """
    active = [False] * sides
    for c in combatants:
        if c.status == Status.ACTIVE:
            active[c.side] = True
    if sum(active) > 1:
        return None
    if not any(active):
        return Outcome((SideResult.DRAW,) * sides, None, rounds, MUTUAL)
    winner = active.index(True)
    results: list[SideResult] = []
    any_fled = False
    for side in range(sides):
        if side == winner:
            results.append(SideResult.WIN)
            continue
        members = [c for c in combatants if c.side == side]
        fled = any(c.status == Status.FLED for c in members) and all(
            c.status in (Status.FLED, Status.DEAD) for c in members)
        any_fled |= fled
        results.append(SideResult.FLED if fled else SideResult.LOSS)
    return Outcome(tuple(results), winner, rounds, FLED_REASON if any_fled else DEFEATED)
