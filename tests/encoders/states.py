"""Visited states for encoder tests: seeded random-legal play over every shipped scenario of a system.

All engine access goes through :func:`start` and :func:`visited`, so a change of the engine protocol (for
example ``new_combat`` returning ``(state, events)``) is adapted here once.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from npc_tactics.dice import RngRoller
from npc_tactics.registry import get_system
from npc_tactics.rules.base import Decision


def start(engine: Any, scenario: Any, roller: RngRoller) -> Any:
    """The opening state of a fight (the one place that knows what ``new_combat`` returns)."""
    state, _ = engine.new_combat(scenario, roller)
    return state


def visited(system: str, n: int = 200, seed: int = 0, every: int = 3) -> list[tuple[Any, Decision]]:
    """``n`` (state, pending decision) pairs: every ``every``-th decision of random-legal fights that cycle
    through the system's shipped scenarios in name order. States are never mutated after being kept."""
    info = get_system(system)
    engine = info.load("engine")()
    content = info.load("content")
    scenarios = [content.load_scenario(name) for name, _ in sorted(content.list_scenarios())]
    rng = np.random.default_rng(seed)
    roller = RngRoller(np.random.default_rng(seed + 1))
    out: list[tuple[Any, Decision]] = []
    k = fight = 0
    while len(out) < n:
        state = start(engine, scenarios[fight % len(scenarios)], roller)
        fight += 1
        while len(out) < n:
            decision = engine.pending(state)
            if decision is None:
                break
            if k % every == 0:
                out.append((state, decision))
            k += 1
            legal = np.flatnonzero(engine.legal_mask(state, decision))
            state, _ = engine.step(state, int(legal[rng.integers(len(legal))]), roller)
    return out
