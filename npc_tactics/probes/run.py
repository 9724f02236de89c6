"""Run probes: the agent's choice at each probe's situation against the best move found by brute force.

For every legal move, N rollouts of the rest of the fight (:func:`npc_tactics.rollouts.run_rollouts`: per-rollout
seeds, common random numbers across moves, any number of workers) under each of the probe's continuations give
the move's win rate and survival rate with Wilson 95% intervals. The best move is the one with the highest rate
on the probe's measure (ties: the lower catalogue index). The agent passes unless its move is clearly worse than
the best under the reference (first) continuation: the paired gap (best minus choice, rollout by rollout on the
same dice) has a 95% interval whose low end is above the probe's ``tolerance``. Survival is :data:`STANDING`: the
acting NPC ends the fight on its feet or away.

Why paired and not "within the best move's Wilson interval" (the rule until 2026-12-07): that interval shrinks
as rollouts grow, so a tie of two moves failed at 2,000 rollouts and passed at 200, and at 200 the best of eight
noisy moves was often a lucky one (the dice pool's ``split_the_pool`` named 4 dice best at 66% on seed 0, where
2,000 rollouts on three seeds give 58-60% to 5-7 dice and 55-58% to 4). The paired gap uses the common random
numbers the rollouts already have, and ``tolerance`` says in the probe file how near is near enough.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from npc_tactics.agents.base import Observation
from npc_tactics.configs.sniff import wrong_system_error
from npc_tactics.dice import RngRoller
from npc_tactics.errors import ConfigError
from npc_tactics.evaluation.stats import paired_gap
from npc_tactics.gm.advice.odds import Rate
from npc_tactics.gm.words.labels import labeler_of
from npc_tactics.plugin import System
from npc_tactics.probes.spec import AGENT, Continuation, Probe, ProbeFile
from npc_tactics.rollouts import Executor, RolloutJob, run_rollouts
from npc_tactics.rollouts.agents import agent_builder, check_spec

__all__ = ["STANDING", "ContinuationResult", "Gap", "MoveRates", "ProbeResult", "run_probe", "run_probe_file"]

#: The acting NPC's final statuses that count as surviving the fight: on its feet or away (not dead, unconscious
#: or incapacitated, which at the end of a lost fight leave it at the winners' mercy).
STANDING = frozenset({"active", "fled", "surrendered"})


@dataclass(frozen=True)
class MoveRates:
    action: int
    name: str
    label: str
    win: Rate
    survival: Rate
    rounds: float

    def rate(self, measure: str) -> Rate:
        return self.win if measure == "win" else self.survival

    def to_dict(self) -> dict[str, Any]:
        return {"action": self.action, "name": self.name, "label": self.label, "win": self.win.to_dict(),
                "survival": self.survival.to_dict(), "rounds": round(self.rounds, 2)}


@dataclass(frozen=True)
class Gap:
    """How far the agent's move lags the best move on the measure: the paired mean and its 95% interval."""

    mean: float
    low: float
    high: float

    def to_dict(self) -> dict[str, float]:
        return {"mean": round(self.mean, 4), "low": round(self.low, 4), "high": round(self.high, 4)}


@dataclass(frozen=True)
class ContinuationResult:
    continuation: Continuation
    moves: tuple[MoveRates, ...]
    best: int
    passed: bool
    gap: Gap = Gap(0.0, 0.0, 0.0)  #: best minus the agent's move, on the same rollouts

    def of(self, action: int) -> MoveRates:
        return next(m for m in self.moves if m.action == action)

    def to_dict(self) -> dict[str, Any]:
        return {"npc": self.continuation.npc, "other": self.continuation.other, "best": self.best,
                "passed": self.passed, "gap": self.gap.to_dict(), "moves": [m.to_dict() for m in self.moves]}


@dataclass(frozen=True)
class ProbeResult:
    file: str
    system: str
    name: str
    tactic: str
    why: str
    measure: str
    actor: str
    decision: str
    choice: int
    choice_name: str
    rollouts: int
    continuations: tuple[ContinuationResult, ...]
    changes_with_continuation: bool
    claimed_change: bool
    notes: tuple[str, ...] = field(default=())
    tolerance: int = 0  #: points the choice may lag the best by (the probe file's)

    @property
    def reference(self) -> ContinuationResult:
        return self.continuations[0]

    @property
    def passed(self) -> bool:
        return self.reference.passed

    @property
    def best(self) -> int:
        return self.reference.best

    def to_dict(self) -> dict[str, Any]:
        ref = self.reference
        return {"file": self.file, "system": self.system, "name": self.name, "tactic": self.tactic,
                "why": self.why, "measure": self.measure, "actor": self.actor, "decision": self.decision,
                "choice": {"action": self.choice, "name": self.choice_name}, "best": {
                    "action": ref.best, "name": ref.of(ref.best).name}, "passed": self.passed,
                "rollouts": self.rollouts, "tolerance": self.tolerance, "gap": ref.gap.to_dict(),
                "changes_with_continuation": self.changes_with_continuation,
                "file_says_changes": self.claimed_change, "notes": list(self.notes),
                "continuations": [c.to_dict() for c in self.continuations]}


def _choose(system: System, spec: str, engine: Any, encoder: Any, state: Any, decision: Any, seed: int) -> int:
    """The agent's move at the situation (scripted agents seeded like a fight's side 0 stream)."""
    rng = np.random.default_rng(np.random.SeedSequence(seed).spawn(1)[0])
    agent = agent_builder(system, spec)(engine, rng)
    mask = engine.legal_mask(state, decision)
    action = int(agent.act(Observation(None, state, decision, engine, encoder), mask))
    if not mask[action]:
        raise RuntimeError(f"{spec} chose {engine.catalogue.name(action)}, which is not legal here")
    return action


def _best(moves: tuple[MoveRates, ...], measure: str) -> int:
    return max(moves, key=lambda m: (m.rate(measure).rate, -m.action)).action


def _scores(runs: list[Any], measure: str) -> list[float]:
    """Rollout by rollout (in rollout order, so two moves' k-th scores share their dice), 1 when the measure
    holds (the side won; the actor stands), else 0."""
    ordered = sorted(runs, key=lambda r: r.index)
    if measure == "win":
        return [float(r.result == "win") for r in ordered]
    return [float(r.actor in STANDING) for r in ordered]


def _gap(runs: dict[int, list[Any]], measure: str, best: int, action: int) -> Gap:
    return Gap(*paired_gap(_scores(runs[best], measure), _scores(runs[action], measure)))


def _clearly_worse(gap: Gap, tolerance: int) -> bool:
    """The move lags the best by more than ``tolerance`` points, with 95% confidence."""
    return gap.low > tolerance / 100 + 1e-12


def run_probe(probe: Probe, agent: str, *, options: dict[str, Any] | None = None, rollouts: int = 200,
              seed: int = 0, workers: int | None = None, executor: Executor | None = None,
              lang: str = "en") -> ProbeResult:
    """Evaluate ``agent`` (a scripted name, a bundle or run folder, ``card:BUNDLE_DIR``) on ``probe``."""
    info = probe.plugin
    engine = info.load("engine")(dict(options or {}))
    content = info.load("content")
    notes: list[str] = []
    try:
        state = content.load_situation(engine, probe.situation, RngRoller(np.random.default_rng(seed)), notes=notes)
    except ConfigError as exc:
        if isinstance(probe.situation, dict):  # an inline situation: name the probe file and the field in it
            where = f"{probe.field}.situation" + (f".{exc.field}" if exc.field else "")
            raise ConfigError(probe.file, where, exc.message) from None
        raise wrong_system_error(exc, probe.situation, "situation", info.name, "the probe file is") from None
    decision = engine.pending(state)
    if decision is None:
        raise ConfigError(probe.file, f"{probe.field}.situation", "the fight described is already over")
    encoder = info.load("encoder")(engine)
    check_spec(info, agent)
    choice = _choose(info, agent, engine, encoder, state, decision, seed)
    legal = [int(a) for a in np.flatnonzero(engine.legal_mask(state, decision))]
    label = labeler_of(info, engine, lang)
    results: list[ContinuationResult] = []
    reference_gaps: list[Gap] = []  # per continuation: its best minus the reference's best
    for cont in probe.continuations:
        npc = agent if cont.npc == AGENT else cont.npc
        other = agent if cont.other == AGENT else cont.other
        sides = tuple(npc if s == decision.side else other for s in range(int(engine.spec.sides)))
        job = RolloutJob(engine, state, decision.actor, decision.side, sides)
        runs = run_rollouts(job, legal, rollouts, seed=seed, workers=workers, executor=executor)
        moves = tuple(MoveRates(a, engine.catalogue.name(a), label(state, decision, a),
                                Rate.of(sum(r.result == "win" for r in runs[a]), rollouts),
                                Rate.of(sum(r.actor in STANDING for r in runs[a]), rollouts),
                                sum(r.rounds for r in runs[a]) / rollouts) for a in legal)
        best = _best(moves, probe.measure)
        gap = _gap(runs, probe.measure, best, choice)
        results.append(ContinuationResult(cont, moves, best, not _clearly_worse(gap, probe.tolerance), gap))
        reference_gaps.append(_gap(runs, probe.measure, best, results[0].best))
    changes = any(_clearly_worse(g, probe.tolerance) for g in reference_gaps[1:])
    out_notes = []
    if changes != probe.changes_with_continuation:
        out_notes.append("the file says the best move " + ("changes" if probe.changes_with_continuation else
                         "does not change") + " with the continuation; these rollouts say it "
                         + ("does" if changes else "does not"))
    return ProbeResult(probe.file, info.name, probe.name, probe.tactic, probe.why, probe.measure,
                       state.combatants[decision.actor].name, decision.kind.name, choice,
                       engine.catalogue.name(choice), rollouts, tuple(results), changes,
                       probe.changes_with_continuation, tuple(out_notes), probe.tolerance)


def run_probe_file(probes: ProbeFile, agent: str, *, rollouts: int | None = None, seed: int | None = None,
                   workers: int | None = None, executor: Executor | None = None,
                   lang: str = "en") -> list[ProbeResult]:
    """Every probe of a file (``rollouts``/``seed`` default to the file's)."""
    return [run_probe(p, agent, options=probes.options, rollouts=rollouts or probes.rollouts,
                      seed=probes.seed if seed is None else seed, workers=workers, executor=executor, lang=lang)
            for p in probes.probes]
