"""Property-based: random-legal play to the end of many fights, on every system and scenario, keeps the
protocol's invariants (the per-system suites check their own rule invariants on top)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from npc_tactics.dice import RngRoller
from npc_tactics.registry import get_system
from npc_tactics.rules.base import Status
from tests.conftest import system_scenarios

_CACHE: dict[tuple[str, str], tuple[object, object]] = {}


def _engine_and_scenario(system: str, scenario: str):  # type: ignore[no-untyped-def]
    if (system, scenario) not in _CACHE:
        info = get_system(system)
        _CACHE[(system, scenario)] = (info.load("engine")(), info.load("content").load_scenario(scenario))
    return _CACHE[(system, scenario)]


@pytest.mark.parametrize(("system", "scenario"), system_scenarios())
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**31))
def test_random_legal_play_keeps_invariants(system: str, scenario: str, seed: int) -> None:
    engine, scen = _engine_and_scenario(system, scenario)
    roller = RngRoller(np.random.default_rng(seed))
    choice = np.random.default_rng(seed + 1)
    state, _ = engine.new_combat(scen, roller)  # type: ignore[attr-defined]
    n_actions = len(engine.catalogue)  # type: ignore[attr-defined]
    max_rounds = engine.spec.max_rounds  # type: ignore[attr-defined]
    for _ in range(100_000):
        decision = engine.pending(state)  # type: ignore[attr-defined]
        if decision is None:
            break
        actor = state.combatants[decision.actor]
        assert actor.status == Status.ACTIVE, f"{actor.name} decides while {actor.status.name}"
        mask = engine.legal_mask(state, decision)  # type: ignore[attr-defined]
        assert mask.dtype == np.bool_ and mask.shape == (n_actions,)
        assert mask.any(), f"empty mask at {decision.describe()}"
        legal = np.flatnonzero(mask)
        state, _ = engine.step(state, int(legal[choice.integers(len(legal))]), roller, inplace=True)  # type: ignore[attr-defined]
        for c in state.combatants:
            assert c.hp <= c.max_hp, f"{c.name} has {c.hp} > {c.max_hp} HP"
    outcome = engine.outcome(state)  # type: ignore[attr-defined]
    assert outcome is not None, "fight did not end"
    assert outcome.rounds <= max(max_rounds, getattr(state, "max_rounds", 0))
    assert engine.legal_mask(state).all()  # type: ignore[attr-defined]
