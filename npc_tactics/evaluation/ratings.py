"""Agent ratings with openskill's Plackett-Luce model, updated once per fight.

A fight ranks its two sides by their result: win above draw above fled above loss; equal results (a
draw, or both sides fleeing) are a tie. Fleeing ranks above losing because NPCs that survive by
fleeing are a goal of the project (ARCHITECTURE.md, Rewards), but below a draw because the field was
conceded. Ratings are per agent, over both seats: every ordered pair plays the same seeds, so seat
advantages cancel out.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["RANK_OF", "AgentRating", "rate_fights"]

#: Rank of a side result for openskill (lower is better; equal ranks tie).
RANK_OF: dict[str, int] = {"win": 0, "draw": 1, "fled": 2, "loss": 3}


@dataclass(frozen=True, slots=True)
class AgentRating:
    agent: str
    mu: float
    sigma: float
    ordinal: float
    fights: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "agent": self.agent,
            "mu": self.mu,
            "sigma": self.sigma,
            "ordinal": self.ordinal,
            "fights": self.fights,
        }


def rate_fights(
    agents: Sequence[str], fights: Iterable[tuple[Sequence[str], Sequence[str]]]
) -> list[AgentRating]:
    """Rate ``agents`` from ``fights`` given as ``(agent per side, result per side)`` in play order.

    Returns the ratings sorted best first by ordinal (``mu - 3 sigma``). A fight whose sides are
    played by the same agent teaches nothing about it and is skipped."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings = {name: model.rating(name=name) for name in agents}
    played = dict.fromkeys(agents, 0)
    for seat_agents, results in fights:
        if len(set(seat_agents)) < len(seat_agents):
            continue
        unknown = [a for a in seat_agents if a not in ratings]
        if unknown:
            raise ValueError(
                f"fight between unknown agents {unknown}; rated agents: {list(agents)}"
            )
        teams = [[ratings[a]] for a in seat_agents]
        ranks = [RANK_OF[r] for r in results]
        updated = model.rate(teams, ranks=ranks)
        for a, team in zip(seat_agents, updated, strict=True):
            ratings[a] = team[0]
            played[a] += 1
    out = [
        AgentRating(a, float(r.mu), float(r.sigma), float(r.ordinal()), played[a])
        for a, r in ratings.items()
    ]
    return sorted(out, key=lambda r: (-r.ordinal, r.agent))
