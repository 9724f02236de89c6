"""What a fight played with its event log produced: the :class:`FightRecord` simulations, tournaments and
leaderboards sum. Built here, next to the lockstep player, so fights recorded in a worker process come back as
the same records a single in-process fight gives (``evaluation.fight`` re-exports these names).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from npc_tactics.registry import SYSTEMS
from npc_tactics.rules.base import Engine, Event, SideResult, status_name

__all__ = ["NO_RESULT", "FightRecord", "ProfileFn", "agent_rngs", "build_record", "event_result", "find_profile",
           "status_name"]

#: The result key of events whose data carries no result (rolls, movement ...).
NO_RESULT = "count"

#: a tactic profile ``(events, state, side) -> counts``; the events are the fight's list (the compiled
#: ``rules/<system>/profile.py`` functions check for a list at the call)
ProfileFn = Callable[[list[Event], Any, int], Mapping[str, Any]]


@dataclass(slots=True)
class FightRecord:
    """What one fight produced, per side (index = side).

    ``event_counts`` maps ``(side of the event's actor or -1, kind, result)`` to a count, where the
    result is :func:`event_result`. ``tactic_profile`` is the system's tactic profile (:func:`find_profile`)
    per side (empty when the system has none); ``actions`` counts the action verbs each side chose,
    for every system."""

    seed: int
    agents: tuple[str, ...]
    results: tuple[str, ...]
    winner: int | None
    rounds: int
    reason: str
    decisions: int
    decisions_per_side: tuple[int, ...]
    event_counts: dict[tuple[int, str, str], int]
    actions: tuple[dict[str, int], ...]
    tactic_profile: tuple[dict[str, Any], ...]
    statuses: tuple[dict[str, int], ...]
    events: list[Event] | None = field(default=None, repr=False)

    def result(self, side: int) -> str:
        return self.results[side]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready view (event counts nested ``{side: {kind: {result: n}}}``, no raw events)."""
        nested: dict[str, dict[str, dict[str, int]]] = {}
        for (side, kind, result), n in sorted(self.event_counts.items()):
            nested.setdefault(str(side), {}).setdefault(kind, {})[result] = n
        return {
            "seed": self.seed,
            "agents": list(self.agents),
            "results": list(self.results),
            "winner": self.winner,
            "rounds": self.rounds,
            "reason": self.reason,
            "decisions": self.decisions,
            "decisions_per_side": list(self.decisions_per_side),
            "event_counts": nested,
            "actions": [dict(a) for a in self.actions],
            "tactic_profile": [dict(p) for p in self.tactic_profile],
            "statuses": [dict(s) for s in self.statuses],
        }


def agent_rngs(seed: int, sides: int) -> list[np.random.Generator]:
    """One generator per side for the agents of a fight seeded ``seed`` (independent of the dice
    stream)."""
    return [np.random.default_rng(s) for s in np.random.SeedSequence(seed).spawn(sides)]


def event_result(event: Event) -> str:
    """The result an event is counted under: ``data["result"]`` (a bool becomes
    ``success``/``failure``), else ``passed``/``failed`` from a boolean ``data["passed"]``, else
    ``hit``/``miss`` from a boolean ``data["hit"]``, else :data:`NO_RESULT`."""
    data = event.data
    if "result" in data and data["result"] is not None:
        value = data["result"]
        if isinstance(value, bool):
            return "success" if value else "failure"
        return str(value)
    passed = data.get("passed")
    if isinstance(passed, bool):
        return "passed" if passed else "failed"
    hit = data.get("hit")
    if isinstance(hit, bool):
        return "hit" if hit else "miss"
    return NO_RESULT


def find_profile(engine: Engine[Any]) -> ProfileFn | None:
    """The system's ``tactic_profile(events, state, side)``: the ``profile`` of its tactics hook
    (:class:`~npc_tactics.evaluation.tactics.hooks.Tactics`); ``None`` when the system ships none or the
    engine's system is not registered (an engine used on its own through the Python API)."""
    system = SYSTEMS.get(engine.spec.name)
    hooks = system.tactics_hooks() if system is not None else None
    return hooks.profile if hooks is not None else None


def _side_of(state: Any, actor: int | None) -> int:
    if actor is None or not 0 <= actor < len(state.combatants):
        return -1
    return int(state.combatants[actor].side)


def build_record(engine: Engine[Any], state: Any, events: list[Event], agents: Sequence[Any], seed: int, *,
                 decisions: int, decisions_per_side: Sequence[int], actions: Sequence[Counter[str]],
                 keep_events: bool, profile: ProfileFn | None) -> FightRecord:
    """The record of a finished fight from its final state and full event log."""
    outcome = engine.outcome(state)
    if outcome is None:
        raise RuntimeError("build_record needs a finished fight")
    sides = len(decisions_per_side)
    counts: Counter[tuple[int, str, str]] = Counter()
    for e in events:
        counts[(_side_of(state, e.actor), e.kind, event_result(e))] += 1
    fn = profile if profile is not None else find_profile(engine)
    profiles = tuple(dict(fn(events, state, side)) if fn is not None else {} for side in range(sides))
    statuses: list[Counter[str]] = [Counter() for _ in range(sides)]
    for c in state.combatants:
        statuses[int(c.side)][status_name(c.status)] += 1
    return FightRecord(
        seed=int(seed),
        agents=tuple(str(getattr(a, "name", type(a).__name__)) for a in agents),
        results=tuple(SideResult(int(r)).name.lower() for r in outcome.results),
        winner=outcome.winner,
        rounds=int(outcome.rounds),
        reason=str(outcome.reason),
        decisions=decisions,
        decisions_per_side=tuple(decisions_per_side),
        event_counts=dict(counts),
        actions=tuple(dict(a) for a in actions),
        tactic_profile=profiles,
        statuses=tuple(dict(s) for s in statuses),
        events=events if keep_events else None,
    )
