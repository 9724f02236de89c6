"""The one fight runner: many fights, K at a time in lockstep (one batched network call per policy per step),
over any executor, with results that depend only on each fight's seed.

Every caller goes through here: the GM's odds per move and probes (fights from a state, after a forced move),
tournaments and leaderboards (fights from a scenario, recorded), encounter odds and the encounter builder
(fights from many candidate scenarios). The simple entry point is :func:`run_fights`; :func:`iter_tasks`
takes a :class:`FightJob` (starts and a roster of agent specs) and a list of :class:`FightTask` (which start,
which seed, which roster entry on each side) and yields the results in task order.

**A fight depends only on its task.** Its dice come from ``default_rng(seed)``, the agent of side ``s`` from
stream ``s`` of ``SeedSequence(seed).spawn(sides)`` (the paired-seed convention of ``evaluation.fight``), and
its policies' choices from rows computed independently of the batch (:mod:`npc_tactics.agents.lockstep`). So
the results are the same for any ``k``, any number of worker processes and any executor (tested, with scripted
agents and with a bundle).
"""

from __future__ import annotations

import uuid
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from npc_tactics.agents.lockstep import Fight, play_chunk
from npc_tactics.dice import RngRoller
from npc_tactics.plugin import System
from npc_tactics.rollouts.agents import AgentBuilder, agent_builder, check_spec
from npc_tactics.rollouts.deadline import check_deadline
from npc_tactics.rollouts.executors import Executor, default_workers, make_executor
from npc_tactics.rollouts.record import FightRecord, ProfileFn, build_record, status_name
from npc_tactics.rules.base import SideResult

__all__ = ["DEFAULT_K", "ENCOUNTER_SEED_BASE", "MAX_DECISIONS", "FightJob", "FightResult", "FightTask",
           "FromEncounter", "FromScenario", "FromState", "iter_tasks", "run_fights"]

#: Fights advanced together by default: wide enough that a network call serves many decisions, small enough
#: that two workers share a few hundred fights evenly.
DEFAULT_K = 64
#: Safety net against an engine that never ends a fight (engines cap rounds themselves).
MAX_DECISIONS = 200_000
#: A fight seeded ``s`` from a distribution draws its encounter with seed ``ENCOUNTER_SEED_BASE + s``: a stream
#: apart from its dice (``default_rng(s)``), above the training range ``[2**32, 2**33)`` the envs draw from and
#: the held-out seeds below it, so an evaluation never replays a training episode's or a held-out fight.
ENCOUNTER_SEED_BASE = 2**33


@dataclass(frozen=True)
class FromScenario:
    """Fights from the start of a loaded scenario (``engine.new_combat`` per fight, with the fight's dice)."""

    scenario: Any


@dataclass(frozen=True)
class FromState:
    """Fights from a state at a decision (cloned per fight); ``move``, if given, is played first (the move
    whose odds are asked) and counts as the fight's first decision."""

    state: Any
    move: int | None = None


@dataclass(frozen=True)
class FromEncounter:
    """Fights from drawn encounters (:mod:`npc_tactics.encounters`), each started by
    :meth:`~npc_tactics.encounters.generator.Encounter.start_combat` (wounds and spent resources applied, and
    the warm-up decisions of a mid-fight start played: a result's ``rounds`` then counts from the round it
    started in).

    Either ``spec``, a validated encounter distribution: the fight seeded ``s`` plays the encounter drawn with
    seed :data:`ENCOUNTER_SEED_BASE` ``+ s``; or ``fixed``, a held-out set: the fight seeded ``s`` plays
    ``fixed[s % len(fixed)]`` (consecutive seeds walk the set in order). Either way a fight's encounter depends
    on its seed alone, never on K, the workers or the other fights."""

    spec: Any = None
    fixed: tuple[Any, ...] = ()

    def __post_init__(self) -> None:
        if (self.spec is None) == (not self.fixed):
            raise ValueError("FromEncounter takes exactly one of spec (a distribution) or fixed (a held-out set)")

    @classmethod
    def distribution(cls, name: str, system: str | System) -> FromEncounter:
        """Fights drawn from the encounter distribution ``name`` (or YAML path) of ``system``."""
        from npc_tactics.encounters.spec import load_encounter

        return cls(spec=load_encounter(name, system))

    @classmethod
    def heldout(cls, system: str | System, distribution: str = "generalist") -> FromEncounter:
        """Fights of the shipped held-out set of ``system``'s ``distribution``."""
        from npc_tactics.encounters.heldout import load_heldout

        return cls(fixed=tuple(load_heldout(system, distribution)))

    @property
    def system(self) -> str:
        return str(self.spec.system if self.spec is not None else self.fixed[0].system)


Start = FromScenario | FromState | FromEncounter


@dataclass(frozen=True, slots=True)
class FightTask:
    """One fight: ``start`` indexes the job's starts, ``seats[side]`` its roster of agent specs."""

    start: int
    seed: int
    seats: tuple[int, ...]


@dataclass(frozen=True)
class FightJob:
    """Everything a worker needs (picklable): the engine, the starts, the roster of agent specs (scripted
    names, bundle folders, run folders, ``card:BUNDLE_DIR``), whether to record each fight's events into a
    :class:`~npc_tactics.rollouts.record.FightRecord` (``keep_events`` keeps the log itself too) and the
    tactic-profile function of those records (default: the system's)."""

    engine: Any
    starts: tuple[Start, ...]
    roster: tuple[str, ...]
    record: bool = False
    keep_events: bool = False
    profile: ProfileFn | None = None
    key: str = field(default_factory=lambda: uuid.uuid4().hex)

    @property
    def plugin(self) -> System:
        """The system of the job's engine."""
        return engine_system(self.engine)


def engine_system(engine: Any) -> System:
    """The registered system of ``engine`` (its ``spec.name``): the one place an engine's system is looked up
    here (a job travels to workers with its engine, not its System)."""
    from npc_tactics.registry import get_system

    return get_system(engine.spec.name)


@dataclass(frozen=True, slots=True)
class FightResult:
    """How one fight ended. ``results[side]`` is ``win``/``loss``/``draw``/``fled``; ``rounds`` the rounds
    played counting the one it started in; ``end_round`` the engine's round count at the end; ``statuses`` and
    ``sides`` give each combatant's final status name and side; ``record`` is the full record when the job
    records."""

    task: int
    start: int
    seed: int
    seats: tuple[int, ...]
    results: tuple[str, ...]
    winner: int | None
    rounds: int
    end_round: int
    reason: str
    decisions: int
    statuses: tuple[str, ...]
    sides: tuple[int, ...]
    record: FightRecord | None = None

    def dead(self, side: int) -> int:
        """How many combatants of ``side`` died."""
        return sum(1 for st, s in zip(self.statuses, self.sides, strict=True) if s == side and st == "dead")


class Runner:
    """A job with its agents built once per process."""

    def __init__(self, job: FightJob) -> None:
        self.job = job
        plugin = job.plugin
        system = plugin.name
        self.builders: list[AgentBuilder] = [agent_builder(plugin, spec) for spec in job.roster]
        self.encoder = plugin.load("encoder")(job.engine)
        self.generators: dict[int, Any] = {}
        for i, start in enumerate(job.starts):
            if isinstance(start, FromEncounter):
                if start.system != system:
                    raise ValueError(f"start {i} draws {start.system} encounters for a {system} engine")
                if start.spec is not None:
                    from npc_tactics.encounters.generator import Generator

                    self.generators[i] = Generator(start.spec)

    def encounter(self, index: int, seed: int) -> Any:
        """The encounter the fight seeded ``seed`` from start ``index`` (a :class:`FromEncounter`) plays."""
        gen = self.generators.get(index)
        if gen is not None:
            return gen.draw(ENCOUNTER_SEED_BASE + seed)
        start = self.job.starts[index]
        assert isinstance(start, FromEncounter)
        return start.fixed[seed % len(start.fixed)]

    def chunk(self, tasks: Sequence[tuple[int, FightTask]]) -> list[FightResult]:
        """Play the fights ``(task number, task)`` of one chunk in lockstep."""
        job, engine = self.job, self.job.engine
        record = job.record
        fights: list[Fight] = []
        for number, task in tasks:
            roller = RngRoller(np.random.default_rng(task.seed))
            start = job.starts[task.start]
            events: list[Any] = []
            decisions = 0
            if isinstance(start, FromScenario):
                state, opening = engine.new_combat(start.scenario, roller, record_rolls=record)
                events.extend(opening)
                first_round = 1
            elif isinstance(start, FromEncounter):
                drawn = self.encounter(task.start, task.seed)
                state, opening = drawn.start_combat(engine, roller, record_rolls=record)
                events.extend(opening)
                # a mid-fight start (warm-up decisions played) counts its rounds from the one it starts in
                first_round = int(getattr(state, "round", 1)) if drawn.warmup else 1
            else:
                state = engine.clone(start.state)
                first_round = int(getattr(state, "round", 1))
            sides = max(int(engine.spec.sides), 1 + max(int(c.side) for c in state.combatants))
            if len(task.seats) != sides:
                raise ValueError(f"a fight needs one agent per side ({sides}), got {len(task.seats)}")
            rngs = [np.random.default_rng(s) for s in np.random.SeedSequence(task.seed).spawn(sides)]
            agents = [self.builders[i](engine, r) for i, r in zip(task.seats, rngs, strict=True)]
            fight = Fight(task.start, number, task.seed, state, roller, agents, first_round)
            if record:
                fight.events, fight.per_side, fight.actions = events, [0] * sides, [Counter() for _ in range(sides)]
            if isinstance(start, FromState) and start.move is not None:
                decision = engine.pending(state)
                if record:
                    assert fight.per_side is not None and fight.actions is not None
                    fight.per_side[decision.side] += 1
                    fight.actions[decision.side][engine.catalogue[start.move].verb] += 1
                fight.state, step_events = engine.step(state, start.move, roller, inplace=True,
                                                       record_rolls=record)
                if record:
                    events.extend(step_events)
                decisions = 1
            fight.decisions = decisions
            fights.append(fight)
        play_chunk(engine, self.encoder, fights, MAX_DECISIONS, record=record)
        return [self._result(f, tasks[i][1]) for i, f in enumerate(fights)]

    def _result(self, f: Fight, task: FightTask) -> FightResult:
        engine = self.job.engine
        outcome = engine.outcome(f.state)
        record = None
        if self.job.record:
            assert f.events is not None and f.per_side is not None and f.actions is not None
            record = build_record(engine, f.state, f.events, f.agents, f.seed, decisions=f.decisions,
                                  decisions_per_side=f.per_side, actions=f.actions,
                                  keep_events=self.job.keep_events, profile=self.job.profile)
        combatants = f.state.combatants
        return FightResult(
            f.index, task.start, f.seed, task.seats, tuple(SideResult(int(r)).name.lower() for r in outcome.results),
            outcome.winner, max(1, int(outcome.rounds) - f.start + 1), int(outcome.rounds), str(outcome.reason),
            f.decisions, tuple(status_name(c.status) for c in combatants), tuple(int(c.side) for c in combatants),
            record)


#: job key -> its runner, in each process that set the job up.
_RUNNERS: dict[str, Runner] = {}


def setup_job(job: FightJob) -> None:
    """A worker's setup: build the job's agents once."""
    if job.key not in _RUNNERS:
        _RUNNERS[job.key] = Runner(job)


def run_chunk(chunk: tuple[str, list[tuple[int, FightTask]]]) -> list[FightResult]:
    """Play one chunk in the worker that set its job up."""
    key, tasks = chunk
    runner = _RUNNERS.get(key)
    if runner is None:  # pragma: no cover - an executor always runs the setup first
        raise RuntimeError("a fight chunk reached a worker whose job was never set up")
    return runner.chunk(tasks)


def iter_tasks(job: FightJob, tasks: Sequence[FightTask], *, k: int = DEFAULT_K, workers: int | None = None,
               executor: Executor | None = None) -> Iterator[FightResult]:
    """Play ``tasks`` and yield their results in task order, a chunk at a time (constant memory for the
    caller). At most ``k`` fights per chunk, fewer so that every worker has a share; ``workers`` processes
    (default one per core) unless ``executor`` is given. None of these change any result."""
    if k < 1:
        raise ValueError(f"k (fights in lockstep) must be at least 1, got {k}")
    plugin = job.plugin
    for spec in job.roster:
        check_spec(plugin, spec)
    for t in tasks:
        if not 0 <= t.start < len(job.starts) or any(not 0 <= s < len(job.roster) for s in t.seats):
            raise ValueError(f"task {t} names a start or roster entry the job does not have")
    numbered = list(enumerate(tasks))
    if not numbered:
        return
    share = getattr(executor, "workers", None) if executor is not None else workers
    share = default_workers() if not isinstance(share, int) or share < 1 else share
    size = max(1, min(k, -(-len(numbered) // share)))
    chunks = [(job.key, numbered[i:i + size]) for i in range(0, len(numbered), size)]
    chosen = make_executor(workers, executor, len(chunks))
    try:
        with chosen.session(setup_job, job) as pool:
            for part in pool.map(run_chunk, chunks):
                check_deadline()
                yield from part
    finally:
        _RUNNERS.pop(job.key, None)


def run_fights(system: str | Any, source: Any, agents: Sequence[str], seeds: Sequence[int], *,
               k: int = DEFAULT_K, workers: int | None = None, executor: Executor | None = None,
               options: dict[str, Any] | None = None, record: bool = False, keep_events: bool = False,
               profile: ProfileFn | None = None) -> list[FightResult]:
    """One fight per seed from ``source``, side ``s`` played by ``agents[s]``; result ``i`` is seed ``i``'s.

    ``system``: a system name (built with ``options``) or an engine. ``source``: a scenario name or YAML path
    of the system, a loaded scenario, :class:`FromScenario`, :class:`FromState` or :class:`FromEncounter`.
    ``agents``: scripted names,
    bundle folders, run folders or ``card:BUNDLE_DIR``. ``k`` fights in lockstep per chunk, ``workers``
    processes (default one per core) or any ``executor`` (:mod:`.executors`); the results do not depend on
    them. ``record``: also build each fight's :class:`~npc_tactics.rollouts.record.FightRecord`."""
    from npc_tactics.registry import get_system

    engine = get_system(system).load("engine")(dict(options or {})) if isinstance(system, str) else system
    if isinstance(source, str):
        source = engine_system(engine).load("content").load_scenario(source)
    start = source if isinstance(source, FromScenario | FromState | FromEncounter) else FromScenario(source)
    roster = tuple(agents)
    job = FightJob(engine, (start,), roster, record=record, keep_events=keep_events, profile=profile)
    tasks = [FightTask(0, int(s), tuple(range(len(roster)))) for s in seeds]
    return list(iter_tasks(job, tasks, k=k, workers=workers, executor=executor))
