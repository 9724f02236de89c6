"""The one agent protocol: ``act(observation, mask) -> action``, for scripted, learned and exported agents.

It lives below the environments and the agents so that both (and a runtime that only runs an exported
policy) share it without importing each other. An :class:`Observation` carries both what a network sees
(``vector``, the encoder's float32 tensor) and what a scripted agent reads (the engine, the state and the
pending decision, through their public fields). Learned agents use ``vector`` only; scripted agents never
touch private (``_``-prefixed) fields of the state.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

import numpy as np

from npc_tactics.rules.base import Decision, Engine

__all__ = ["Agent", "AgentFactory", "Observation", "VectorEncoder"]


class VectorEncoder(Protocol):
    """What an observation needs from an encoder (``npc_tactics.encoders.base.Encoder`` provides it)."""

    def encode(self, state: Any, decision: Decision | None) -> np.ndarray: ...


class Observation:
    """The pending decision seen by an agent. ``vector`` is encoded on first access when an ``encoder``
    is given instead of a vector, so scripted agents (which read the state) cost no encoding."""

    __slots__ = ("_vector", "state", "decision", "engine", "_encoder")

    def __init__(self, vector: np.ndarray | None, state: Any, decision: Decision, engine: Engine[Any],
                 encoder: VectorEncoder | None = None) -> None:
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
            if self._encoder is None:  # unreachable: the constructor requires one of the two
                raise ValueError("an Observation needs a vector or an encoder to make one")
            self._vector = self._encoder.encode(self.state, self.decision)
        return self._vector


@runtime_checkable
class Agent(Protocol):
    name: str

    def act(self, observation: Observation, mask: np.ndarray) -> int:
        """Return the index of one legal action (``mask[action]`` is true)."""
        ...


AgentFactory = Callable[[Engine[Any], np.random.Generator], Agent]
"""Builds an agent for one fight from the engine and that fight's opponent RNG stream (scripted agents are
rebuilt per fight; a loaded policy's factory may return the same deterministic agent every time)."""
