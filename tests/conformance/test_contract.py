"""The engine protocol as a contract, checked on every registered system and every shipped scenario.

Each test states one clause of the contract in ``npc_tactics.rules.base``; an engine that fills a gap its own way
fails here rather than somewhere downstream (an encoder writing into a cached mask, a replay that drifts).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from npc_tactics.dice import RngRoller
from npc_tactics.systems import get_system
from tests.conftest import system_scenarios

CASES = system_scenarios()


def _setup(system: str, scenario: str) -> tuple[Any, Any]:
    info = get_system(system)
    engine = info.load("engine")()
    return engine, info.load("content").load_scenario(scenario)


def _random_play(engine: Any, state: Any, rng: np.random.Generator, roller: Any, limit: int = 2000
                 ) -> Iterator[tuple[Any, Any, np.ndarray]]:
    """Yield (state, decision, mask) at every decision of a random-legal fight, stepping in place."""
    for _ in range(limit):
        decision = engine.pending(state)
        if decision is None:
            return
        mask = engine.legal_mask(state, decision)
        yield state, decision, mask
        action = int(rng.choice(np.flatnonzero(mask)))
        state, _ = engine.step(state, action, roller, inplace=True)


def _mutables(obj: Any, seen: set[int], out: dict[int, str], path: str = "state") -> None:
    """Collect the ids of every mutable object reachable from ``obj`` (lists, dicts, sets, arrays, dataclasses)."""
    if id(obj) in seen or obj is None or isinstance(obj, (str, bytes, int, float, bool, tuple, frozenset)):
        if isinstance(obj, tuple | frozenset):
            for i, item in enumerate(obj):
                _mutables(item, seen, out, f"{path}[{i}]")
        return
    seen.add(id(obj))
    if isinstance(obj, np.ndarray):
        if obj.flags.writeable:
            out[id(obj)] = path
        return
    if isinstance(obj, list | set | dict):
        out[id(obj)] = path
        items = obj.items() if isinstance(obj, dict) else enumerate(obj)
        for key, value in items:
            _mutables(value, seen, out, f"{path}[{key!r}]")
        return
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        params = getattr(type(obj), "__dataclass_params__", None)
        if params is not None and not params.frozen:
            out[id(obj)] = path
        for f in dataclasses.fields(obj):
            _mutables(getattr(obj, f.name), seen, out, f"{path}.{f.name}")


@pytest.mark.parametrize(("system", "scenario"), CASES)
def test_legal_mask_is_a_fresh_writable_bool_array_honouring_the_decision(system: str, scenario: str) -> None:
    engine, scen = _setup(system, scenario)
    roller = RngRoller(np.random.default_rng(0))
    start, _ = engine.new_combat(scen, roller)
    for state, decision, mask in _random_play(engine, start, np.random.default_rng(1), roller, 300):
        assert mask.dtype == np.bool_ and mask.shape == (len(engine.catalogue),)
        assert mask.flags.writeable, "legal_mask must hand out a writable array"
        again = engine.legal_mask(state, decision)
        assert again is not mask and not np.shares_memory(again, mask), "legal_mask must return a fresh array"
        assert mask.any(), f"no legal action at {decision.describe()}"
        for index in np.flatnonzero(mask):
            assert decision.kind in engine.catalogue[int(index)].kinds, (
                f"{engine.catalogue.name(int(index))} is legal at a {decision.kind.name} decision")


@pytest.mark.parametrize(("system", "scenario"), CASES)
def test_mask_is_all_ones_at_a_terminal_state(system: str, scenario: str) -> None:
    engine, scen = _setup(system, scenario)
    final, _ = _play_logged(engine, scen, RngRoller(np.random.default_rng(2)), seed=3)
    assert engine.outcome(final) is not None
    mask = engine.legal_mask(final)
    assert mask.all() and mask.shape == (len(engine.catalogue),)


@pytest.mark.parametrize(("system", "scenario"), CASES)
def test_step_without_inplace_leaves_its_input_untouched_and_clone_shares_nothing(system: str, scenario: str
                                                                                 ) -> None:
    import pickle

    engine, scen = _setup(system, scenario)
    roller = RngRoller(np.random.default_rng(4))
    state, _ = engine.new_combat(scen, roller)
    rng = np.random.default_rng(5)
    for _ in range(40):
        decision = engine.pending(state)
        if decision is None:
            break
        before = pickle.dumps(state)
        clone = engine.clone(state)
        orig_ids: dict[int, str] = {}
        clone_ids: dict[int, str] = {}
        _mutables(state, set(), orig_ids)
        _mutables(clone, set(), clone_ids)
        shared = set(orig_ids) & set(clone_ids)
        assert not shared, f"clone shares {sorted(orig_ids[i] for i in shared)[:5]}"
        mask = engine.legal_mask(state, decision)
        nxt, _ = engine.step(state, int(rng.choice(np.flatnonzero(mask))), roller)
        assert pickle.dumps(state) == before, "step without inplace changed its input"
        state = nxt


def _play_logged(engine: Any, scen: Any, roller: Any, seed: int) -> tuple[Any, list[Any]]:
    """A random-legal fight from ``new_combat`` to the end; returns the final state and the whole event log."""
    state, events = engine.new_combat(scen, roller)
    log = list(events)
    rng = np.random.default_rng(seed)
    while (decision := engine.pending(state)) is not None:
        mask = engine.legal_mask(state, decision)
        state, step_events = engine.step(state, int(rng.choice(np.flatnonzero(mask))), roller, inplace=True)
        log.extend(step_events)
    return state, log


@pytest.mark.parametrize(("system", "scenario"), CASES)
def test_the_event_log_holds_every_roll_so_forced_rolls_replay_the_fight_byte_for_byte(system: str,
                                                                                         scenario: str) -> None:
    from npc_tactics.dice import ScriptedRoller
    from npc_tactics.rules.base import events_to_jsonl

    engine, scen = _setup(system, scenario)
    _, opening = engine.new_combat(scen, RngRoller(np.random.default_rng(7)))
    assert opening, "new_combat returns the opening events (round 1 starts there, with its rolls if any)"
    _, log = _play_logged(engine, scen, RngRoller(np.random.default_rng(7)), seed=8)
    assert log[: len(opening)] == opening
    faces = [face for e in log if e.kind == "roll" for face in e.data["faces"]]
    replay_engine, _ = _setup(system, scenario)
    _, replayed = _play_logged(replay_engine, scen, ScriptedRoller(faces), seed=8)
    assert events_to_jsonl(replayed) == events_to_jsonl(log)


@pytest.mark.parametrize("system", sorted({s for s, _ in CASES}))
def test_rules_options_are_resolved_once_and_carried_on_the_state(system: str) -> None:
    """A state keeps the options it was built under, whatever fight the same engine starts afterwards."""
    from npc_tactics.rules.base import events_to_jsonl

    scenarios = [sc for s, sc in CASES if s == system]
    info = get_system(system)
    content = info.load("content")
    engine = info.load("engine")()
    alone = info.load("engine")()
    for first in scenarios:
        for second in scenarios:
            if first == second:
                continue
            a_state, a_events = engine.new_combat(content.load_scenario(first), RngRoller(np.random.default_rng(9)))
            engine.new_combat(content.load_scenario(second), RngRoller(np.random.default_rng(10)))
            rng, roller = np.random.default_rng(11), RngRoller(np.random.default_rng(12))
            log = list(a_events)
            while (d := engine.pending(a_state)) is not None:
                a_state, ev = engine.step(a_state, int(rng.choice(np.flatnonzero(engine.legal_mask(a_state, d)))),
                                          roller, inplace=True)
                log.extend(ev)
            b_state, b_events = alone.new_combat(content.load_scenario(first), RngRoller(np.random.default_rng(9)))
            rng, roller = np.random.default_rng(11), RngRoller(np.random.default_rng(12))
            ref = list(b_events)
            while (d := alone.pending(b_state)) is not None:
                b_state, ev = alone.step(b_state, int(rng.choice(np.flatnonzero(alone.legal_mask(b_state, d)))),
                                         roller, inplace=True)
                ref.extend(ev)
            assert events_to_jsonl(log) == events_to_jsonl(ref), (
                f"{first} played differently after the engine started {second}")
