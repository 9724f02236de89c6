"""Play a suite: every section's round robin on paired seeds, through the lockstep fight runner, in a fixed order.

The work is the list of fights ``(section, scenario, seed, pairing)`` in one canonical order (section by
section, scenario by scenario, then seed by seed across pairings, as ``evaluate`` plays a tournament). Each
section (each set of rules options within it) is one :class:`~npc_tactics.rollouts.FightJob` whose starts are
its scenarios, played by :func:`~npc_tactics.rollouts.iter_tasks`, the runner tournaments use: fight
``(scenario, seed, pairing)`` rolls its dice from ``default_rng(seed)`` and seeds its agents from
``SeedSequence(seed)``, whatever the number of workers, the lockstep width or the executor, and the results come
back in task order. The parent sums the records in that order (ratings are updated fight by fight, so the order
matters); so the report is the same for any number of workers (tested). Only counters are kept: a fight's
event log lives only while the fight is played (its tactic profile is counted from it at the end).
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from npc_tactics.agents.base import AgentFactory
from npc_tactics.errors import ConfigError, UserError
from npc_tactics.evaluation.arena import Arena, fight_seeds, progress_bar
from npc_tactics.evaluation.fight import FightRecord
from npc_tactics.evaluation.ratings import SeatRatings
from npc_tactics.evaluation.results import PairingResult
from npc_tactics.evaluation.tactic_profile import side_profile
from npc_tactics.evaluation.tournament import unique_labels
from npc_tactics.leaderboard.suite import Scenario, Section, Suite
from npc_tactics.leaderboard.tally import AgentTally
from npc_tactics.plugin import System
from npc_tactics.rollouts import (
    DEFAULT_K,
    Executor,
    FightJob,
    FightTask,
    FromEncounter,
    FromScenario,
    default_workers,
    iter_tasks,
)
from npc_tactics.rollouts.fights import Start

__all__ = ["SectionPlan", "default_workers", "plan_section", "play_suite"]

Task = tuple[int, int, int, int]  # section, scenario, pairing, seed


def _is_bundle(spec: str) -> bool:
    return not spec.startswith("card:") and (Path(spec) / "schema.json").is_file()


def _factory(system: System, spec: str) -> tuple[AgentFactory, int | None]:
    """``(factory, seat)``: the agent builder of ``spec`` and the seat a trained policy is limited to."""
    from npc_tactics.agents.resolve import factory_of, trained_side

    if _is_bundle(spec):
        from npc_tactics.policy_io.onnx_agent import load_bundle_agent

        agent = load_bundle_agent(spec, deterministic=True)
        if agent.system != system.name:
            raise UserError(f"{spec}: this bundle plays {agent.system!r}, not {system.name!r}")
        return (lambda engine, rng: agent), int(agent.side)
    return factory_of(system, spec), trained_side(spec)


@dataclass(slots=True)
class SectionPlan:
    """A section made ready: its arenas, agent builders, labels and ordered pairings (label pairs)."""

    section: Section
    arenas: list[Arena]
    factories: dict[str, AgentFactory]
    labels: list[str]
    pairs: list[tuple[str, str]]
    profile: Any  #: ``(events, state, side) -> counts``, picklable (a partial of a module-level function)
    starts: list[Start]  #: per scenario entry: where its fights begin (a scenario or drawn encounters)


def plan_section(suite: Suite, index: int) -> SectionPlan:
    """Build one section's arenas and agents; a problem is a ConfigError naming the suite file and field."""
    section = suite.sections[index]
    at = section.where
    arenas = []
    starts: list[Start] = []
    for k, scen in enumerate(section.scenarios):
        try:  # an encounter set's arena is the system's default one (its engine, encoder and agent checks)
            arenas.append(Arena.build(section.plugin, scen.name if scen.kind == "scenario" else None,
                                      {**section.options, **scen.options}))
            starts.append(_start(section.plugin, scen, arenas[-1].scenario))
        except (ValueError, UserError) as exc:
            raise ConfigError(suite.path, f"{at}scenarios[{k}]", str(exc)) from None
        if arenas[-1].sides != 2:
            raise ConfigError(suite.path, f"{at}scenarios[{k}]", "the leaderboard plays two-sided scenarios only")
    labels = unique_labels(list(section.agents))
    factories: dict[str, AgentFactory] = {}
    seat: dict[str, int | None] = {}
    for k, (label, spec) in enumerate(zip(labels, section.agents, strict=True)):
        try:
            factories[label], seat[label] = _factory(section.plugin, spec)
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
    return SectionPlan(section, arenas, factories, labels, pairs, partial(side_profile, section.system), starts)


def _start(system: System, scen: Scenario, loaded: Any) -> Start:
    """Where a section entry's fights begin: the loaded scenario, or drawn encounters (wear applied)."""
    if scen.kind == "encounters":
        return FromEncounter.distribution(scen.name, system)
    if scen.kind == "heldout":
        return FromEncounter.heldout(system, scen.name)
    return FromScenario(loaded)


def jobs(suite: Suite, plans: Sequence[SectionPlan]) -> Iterator[tuple[int, list[int], FightJob]]:
    """``(section, its scenario indices, job)``: one fight job per section and set of rules options (the
    engine carries the options; a scenario's own file options are resolved per fight by the engine). Scenarios
    given their own ``options:`` in the suite form their own job, played after the section's other scenarios
    (a fixed order all the same)."""
    for si, plan in enumerate(plans):
        groups: dict[str, list[int]] = {}
        for ci, arena in enumerate(plan.arenas):
            groups.setdefault(repr(sorted(arena.engine.options.items())), []).append(ci)
        for members in groups.values():
            engine = plan.arenas[members[0]].engine
            starts = tuple(plan.starts[ci] for ci in members)
            yield si, members, FightJob(engine, starts, tuple(plan.section.agents), record=True,
                                        profile=plan.profile)


def _records(suite: Suite, plans: list[SectionPlan], workers: int, k: int, executor: Executor | None
             ) -> Iterator[tuple[Task, FightRecord]]:
    """Every fight's record in canonical order."""
    seeds = fight_seeds(suite.seed, suite.fights)
    for si, members, job in jobs(suite, plans):
        plan = plans[si]
        index = {label: i for i, label in enumerate(plan.labels)}
        order = [(ci, s, pi) for ci in members for s in seeds for pi in range(len(plan.pairs))]
        tasks = [FightTask(members.index(ci), s, (index[plan.pairs[pi][0]], index[plan.pairs[pi][1]]))
                 for ci, s, pi in order]
        for (ci, s, pi), done in zip(order, iter_tasks(job, tasks, k=k, workers=workers, executor=executor),
                                     strict=True):
            if done.record is None:  # pragma: no cover - the job records
                raise RuntimeError("the fight runner returned no record for a recording job")
            yield (si, ci, pi, s), done.record


# ----- the parent's sums ----------------------------------------------------------------------------------
@dataclass(slots=True)
class SectionSums:
    plan: SectionPlan
    pairings: list[list[PairingResult]]  # [scenario][pairing]
    agents: dict[tuple[int, str, int], AgentTally]  # (scenario, label, seat)
    rater: SeatRatings


def play_suite(suite: Suite, workers: int | None = None, progress: bool = True, *, k: int = DEFAULT_K,
               executor: Executor | None = None) -> tuple[list[SectionSums], float, int]:
    """Play every fight of ``suite``: ``(per-section sums, seconds, workers asked for)``. ``workers`` processes
    (default one per core), ``k`` fights in lockstep or an ``executor`` (:mod:`npc_tactics.rollouts`) change
    no figure."""
    plans = [plan_section(suite, i) for i in range(len(suite.sections))]
    sums = [SectionSums(p, [[PairingResult(pair) for pair in p.pairs] for _ in p.arenas], {},
                        SeatRatings(p.labels)) for p in plans]
    total = sum(len(p.arenas) * len(p.pairs) for p in plans) * suite.fights
    workers = default_workers() if workers is None else max(1, int(workers))
    started = time.perf_counter()
    with progress_bar(total, f"leaderboard {suite.name}", progress) as advance:
        for (si, ci, pi, _), record in _records(suite, plans, workers, k, executor):
            box = sums[si]
            pairing = box.pairings[ci][pi]
            pairing.tally.add(record)
            box.rater.update(pairing.agents, record.results)
            for side, label in enumerate(pairing.agents):
                box.agents.setdefault((ci, label, side), AgentTally()).add(record, side)
            advance()
    return sums, time.perf_counter() - started, workers
