"""Fake scripted agents: ``brute`` attacks the most wounded enemy; ``coward`` flees at once."""

from __future__ import annotations

from typing import Any

import numpy as np

from npc_tactics.agents.base import AgentEntry, Observation
from npc_tactics.rules.base import enemy_slots


class Brute:
    name = "brute"

    def __init__(self, engine: Any, rng: np.random.Generator) -> None:
        self.engine = engine

    def act(self, observation: Observation, mask: np.ndarray) -> int:
        state, decision = observation.state, observation.decision
        cat = self.engine.catalogue
        options = [
            (state.combatants[idx].hp, k)
            for k, idx in enumerate(enemy_slots(state.combatants, decision.actor))
            if mask[cat.index(f"attack:enemy_{k}")]
        ]
        if options:
            return cat.index(f"attack:enemy_{min(options)[1]}")
        return cat.index("hold")


class Coward:
    name = "coward"

    def __init__(self, engine: Any, rng: np.random.Generator) -> None:
        self.engine = engine

    def act(self, observation: Observation, mask: np.ndarray) -> int:
        return self.engine.catalogue.index("flee:self")


AGENTS = {
    "brute": AgentEntry("brute", "attacks the most wounded enemy", Brute),
    "coward": AgentEntry("coward", "flees at once", Coward),
}
