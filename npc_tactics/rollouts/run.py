"""Monte-Carlo continuations of a fight from a given state: for each candidate move, N rollouts to the end.

Three properties the odds rest on:

* **Per-rollout seeds.** Rollout ``k`` uses seed ``rollout_seeds(seed, n)[k]`` (children of
  ``np.random.SeedSequence(seed)``): its dice come from ``default_rng(seed_k)`` and its scripted agents from
  ``SeedSequence(seed_k).spawn`` streams, independent of the dice.
* **Common random numbers.** Rollout ``k`` of every move uses the same ``seed_k``, so two moves are compared on
  the same dice as far as the fights stay alike: the difference between their win rates is far less noisy than
  either rate.
* **Worker independence.** A rollout's result depends only on the state, the move, the agents and ``seed_k``;
  rollouts are cut into chunks, run in any order over a process pool, and put back in ``(move, k)`` order, so
  the figures are the same for 1, 2 or 16 workers (tested).
"""

from __future__ import annotations

import multiprocessing as mp
import os
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np

from npc_tactics.dice import RngRoller
from npc_tactics.rollouts.agents import AgentBuilder, agent_builder, check_spec
from npc_tactics.rollouts.lockstep import Fight, play_chunk
from npc_tactics.rules.base import SideResult, Status

__all__ = ["MAX_DECISIONS", "Rollout", "RolloutJob", "default_workers", "rollout_seeds", "run_rollouts"]

#: Safety net against an engine that never ends a fight (engines cap rounds themselves).
MAX_DECISIONS = 100_000


@dataclass(frozen=True, slots=True)
class Rollout:
    """One continuation: ``result`` is the NPC side's result (``win``/``loss``/``draw``/``fled``),
    ``actor`` the acting NPC's final status (``active``, ``dead``, ``fled`` ...), ``rounds`` the rounds played
    counting the current one."""

    move: int
    index: int
    seed: int
    result: str
    actor: str
    rounds: int
    decisions: int


@dataclass(frozen=True)
class RolloutJob:
    """Everything a worker needs (picklable): the engine, the state at the decision, whose decision it is, and
    the agent spec of each side (index = side)."""

    engine: Any
    state: Any
    actor: int
    side: int
    agents: tuple[str, ...]


def rollout_seeds(seed: int, n: int) -> list[int]:
    """The seed of each of ``n`` rollouts: children of ``SeedSequence(seed)``, so rollout ``k``'s seed does not
    depend on ``n`` (the first 200 of 1,000 rollouts are the 200 rollouts)."""
    children = np.random.SeedSequence(seed).spawn(n)
    return [int(c.generate_state(1, dtype=np.uint32)[0]) for c in children]


def default_workers() -> int:
    """One worker per core the process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


class _Runner:
    """A job with its agents built once per process."""

    def __init__(self, job: RolloutJob) -> None:
        self.job = job
        system = job.engine.spec.name
        self.builders: list[AgentBuilder] = [agent_builder(system, spec) for spec in job.agents]
        self.encoder = _encoder(job.engine)

    def chunk(self, tasks: list[tuple[int, int, int]]) -> list[Rollout]:
        """Rollouts ``(move, k, seed_k)`` of one chunk, played in lockstep (:mod:`.lockstep`)."""
        job = self.job
        engine = job.engine
        fights = []
        for move, index, seed in tasks:
            roller = RngRoller(np.random.default_rng(seed))
            rngs = [np.random.default_rng(s) for s in np.random.SeedSequence(seed).spawn(len(self.builders))]
            agents = [b(engine, r) for b, r in zip(self.builders, rngs, strict=True)]
            state = engine.clone(job.state)
            start = int(getattr(state, "round", 0))
            state, _ = engine.step(state, move, roller, inplace=True, record_rolls=False)
            fights.append(Fight(move, index, seed, state, roller, agents, start, 1))
        play_chunk(engine, self.encoder, fights, MAX_DECISIONS)
        out = []
        for f in fights:
            outcome = engine.outcome(f.state)
            status = f.state.combatants[job.actor].status
            out.append(Rollout(f.move, f.index, f.seed, SideResult(int(outcome.results[job.side])).name.lower(),
                               Status(int(status)).name.lower(), max(1, int(outcome.rounds) - f.start + 1),
                               f.decisions))
        return out


def _encoder(engine: Any) -> Any:
    from npc_tactics.systems import get_system

    return get_system(engine.spec.name).load("encoder")(engine)


_WORKER: _Runner | None = None


def _init_worker(job: RolloutJob) -> None:
    global _WORKER  # one job per pool: the worker's agents, loaded once
    _WORKER = _Runner(job)


def _run_chunk(chunk: list[tuple[int, int, int]]) -> list[Rollout]:
    if _WORKER is None:  # pragma: no cover - the pool initializer always runs first
        raise RuntimeError("rollout worker used before its initializer ran")
    return _WORKER.chunk(chunk)


def run_rollouts(job: RolloutJob, moves: Sequence[int], n: int, *, seed: int = 0, workers: int | None = None,
                 chunk_size: int = 50) -> dict[int, list[Rollout]]:
    """``n`` rollouts of each of ``moves`` from ``job.state``: ``{move: [Rollout k=0..n-1]}``.

    ``workers`` processes (default :func:`default_workers`; 1 runs here, without a pool). The result is the
    same whatever ``workers`` is. A chunk's fights are played in lockstep with one batched network call per step
    (:mod:`.lockstep`); with scripted agents only the result does not depend on ``chunk_size`` either (a
    network's batched products may round differently in the last bit with another batch width)."""
    if n < 1:
        raise ValueError(f"run_rollouts needs n >= 1, got {n}")
    system = job.engine.spec.name
    for spec in job.agents:
        check_spec(system, spec)
    seeds = rollout_seeds(seed, n)
    tasks = [(int(m), k, s) for m in moves for k, s in enumerate(seeds)]
    workers = default_workers() if workers is None else max(1, int(workers))
    workers = min(workers, max(1, len(tasks) // max(1, chunk_size)))
    chunks = [tasks[i:i + chunk_size] for i in range(0, len(tasks), chunk_size)]
    if workers == 1:
        runner = _Runner(job)
        done = [r for part in chunks for r in runner.chunk(part)]
    else:
        ctx = mp.get_context("fork" if "fork" in mp.get_all_start_methods() else "spawn")
        with ProcessPoolExecutor(workers, mp_context=ctx, initializer=_init_worker, initargs=(job,)) as pool:
            done = [r for part in pool.map(_run_chunk, chunks) for r in part]
    out: dict[int, list[Rollout]] = {int(m): [] for m in moves}
    for r in sorted(done, key=lambda r: (r.move, r.index)):
        out[r.move].append(r)
    return out
