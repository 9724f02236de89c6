"""What the conformance tests share: the cases (every registered system's shipped scenarios plus the test fake),
engine setup, random-legal play and the walk over a state's mutable objects."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

import numpy as np

from npc_tactics.registry import get_system
from tests.conftest import system_scenarios
from tests.fakesys import NAME as FAKE
from tests.fakesys import content as fake_content

#: (system, scenario) for every shipped scenario of every registered system, then the fake's scenarios
CASES = system_scenarios() + [(FAKE, name) for name, _ in fake_content.list_scenarios()]
SYSTEMS = sorted({system for system, _ in CASES})


def setup(system: str, scenario: str, options: dict[str, Any] | None = None) -> tuple[Any, Any]:
    """A fresh engine of ``system`` (the fake must be registered) and the loaded scenario."""
    info = get_system(system)
    return info.load("engine")(options), info.load("content").load_scenario(scenario)


def random_play(engine: Any, state: Any, rng: np.random.Generator, roller: Any, limit: int = 2000
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


def play_logged(engine: Any, scen: Any, roller: Any, seed: int) -> tuple[Any, list[Any], int]:
    """A random-legal fight from ``new_combat`` to the end: final state, whole event log, decisions taken."""
    state, events = engine.new_combat(scen, roller)
    log = list(events)
    rng = np.random.default_rng(seed)
    decisions = 0
    while (decision := engine.pending(state)) is not None:
        mask = engine.legal_mask(state, decision)
        state, step_events = engine.step(state, int(rng.choice(np.flatnonzero(mask))), roller, inplace=True)
        log.extend(step_events)
        decisions += 1
        if decisions > engine.spec.max_decisions:
            raise AssertionError(f"more than spec.max_decisions={engine.spec.max_decisions} decisions")
    return state, log, decisions


def mutables(obj: Any, seen: set[int], out: dict[int, str], path: str = "state") -> None:
    """Collect the ids of every mutable object reachable from ``obj`` (lists, dicts, sets, writable arrays,
    non-frozen dataclasses); read-only mappings and arrays, tuples' immutable items and scalars are skipped."""
    if id(obj) in seen or obj is None or isinstance(obj, (str, bytes, int, float, bool, tuple, frozenset)):
        if isinstance(obj, tuple | frozenset):
            for i, item in enumerate(obj):
                mutables(item, seen, out, f"{path}[{i}]")
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
            mutables(value, seen, out, f"{path}[{key!r}]")
        return
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        params = getattr(type(obj), "__dataclass_params__", None)
        if params is not None and not params.frozen:
            out[id(obj)] = path
        for f in dataclasses.fields(obj):
            mutables(getattr(obj, f.name), seen, out, f"{path}.{f.name}")


def with_options(scenario: Any, options: dict[str, Any]) -> Any:
    """The same scenario with its rules ``options`` replaced (scenario mappings or dataclasses)."""
    if dataclasses.is_dataclass(scenario) and not isinstance(scenario, type):
        return dataclasses.replace(scenario, options=options)  # type: ignore[type-var]
    return {**scenario, "options": options}


def other_options(spec: Any) -> dict[str, Any]:
    """Every boolean option flipped and every enumerated one moved off its default: a fight under these
    plays differently from one under the defaults."""
    out: dict[str, Any] = {}
    for key, default in spec.default_options.items():
        if isinstance(default, bool):
            out[key] = not default
        elif key in spec.option_values:
            out[key] = next(v for v in spec.option_values[key] if v != default)
        elif key in spec.option_ranges and isinstance(default, int):
            low, high = spec.option_ranges[key]
            out[key] = int(high) if default != high else int(low)
    return out
