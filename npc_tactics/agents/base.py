"""Building blocks of scripted agents: named entries, the random baseline, priority lists.

The protocol itself (``Agent``, ``Observation``, ``AgentFactory``) lives in :mod:`npc_tactics.policy_io.agent`,
below the environments and the agents; it is re-exported here for the agent modules.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from npc_tactics.policy_io.agent import Agent, AgentFactory, Observation
from npc_tactics.rules.base import Engine

__all__ = ["RANDOM_ENTRY", "Agent", "AgentEntry", "AgentFactory", "Observation", "RandomLegalAgent", "pick_first"]


@dataclass(frozen=True)
class AgentEntry:
    """A named scripted agent: ``factory(engine, rng)`` builds it; ``description`` is shown by the CLI."""

    name: str
    description: str
    factory: AgentFactory


class RandomLegalAgent:
    """Picks uniformly among the legal actions: the baseline every other agent must beat."""

    name = "random"

    def __init__(self, engine: Engine[Any] | None = None, rng: np.random.Generator | None = None) -> None:
        self.rng = rng if rng is not None else np.random.default_rng(0)

    def act(self, observation: Observation, mask: np.ndarray) -> int:
        legal = np.flatnonzero(mask)
        return int(legal[self.rng.integers(len(legal))])


RANDOM_ENTRY = AgentEntry("random", "uniform over the legal actions (baseline)", RandomLegalAgent)


def pick_first(mask: np.ndarray, preferred: list[int]) -> int | None:
    """The first of ``preferred`` that is legal, or None: the building block of priority-list agents."""
    for a in preferred:
        if mask[a]:
            return a
    return None
