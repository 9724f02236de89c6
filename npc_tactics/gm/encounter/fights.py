"""Whole fights of several candidate encounters on shared per-fight seeds: a thin layer over the one fight
runner (:func:`npc_tactics.rollouts.fights.iter_tasks`).

* **Per-fight seeds.** Fight ``k`` of every candidate uses seed ``rollout_seeds(seed, n)[k]``: its dice come
  from ``default_rng(seed_k)`` (starting hit points included) and each side's agent from its own
  ``SeedSequence(seed_k).spawn`` stream. Fight ``k`` does not depend on ``n``.
* **Paired seeds across candidates.** Candidate A's fight ``k`` and candidate B's fight ``k`` roll from the
  same dice stream, so comparing two foe groups is less noisy than either group's odds (common random numbers).
* **Worker independence.** The runner's results depend only on each fight's task, never on the number of
  processes or fights in lockstep (tested there and here).

A start is either a scenario (``engine.new_combat`` per fight) or a state (a GM's situation, cloned per fight).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from npc_tactics.rollouts import Executor, rollout_seeds
from npc_tactics.rollouts.fights import FightJob as RunnerJob
from npc_tactics.rollouts.fights import FightTask, FromScenario, FromState, iter_tasks

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
    """``starts[c]`` is candidate ``c``'s scenario, or its state when ``from_state``; ``agents[side]`` the agent
    spec of each side; ``party`` the party's side."""

    engine: Any
    starts: tuple[Any, ...]
    from_state: bool
    agents: tuple[str, ...]
    party: int


def run_fights(job: FightJob, candidates: Sequence[int], n: int, *, seed: int = 0, workers: int | None = None,
               first: int = 0, executor: Executor | None = None) -> dict[int, list[FightResult]]:
    """Fights ``first .. first + n - 1`` of each of ``candidates`` (indexes into ``job.starts``):
    ``{candidate: [FightResult k]}``. A refinement asks for fights ``first = n_screen ..`` so that its fights are
    new ones, never the screen's again. ``workers`` processes (default one per core; 1 runs here), or any
    ``executor`` of the fight runner (a Ray cluster: :class:`npc_tactics.cluster.RayExecutor`); same results."""
    if n < 1:
        raise ValueError(f"run_fights needs n >= 1, got {n}")
    wanted = sorted({int(c) for c in candidates})
    starts = tuple(FromState(job.starts[c]) if job.from_state else FromScenario(job.starts[c]) for c in wanted)
    runner = RunnerJob(job.engine, starts, tuple(job.agents))
    seeds = rollout_seeds(seed, first + n)[first:]
    seats = tuple(range(len(job.agents)))
    tasks = [FightTask(i, s, seats) for i in range(len(wanted)) for s in seeds]
    out: dict[int, list[FightResult]] = {c: [] for c in wanted}
    foes = 1 - job.party
    for number, r in enumerate(iter_tasks(runner, tasks, workers=workers, executor=executor)):
        cand = wanted[r.start]
        out[cand].append(FightResult(cand, first + number % n, r.seed, r.results[job.party], r.results[foes],
                                     r.dead(job.party), r.rounds))
    return {int(c): out[int(c)] for c in candidates}
