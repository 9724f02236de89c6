"""Whole fights of several candidate encounters on shared per-fight seeds, over a process pool.

The same three properties as :mod:`npc_tactics.rollouts` (whose lockstep player and agent specs this reuses):

* **Per-fight seeds.** Fight ``k`` of every candidate uses seed ``rollout_seeds(seed, n)[k]``: its dice come
  from ``default_rng(seed_k)`` (starting hit points included) and each side's scripted agent from its own
  ``SeedSequence(seed_k).spawn`` stream. Fight ``k`` does not depend on ``n``.
* **Paired seeds across candidates.** Candidate A's fight ``k`` and candidate B's fight ``k`` roll from the
  same dice stream, so comparing two foe groups is less noisy than either group's odds (common random numbers).
* **Worker independence.** Fights are cut into chunks of ``chunk_size`` in ``(candidate, k)`` order, played in
  any order by any worker and put back in order: the results are the same for 1 or 16 workers.

A start is either a scenario (``engine.new_combat`` per fight) or a state (a GM's situation, cloned per fight).
"""

from __future__ import annotations

import multiprocessing as mp
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np

from npc_tactics.dice import RngRoller
from npc_tactics.rollouts import default_workers, rollout_seeds
from npc_tactics.rollouts.agents import AgentBuilder, agent_builder, check_spec
from npc_tactics.rollouts.lockstep import Fight, play_chunk
from npc_tactics.rollouts.run import MAX_DECISIONS
from npc_tactics.rules.base import SideResult, Status

__all__ = ["FightJob", "FightResult", "run_fights"]


@dataclass(frozen=True, slots=True)
class FightResult:
    """One fight of one candidate: each side's result (``win``/``loss``/``draw``/``fled``), how many of the
    party died, and the rounds played (from the start: a situation's current round counts as the first)."""

    candidate: int
    index: int
    seed: int
    party: str
    foes: str
    pc_dead: int
    rounds: int


@dataclass(frozen=True)
class FightJob:
    """Everything a worker needs (picklable). ``starts[c]`` is candidate ``c``'s scenario, or its state when
    ``from_state``; ``agents[side]`` the agent spec of each side; ``party`` the party's side."""

    engine: Any
    starts: tuple[Any, ...]
    from_state: bool
    agents: tuple[str, ...]
    party: int


class _Runner:
    def __init__(self, job: FightJob) -> None:
        self.job = job
        system = job.engine.spec.name
        self.builders: list[AgentBuilder] = [agent_builder(system, spec) for spec in job.agents]
        from npc_tactics.systems import get_system

        self.encoder = get_system(system).load("encoder")(job.engine)

    def chunk(self, tasks: list[tuple[int, int, int]]) -> list[FightResult]:
        job, engine = self.job, self.job.engine
        fights = []
        for cand, index, seed in tasks:
            roller = RngRoller(np.random.default_rng(seed))
            if job.from_state:
                state = engine.clone(job.starts[cand])
            else:
                state, _ = engine.new_combat(job.starts[cand], roller, record_rolls=False)
            rngs = [np.random.default_rng(s) for s in np.random.SeedSequence(seed).spawn(len(self.builders))]
            agents = [b(engine, r) for b, r in zip(self.builders, rngs, strict=True)]
            start = int(getattr(state, "round", 1)) if job.from_state else 1
            fights.append(Fight(cand, index, seed, state, roller, agents, start))
        play_chunk(engine, self.encoder, fights, MAX_DECISIONS)
        out = []
        foes = 1 - job.party
        for f in fights:
            outcome = engine.outcome(f.state)
            dead = sum(1 for c in f.state.combatants if c.side == job.party and int(c.status) == Status.DEAD)
            out.append(FightResult(f.move, f.index, f.seed, SideResult(int(outcome.results[job.party])).name.lower(),
                                   SideResult(int(outcome.results[foes])).name.lower(), dead,
                                   max(1, int(outcome.rounds) - f.start + 1)))
        return out


_WORKER: _Runner | None = None


def _init_worker(job: FightJob) -> None:
    global _WORKER  # one job per pool: the worker's agents, loaded once
    _WORKER = _Runner(job)


def _run_chunk(chunk: list[tuple[int, int, int]]) -> list[FightResult]:
    if _WORKER is None:  # pragma: no cover - the pool initializer always runs first
        raise RuntimeError("fight worker used before its initializer ran")
    return _WORKER.chunk(chunk)


def run_fights(job: FightJob, candidates: Sequence[int], n: int, *, seed: int = 0, workers: int | None = None,
               chunk_size: int = 32, first: int = 0) -> dict[int, list[FightResult]]:
    """Fights ``first .. first + n - 1`` of each of ``candidates`` (indexes into ``job.starts``):
    ``{candidate: [FightResult k]}``. A refinement asks for fights ``first = n_screen ..`` so that its fights are
    new ones, never the screen's again. ``workers`` processes (default one per core; 1 runs here)."""
    if n < 1:
        raise ValueError(f"run_fights needs n >= 1, got {n}")
    system = job.engine.spec.name
    for spec in job.agents:
        check_spec(system, spec)
    seeds = rollout_seeds(seed, first + n)[first:]
    tasks = [(int(c), first + k, s) for c in candidates for k, s in enumerate(seeds)]
    chunks = [tasks[i:i + chunk_size] for i in range(0, len(tasks), chunk_size)]
    workers = default_workers() if workers is None else max(1, int(workers))
    workers = min(workers, len(chunks))
    if workers == 1:
        runner = _Runner(job)
        done = [r for part in chunks for r in runner.chunk(part)]
    else:
        ctx = mp.get_context("fork" if "fork" in mp.get_all_start_methods() else "spawn")
        with ProcessPoolExecutor(workers, mp_context=ctx, initializer=_init_worker, initargs=(job,)) as pool:
            done = [r for part in pool.map(_run_chunk, chunks) for r in part]
    out: dict[int, list[FightResult]] = {int(c): [] for c in candidates}
    for r in sorted(done, key=lambda r: (r.candidate, r.index)):
        out[r.candidate].append(r)
    return out
