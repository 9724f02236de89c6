"""Monte-Carlo continuations of a fight from a given state: for each candidate move, N rollouts to the end.

Three properties the odds rest on:

* **Per-rollout seeds.** Rollout ``k`` uses seed ``rollout_seeds(seed, n)[k]`` (children of
  ``np.random.SeedSequence(seed)``): its dice come from ``default_rng(seed_k)`` and its scripted agents from
  ``SeedSequence(seed_k).spawn`` streams, independent of the dice.
* **Common random numbers.** Rollout ``k`` of every move uses the same ``seed_k``, so two moves are compared on
  the same dice as far as the fights stay alike: the difference between their win rates is far less noisy than
  either rate.
* **Worker independence.** A rollout's result depends only on the state, the move, the agents and ``seed_k``;
  rollouts are fights of the one runner (:mod:`.fights`: lockstep chunks, any executor), put back in
  ``(move, k)`` order, so the figures are the same for 1, 2 or 16 workers and any chunk width (tested).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from npc_tactics.rollouts.executors import Executor, default_workers
from npc_tactics.rollouts.fights import DEFAULT_K, MAX_DECISIONS, FightJob, FightTask, FromState, iter_tasks

__all__ = ["MAX_DECISIONS", "Rollout", "RolloutJob", "default_workers", "rollout_seeds", "run_rollouts"]


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


def run_rollouts(job: RolloutJob, moves: Sequence[int], n: int, *, seed: int = 0, workers: int | None = None,
                 chunk_size: int = DEFAULT_K, executor: Executor | None = None) -> dict[int, list[Rollout]]:
    """``n`` rollouts of each of ``moves`` from ``job.state``: ``{move: [Rollout k=0..n-1]}``.

    ``workers`` processes (default :func:`default_workers`; 1 runs here, without a pool) or ``executor``;
    ``chunk_size`` fights in lockstep. The result is the same whatever they are."""
    if n < 1:
        raise ValueError(f"run_rollouts needs n >= 1, got {n}")
    moves = [int(m) for m in moves]
    seeds = rollout_seeds(seed, n)
    fights = FightJob(job.engine, tuple(FromState(job.state, m) for m in moves), job.agents)
    seats = tuple(range(len(job.agents)))
    tasks = [FightTask(i, s, seats) for i in range(len(moves)) for s in seeds]
    out: dict[int, list[Rollout]] = {m: [] for m in moves}
    for r in iter_tasks(fights, tasks, k=chunk_size, workers=workers, executor=executor):
        move = moves[r.start]
        out[move].append(Rollout(move, r.task % n, r.seed, r.results[job.side], r.statuses[job.actor], r.rounds,
                                 r.decisions))
    return out
