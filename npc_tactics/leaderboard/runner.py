"""Play a suite: every section's round robin on paired seeds, over a process pool, in a fixed order.

The work is the list of fights ``(section, scenario, seed, pairing)`` in one canonical order (section by
section, scenario by scenario, then seed by seed across pairings, as ``evaluate`` plays a tournament). Fight
``(scenario, seed, pairing)`` depends only on those: its dice come from ``default_rng(seed)`` and its agents'
streams from ``SeedSequence(seed)`` (:meth:`~npc_tactics.evaluation.arena.Arena.fight`, the tournament's fight),
and every pairing of a scenario plays the same seeds. The list is cut into chunks played by the workers in
any order; the parent sums the records back in canonical order (ratings are updated fight by fight, so the
order matters), so the result is the same for any number of workers (tested). Only counters are kept: a
record (no event log) lives from its chunk's return to its summation.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from itertools import islice
from pathlib import Path

from npc_tactics.agents.base import AgentFactory
from npc_tactics.errors import ConfigError, UserError
from npc_tactics.evaluation.arena import Arena, fight_seeds, progress_bar
from npc_tactics.evaluation.fight import FightRecord, ProfileFn
from npc_tactics.evaluation.ratings import SeatRatings
from npc_tactics.evaluation.results import PairingResult
from npc_tactics.evaluation.tactic_profile import tactic_profile
from npc_tactics.evaluation.tournament import unique_labels
from npc_tactics.leaderboard.suite import Section, Suite
from npc_tactics.leaderboard.tally import AgentTally

__all__ = ["SectionPlan", "default_workers", "plan_section", "play_suite"]

Task = tuple[int, int, int, int]  # section, scenario, pairing, seed
#: Chunks in flight per worker: enough to keep every worker busy, few enough to bound memory.
IN_FLIGHT = 4


def default_workers() -> int:
    """One worker per core this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def _is_bundle(spec: str) -> bool:
    return not spec.startswith("card:") and (Path(spec) / "schema.json").is_file()


def _factory(system: str, spec: str) -> tuple[AgentFactory, int | None]:
    """``(factory, seat)``: the agent builder of ``spec`` and the seat a trained policy is limited to."""
    from npc_tactics.agents.resolve import agent_factory, trained_side

    if _is_bundle(spec):
        from npc_tactics.policy_io.onnx_agent import load_bundle_agent

        agent = load_bundle_agent(spec, deterministic=True)
        if agent.system != system:
            raise UserError(f"{spec}: this bundle plays {agent.system!r}, not {system!r}")
        return (lambda engine, rng: agent), int(agent.side)
    return agent_factory(system, spec), trained_side(spec)


@dataclass(slots=True)
class SectionPlan:
    """A section made ready: its arenas, agent builders, labels and ordered pairings (label pairs)."""

    section: Section
    arenas: list[Arena]
    factories: dict[str, AgentFactory]
    labels: list[str]
    pairs: list[tuple[str, str]]
    profile: ProfileFn


def plan_section(suite: Suite, index: int) -> SectionPlan:
    """Build one section's arenas and agents; a problem is a ConfigError naming the suite file and field."""
    section = suite.sections[index]
    at = section.where
    arenas = []
    for k, scen in enumerate(section.scenarios):
        try:
            arenas.append(Arena.build(section.system, scen.name, {**section.options, **scen.options}))
        except (ValueError, UserError) as exc:
            raise ConfigError(suite.path, f"{at}scenarios[{k}]", str(exc)) from None
        if arenas[-1].sides != 2:
            raise ConfigError(suite.path, f"{at}scenarios[{k}]", "the leaderboard plays two-sided scenarios only")
    labels = unique_labels(list(section.agents))
    factories: dict[str, AgentFactory] = {}
    seat: dict[str, int | None] = {}
    for k, (label, spec) in enumerate(zip(labels, section.agents, strict=True)):
        try:
            factories[label], seat[label] = _factory(section.system, spec)
            arenas[0].check_agents([factories[label]], [spec])
        except UserError as exc:
            raise ConfigError(suite.path, f"{at}agents[{k}]", str(exc)) from None
        if spec in section.seats:
            seat[label] = section.seats[spec]
    pairs = [(a, b) for a in labels for b in labels
             if a != b and seat[a] in (None, 0) and seat[b] in (None, 1)]
    if not pairs:
        raise ConfigError(suite.path, f"{at}agents", "no pairing: no agent can play side 0 against one that can "
                          "play side 1 (trained policies play only the side they learned)")
    return SectionPlan(section, arenas, factories, labels, pairs, tactic_profile(section.system))


def tasks(suite: Suite, plans: Sequence[SectionPlan]) -> list[Task]:
    """Every fight of the suite in canonical order."""
    seeds = fight_seeds(suite.seed, suite.fights)
    return [(si, ci, pi, s) for si, plan in enumerate(plans) for ci in range(len(plan.arenas))
            for s in seeds for pi in range(len(plan.pairs))]


# ----- workers --------------------------------------------------------------------------------------------
_SUITE: Suite | None = None
_PLANS: dict[int, SectionPlan] = {}


def _init_worker(suite: Suite) -> None:
    global _SUITE
    _SUITE = suite
    _PLANS.clear()


def _plan(si: int) -> SectionPlan:
    if si not in _PLANS:
        if _SUITE is None:  # pragma: no cover - the initializer always runs first
            raise RuntimeError("leaderboard worker used before its initializer ran")
        _PLANS[si] = plan_section(_SUITE, si)
    return _PLANS[si]


def play_chunk(chunk: Sequence[Task], plan_of: Callable[[int], SectionPlan] = _plan) -> list[FightRecord]:
    """Play the fights of ``chunk`` (each with its own seed: the chunking changes nothing)."""
    out = []
    for si, ci, pi, seed in chunk:
        plan = plan_of(si)
        a, b = plan.pairs[pi]
        out.append(plan.arenas[ci].fight([plan.factories[a], plan.factories[b]], seed, profile=plan.profile))
    return out


def _chunks(all_tasks: list[Task], workers: int) -> list[list[Task]]:
    size = max(1, min(200, len(all_tasks) // max(1, workers * 8)))
    return [all_tasks[i:i + size] for i in range(0, len(all_tasks), size)]


def _records(suite: Suite, plans: list[SectionPlan], chunks: list[list[Task]], workers: int
             ) -> Iterator[tuple[Task, FightRecord]]:
    if workers == 1:
        for chunk in chunks:
            yield from zip(chunk, play_chunk(chunk, plans.__getitem__), strict=True)
        return
    ctx = mp.get_context("fork" if "fork" in mp.get_all_start_methods() else "spawn")
    with ProcessPoolExecutor(workers, mp_context=ctx, initializer=_init_worker, initargs=(suite,)) as pool:
        # a bounded window of chunks in flight, consumed in order: memory does not grow with the suite
        window: deque[tuple[list[Task], Future[list[FightRecord]]]] = deque()
        pending = iter(chunks)
        for chunk in islice(pending, IN_FLIGHT * workers):
            window.append((chunk, pool.submit(play_chunk, chunk)))
        while window:
            chunk, future = window.popleft()
            yield from zip(chunk, future.result(), strict=True)
            for nxt in islice(pending, 1):
                window.append((nxt, pool.submit(play_chunk, nxt)))


# ----- the parent's sums ----------------------------------------------------------------------------------
@dataclass(slots=True)
class SectionSums:
    plan: SectionPlan
    pairings: list[list[PairingResult]]  # [scenario][pairing]
    agents: dict[tuple[int, str, int], AgentTally]  # (scenario, label, seat)
    rater: SeatRatings


def play_suite(suite: Suite, workers: int | None = None, progress: bool = True
               ) -> tuple[list[SectionSums], float, int]:
    """Play every fight of ``suite``: ``(per-section sums, seconds, workers used)``."""
    plans = [plan_section(suite, i) for i in range(len(suite.sections))]
    sums = [SectionSums(p, [[PairingResult(pair) for pair in p.pairs] for _ in p.arenas], {},
                        SeatRatings(p.labels)) for p in plans]
    all_tasks = tasks(suite, plans)
    workers = default_workers() if workers is None else max(1, int(workers))
    chunks = _chunks(all_tasks, workers)
    workers = min(workers, len(chunks))
    started = time.perf_counter()
    with progress_bar(len(all_tasks), f"leaderboard {suite.name}", progress) as advance:
        for (si, ci, pi, _), record in _records(suite, plans, chunks, workers):
            box = sums[si]
            pairing = box.pairings[ci][pi]
            pairing.tally.add(record)
            box.rater.update(pairing.agents, record.results)
            for side, label in enumerate(pairing.agents):
                box.agents.setdefault((ci, label, side), AgentTally()).add(record, side)
            advance()
    return sums, time.perf_counter() - started, workers
