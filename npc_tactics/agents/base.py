"""The one agent protocol: ``act(observation, mask) -> action``, for scripted, learned and exported agents.

An :class:`Observation` carries both what a network sees (``vector``, the encoder's float32 tensor) and what a
scripted agent reads (the engine, the state and the pending decision, through their public fields). Learned
agents use ``vector`` only; scripted agents never touch private (``_``-prefixed) fields of the state.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

import numpy as np

from npc_tactics.rules.base import Decision, Engine


class Observation:
    """The pending decision seen by an agent. ``vector`` is encoded on first access when an ``encoder``
    is given instead of a vector, so scripted agents (which read the state) cost no encoding."""

    __slots__ = ("_vector", "state", "decision", "engine", "_encoder")

    def __init__(self, vector: np.ndarray | None, state: Any, decision: Decision, engine: Engine[Any],
                 encoder: Any = None) -> None:
        if vector is None and encoder is None:
            raise ValueError("an Observation needs a vector or an encoder to make one")
        self._vector = vector
        self.state = state
        self.decision = decision
        self.engine = engine
        self._encoder = encoder

    @property
    def vector(self) -> np.ndarray:
        if self._vector is None:
            self._vector = self._encoder.encode(self.state, self.decision)
        return self._vector


@runtime_checkable
class Agent(Protocol):
    name: str

    def act(self, observation: Observation, mask: np.ndarray) -> int:
        """Return the index of one legal action (``mask[action]`` is true)."""
        ...


@dataclass(frozen=True)
class AgentEntry:
    """A named scripted agent: ``factory(engine, rng)`` builds it; ``description`` is shown by the CLI."""

    name: str
    description: str
    factory: Callable[[Engine[Any], np.random.Generator], Agent]


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
