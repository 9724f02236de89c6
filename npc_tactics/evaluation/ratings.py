"""Agent ratings per seat with openskill's Plackett-Luce model, updated once per fight as it is played.

A fight ranks its two sides by their result: win above draw above fled above loss; equal results (a
draw, or both sides fleeing) are a tie. Fleeing ranks above losing because NPCs that survive by
fleeing are a goal of the project (ARCHITECTURE.md, Rewards), but below a draw because the field was
conceded.

Why per seat: scenarios are asymmetric (side 0 may win 99% of fights whoever plays it) and a trained
policy only plays the seat it learned, while a scripted agent plays both. Pooling seats would rank a
side-0-only policy far above a script that wins as often from side 0 but also plays the weak seat.
So every agent gets one rating per seat it played (``seat`` 0 or 1): an agent's side-0 rating comes
only from its side-0 fights, against the side-1 ratings of its opponents. Ratings of the same seat
are comparable; ratings of different seats are not.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["RANK_OF", "AgentRating", "SeatRatings", "rate_fights"]

#: Rank of a side result for openskill (lower is better; equal ranks tie).
RANK_OF: dict[str, int] = {"win": 0, "draw": 1, "fled": 2, "loss": 3}


@dataclass(frozen=True, slots=True)
class AgentRating:
    agent: str
    mu: float
    sigma: float
    ordinal: float
    fights: int
    seat: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "agent": self.agent,
            "seat": self.seat,
            "mu": self.mu,
            "sigma": self.sigma,
            "ordinal": self.ordinal,
            "fights": self.fights,
        }


class SeatRatings:
    """Online per-seat ratings: call :meth:`update` after each fight, :meth:`table` at the end."""

    def __init__(self, agents: Sequence[str], seats: int = 2) -> None:
        from openskill.models import PlackettLuce

        self.model = PlackettLuce()
        self.agents = list(agents)
        self.seats = seats
        self.ratings: dict[tuple[str, int], Any] = {}
        self.played: dict[tuple[str, int], int] = {}

    def update(self, seat_agents: Sequence[str], results: Sequence[str]) -> None:
        """Rate one fight: ``seat_agents[k]`` played side ``k`` and got ``results[k]``. A mirror
        match (the same agent on both sides) teaches nothing about the agent and is skipped."""
        if len(set(seat_agents)) < len(seat_agents):
            return
        unknown = [a for a in seat_agents if a not in self.agents]
        if unknown:
            raise ValueError(f"fight between unknown agents {unknown}; rated agents: {self.agents}")
        keys = [(a, k) for k, a in enumerate(seat_agents)]
        for key in keys:
            if key not in self.ratings:
                self.ratings[key] = self.model.rating(name=f"{key[0]}@{key[1]}")
                self.played[key] = 0
        updated = self.model.rate([[self.ratings[k]] for k in keys], ranks=[RANK_OF[r] for r in results])
        for key, team in zip(keys, updated, strict=True):
            self.ratings[key] = team[0]
            self.played[key] += 1

    def table(self) -> list[AgentRating]:
        """Every (agent, seat) that played, by seat, best first by ordinal (``mu - 3 sigma``)."""
        out = [
            AgentRating(a, float(r.mu), float(r.sigma), float(r.ordinal()), self.played[(a, k)], k)
            for (a, k), r in self.ratings.items()
        ]
        return sorted(out, key=lambda r: (r.seat, -r.ordinal, r.agent))


def rate_fights(
    agents: Sequence[str], fights: Iterable[tuple[Sequence[str], Sequence[str]]]
) -> list[AgentRating]:
    """Per-seat ratings of ``agents`` from ``fights`` given as ``(agent per side, result per side)``
    in play order (see :class:`SeatRatings`)."""
    ratings = SeatRatings(agents)
    for seat_agents, results in fights:
        ratings.update(seat_agents, results)
    return ratings.table()
