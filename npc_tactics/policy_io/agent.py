"""The one agent protocol: ``act(observation, mask) -> action``, for scripted, learned and exported agents.

It lives below the environments and the agents so that both (and a runtime that only runs an exported
policy) share it without importing each other. An :class:`Observation` carries both what a network sees
(``vector``, the encoder's float32 tensor) and what a scripted agent reads (the engine, the state and the
pending decision, through their public fields). Learned agents use ``vector`` only; scripted agents never
touch private (``_``-prefixed) fields of the state.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

import numpy as np

from npc_tactics.rules.base import Decision, Engine

if TYPE_CHECKING:
    from npc_tactics.policy_io.bundle import Bundle

__all__ = ["Agent", "AgentFactory", "Observation", "Policy", "VectorEncoder"]


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


@runtime_checkable
class Policy(Agent, Protocol):
    """An agent learned for one system and side that also gives its move probabilities: a trained run's
    network (:class:`~npc_tactics.agents.policy.PolicyAgent`), a bundle's ONNX model or an ensemble of them
    (:class:`~npc_tactics.policy_io.onnx_agent.OnnxAgent`). What suggest, the trust report and the odds rank
    moves with; callers read these attributes instead of probing an agent for them."""

    system: str
    scenario: str
    side: int  #: the side it was trained for
    obs_size: int
    n_actions: int
    deterministic: bool
    options: dict[str, Any]  #: the rules options it was trained under
    notes: list[str]  #: what the GM should know about it (shown with a suggestion)
    warnings: list[str]  #: compatibility warnings (a bundle made under another rules version ...)
    bundle: Bundle | None  #: the bundle it was loaded from, if any (its schema holds the trust record)

    def action_probabilities(self, vector: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """The probability of each catalogue action: 0 where ``mask`` is false, sum 1."""
        ...

    def out_of_range(self, vector: np.ndarray) -> list[tuple[str, float, float, float]]:
        """``(field, value, min, max)`` of each feature outside the range met in training (empty if unknown)."""
        ...


AgentFactory = Callable[[Engine[Any], np.random.Generator], Agent]
"""Builds an agent for one fight from the engine and that fight's opponent RNG stream (scripted agents are
rebuilt per fight; a loaded policy's factory may return the same deterministic agent every time)."""
