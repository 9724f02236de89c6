"""Scripted fake agents: ``by-the-book`` attacks the first enemy it may, ``brute`` the most wounded one,
``coward`` flees at once."""

from __future__ import annotations

from typing import Any

import numpy as np

from npc_tactics.agents.base import AgentEntry, Observation, pick_first
from npc_tactics.rules.base import enemy_slots
from tests.fakesys.engine import CATALOGUE

ATTACKS = [CATALOGUE.index(f"attack:enemy_{k}") for k in range(2)]
DEFEND = CATALOGUE.index("defend:self")
FLEE = CATALOGUE.index("flee:self")


class ByTheBook:
    name = "by-the-book"

    def __init__(self, engine: Any, rng: np.random.Generator) -> None:
        self.rng = rng

    def act(self, observation: Observation, mask: np.ndarray) -> int:
        choice = pick_first(mask, [*ATTACKS, DEFEND])
        return FLEE if choice is None else choice


class Brute:
    name = "brute"

    def __init__(self, engine: Any, rng: np.random.Generator) -> None:
        self.engine = engine

    def act(self, observation: Observation, mask: np.ndarray) -> int:
        state, decision = observation.state, observation.decision
        options = [(state.combatants[idx].hp, k)
                   for k, idx in enumerate(enemy_slots(state.combatants, decision.actor)) if mask[ATTACKS[k]]]
        return ATTACKS[min(options)[1]] if options else DEFEND


class Coward:
    name = "coward"

    def __init__(self, engine: Any, rng: np.random.Generator) -> None:
        self.engine = engine

    def act(self, observation: Observation, mask: np.ndarray) -> int:
        return FLEE


AGENTS = {
    "by-the-book": AgentEntry("by-the-book", "attacks the first enemy it may", ByTheBook),
    "brute": AgentEntry("brute", "attacks the most wounded enemy", Brute),
    "coward": AgentEntry("coward", "flees at once", Coward),
}
