"""Observation encoders: the engine state seen from the acting combatant, as one flat float32 vector.

Layout shared by every system (documented field by field in each ``docs/<system>.md``):

1. decision kind one-hot (``len(DecisionKind)`` entries);
2. system context fields (round, the incoming attack for REACT, the pool for SPLIT ...);
3. one block per combatant slot: the actor first, then its allies (side order), then its enemies (side
   order), padded with zeros up to ``max_per_side`` each; an empty slot has its ``present`` flag at 0.

Every value is scaled into [-1, 1] and clipped, so the observation space is ``Box(-1, 1)``.
Subclasses define ``CONTEXT_FIELDS`` and ``COMBATANT_FIELDS`` (name, description) and fill them.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any

import numpy as np

from npc_tactics.rules.base import Decision, DecisionKind, Engine, ally_slots, enemy_slots


@dataclass(frozen=True, slots=True)
class Field:
    name: str
    start: int
    size: int
    description: str


class Encoder(ABC):
    """Base class: subclasses list their fields and implement :meth:`context` and :meth:`combatant`."""

    CONTEXT_FIELDS: tuple[tuple[str, str], ...] = ()
    COMBATANT_FIELDS: tuple[tuple[str, str], ...] = ()

    def __init__(self, engine: Engine[Any]) -> None:
        self.engine = engine
        self.max_per_side = engine.spec.max_per_side
        self.n_kinds = len(DecisionKind)
        self.n_context = len(self.CONTEXT_FIELDS)
        self.n_combatant = len(self.COMBATANT_FIELDS)
        self.n_slots = 2 * self.max_per_side  # actor + allies (max_per_side), enemies (max_per_side)
        self.size = self.n_kinds + self.n_context + self.n_slots * self.n_combatant

    @property
    def fields(self) -> list[Field]:
        """Every field with its offset: the observation layout, field by field."""
        out = [Field(f"decision.{k.name.lower()}", k.value, 1, f"1 if the decision is {k.name}")
               for k in DecisionKind]
        pos = self.n_kinds
        for name, desc in self.CONTEXT_FIELDS:
            out.append(Field(f"context.{name}", pos, 1, desc))
            pos += 1
        labels = ["self"] + [f"ally_{i}" for i in range(self.max_per_side - 1)] + [
            f"enemy_{i}" for i in range(self.max_per_side)]
        for label in labels:
            for name, desc in self.COMBATANT_FIELDS:
                out.append(Field(f"{label}.{name}", pos, 1, desc))
                pos += 1
        return out

    def slot_order(self, state: Any, actor: int) -> tuple[list[int], list[int]]:
        """(actor + allies, enemies) combatant indices in the order of the observation blocks."""
        return [actor] + ally_slots(state.combatants, actor), enemy_slots(state.combatants, actor)

    def encode(self, state: Any, decision: Decision | None) -> np.ndarray:
        out = np.zeros(self.size, dtype=np.float32)
        if decision is None:
            return out
        out[int(decision.kind)] = 1.0
        ctx = self.context(state, decision)
        out[self.n_kinds:self.n_kinds + self.n_context] = ctx
        friends, enemies = self.slot_order(state, decision.actor)
        base = self.n_kinds + self.n_context
        n = self.n_combatant
        for k, idx in enumerate(friends[: self.max_per_side]):
            out[base + k * n: base + (k + 1) * n] = self.combatant(state, decision, idx)
        base += self.max_per_side * n
        for k, idx in enumerate(enemies[: self.max_per_side]):
            out[base + k * n: base + (k + 1) * n] = self.combatant(state, decision, idx)
        np.clip(out, -1.0, 1.0, out=out)
        return out

    @abstractmethod
    def context(self, state: Any, decision: Decision) -> list[float]:
        """Values for ``CONTEXT_FIELDS``, in order."""

    @abstractmethod
    def combatant(self, state: Any, decision: Decision, index: int) -> list[float]:
        """Values for ``COMBATANT_FIELDS`` of combatant ``index`` seen by ``decision.actor``, in order."""
