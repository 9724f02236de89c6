"""Property: whatever is done to a clone (play it on in place, overwrite its fields), the original is unchanged."""

from __future__ import annotations

import pickle
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from npc_tactics.dice import RngRoller
from npc_tactics.rules.base import Status
from tests.conformance.helpers import CASES, setup
from tests.fakesys import registered


@pytest.fixture(autouse=True)
def _fake_registered() -> Iterator[None]:
    with registered():
        yield


def _scribble(obj: Any, seen: set[int]) -> None:
    """Overwrite every writable list item, dict value and int field reachable from ``obj``."""
    if id(obj) in seen or isinstance(obj, (str, bytes, int, float, bool, type(None))):
        return
    seen.add(id(obj))
    if isinstance(obj, list):
        for i, item in enumerate(obj):
            if isinstance(item, bool):
                obj[i] = not item
            elif isinstance(item, int):
                obj[i] = item + 7
            else:
                _scribble(item, seen)
    elif isinstance(obj, dict):
        for key in list(obj):
            _scribble(obj[key], seen)
    elif isinstance(obj, np.ndarray) and obj.flags.writeable:
        obj[...] = 0
    elif hasattr(obj, "__dataclass_fields__") and not obj.__dataclass_params__.frozen:
        for name in obj.__dataclass_fields__:
            value = getattr(obj, name)
            if isinstance(value, Status):
                setattr(obj, name, Status.DEAD)
            elif isinstance(value, int) and not isinstance(value, bool):
                setattr(obj, name, value + 3)
            else:
                _scribble(value, seen)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(case=st.sampled_from(CASES), seed=st.integers(0, 2**31 - 1), steps=st.integers(0, 30))
def test_mutating_a_clone_never_changes_the_original(case: tuple[str, str], seed: int, steps: int) -> None:
    system, scenario = case
    engine, scen = setup(system, scenario)
    rng = np.random.default_rng(seed)
    roller = RngRoller(rng)
    state, _ = engine.new_combat(scen, roller)
    for _ in range(steps):
        decision = engine.pending(state)
        if decision is None:
            break
        state, _ = engine.step(state, int(rng.choice(np.flatnonzero(engine.legal_mask(state, decision)))),
                               roller, inplace=True)
    before = pickle.dumps(state)
    clone = engine.clone(state)
    for _ in range(5):  # the clone plays on, in place
        decision = engine.pending(clone)
        if decision is None:
            break
        clone, _ = engine.step(clone, int(rng.choice(np.flatnonzero(engine.legal_mask(clone, decision)))),
                               roller, inplace=True)
    _scribble(clone, set())
    assert pickle.dumps(state) == before
