"""A tournament's fights played by a pool of workers (a Ray cluster, a process pool), same numbers as at home.

The fights of a tournament are the ``(seed, pairing)`` pairs in the order the local loop plays them (seed by
seed across pairings). They are cut into chunks, each worker builds the arena and the agents once (its
initializer), plays the chunks it is sent, and the records come back in the local order; the caller then sums
and rates them exactly as the local loop does. A fight depends only on its seed and its two agents (dice from
the seed, each agent's own stream spawned from it, trained policies deterministic), never on the worker or
on what the worker played before, so ``results.json`` is byte for byte the local one (tested).

The pool is anything with ``ProcessPoolExecutor``'s shape: a factory ``(initializer, initargs) -> context
manager`` whose ``map(fn, items)`` yields results in order (:class:`npc_tactics.cluster.RayExecutor`).
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Mapping, Sequence
from contextlib import AbstractContextManager
from typing import Any

from npc_tactics.evaluation.fight import FightRecord

__all__ = ["DEFAULT_CHUNK", "PoolFactory", "fight_records"]

#: Fights per task sent to a worker: large enough that Ray's per-task cost (~1 ms) is small next to the
#: fights (about 1-3 ms each for scripted agents), small enough to keep every worker busy to the end.
DEFAULT_CHUNK = 250

PoolFactory = Callable[[Callable[..., None], tuple[Any, ...]], AbstractContextManager[Any]]

_ARENA: Any = None
_FACTORIES: dict[str, Any] = {}


def _init_worker(system: str, scenario: str | None, options: Mapping[str, Any] | None,
                 specs: Mapping[str, str]) -> None:
    """Build the arena and every agent once in this worker (a trained run folder is loaded once here)."""
    global _ARENA, _FACTORIES  # one tournament per worker: its arena and agents, built once
    from npc_tactics.agents.resolve import agent_factory
    from npc_tactics.evaluation.arena import Arena

    _ARENA = Arena.build(system, scenario, options)
    _FACTORIES = {label: agent_factory(_ARENA.system, spec) for label, spec in specs.items()}


def _play_chunk(tasks: list[tuple[int, str, str]]) -> list[FightRecord]:
    if _ARENA is None:  # pragma: no cover - the initializer always runs first
        raise RuntimeError("tournament worker used before its initializer ran")
    return [_ARENA.fight([_FACTORIES[a], _FACTORIES[b]], seed) for seed, a, b in tasks]


def fight_records(pool: PoolFactory, system: str, scenario: str | None, options: Mapping[str, Any] | None,
                  specs: Mapping[str, str], pairs: Sequence[tuple[str, str]], seeds: Sequence[int],
                  chunk: int = DEFAULT_CHUNK) -> Generator[FightRecord, None, None]:
    """The record of every ``(seed, pair)`` fight, seed by seed across ``pairs`` (the local order), played by
    ``pool`` in chunks of at most ``chunk`` fights; ``specs`` maps each label of ``pairs`` to its agent spec."""
    tasks = [(int(s), a, b) for s in seeds for a, b in pairs]
    with pool(_init_worker, (system, scenario, dict(options or {}), dict(specs))) as executor:
        # at least a few chunks per worker, so that none waits for the last one (the results do not depend on it)
        size = max(1, min(chunk, -(-len(tasks) // (4 * int(getattr(executor, "workers", 1) or 1)))))
        chunks = [tasks[i:i + size] for i in range(0, len(tasks), size)]
        for records in executor.map(_play_chunk, chunks):
            yield from records
