"""One fight between agents outside any environment: the unit of simulation and tournaments.

Paired seeds (STYLE.md §7): the dice come from ``RngRoller(np.random.default_rng(seed))`` and
nothing else, so two pairs of agents given the same seed roll from the same dice stream; each
agent's own randomness is a separate stream the caller spawns with :func:`agent_rngs`
(``np.random.SeedSequence(seed).spawn``), so an agent's choices never shift the dice of the other
side.
"""

from __future__ import annotations

import importlib
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import numpy as np

from npc_tactics.agents.base import Agent, Observation
from npc_tactics.dice import RngRoller
from npc_tactics.rules.base import Engine, Event, SideResult, Status

__all__ = [
    "NO_RESULT",
    "FightRecord",
    "ProfileFn",
    "agent_rngs",
    "event_result",
    "find_profile",
    "play_fight",
]

#: The result key of events whose data carries no result (rolls, movement ...).
NO_RESULT = "count"

#: Safety net against an engine that never ends a fight (engines cap rounds themselves).
MAX_DECISIONS = 200_000

ProfileFn = Callable[[Sequence[Event], Any, int], Mapping[str, Any]]


@dataclass(slots=True)
class FightRecord:
    """What one fight produced, per side (index = side).

    ``event_counts`` maps ``(side of the event's actor or -1, kind, result)`` to a count, where the
    result is :func:`event_result`. ``tactic_profile`` is the system's ``profile.tactic_profile``
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


@lru_cache(maxsize=32)
def _profile_for(module: str, system: str) -> ProfileFn | None:
    candidates = []
    package = module.rpartition(".")[0]
    if package:
        candidates.append(f"{package}.profile")
    candidates.append(f"npc_tactics.rules.{system}.profile")
    for name in candidates:
        try:
            mod = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name is not None and name.startswith(exc.name):
                continue  # the profile module (or its package) does not exist: no profile
            raise
        fn = getattr(mod, "tactic_profile", None)
        if callable(fn):
            return fn  # type: ignore[no-any-return]
    return None


def find_profile(engine: Engine[Any]) -> ProfileFn | None:
    """The system's ``tactic_profile(events, state, side)``: ``<engine package>.profile`` or
    ``npc_tactics.rules.<system>.profile``; ``None`` when the system ships none."""
    return _profile_for(type(engine).__module__, engine.spec.name)


def _side_of(state: Any, actor: int | None) -> int:
    if actor is None or not 0 <= actor < len(state.combatants):
        return -1
    return int(state.combatants[actor].side)


def _status_name(status: Any) -> str:
    try:
        return Status(int(status)).name.lower()
    except (TypeError, ValueError):
        return str(status).lower()


def play_fight(
    engine: Engine[Any],
    encoder: Any,
    scenario: Any,
    agents: Sequence[Agent],
    seed: int,
    *,
    keep_events: bool = False,
    profile: ProfileFn | None = None,
) -> FightRecord:
    """Play one fight to its end: side ``k`` is played by ``agents[k]``, dice from
    ``default_rng(seed)``.

    ``profile`` overrides the system's tactic-profile function (default: :func:`find_profile`).
    Raises ``RuntimeError`` if the engine stops without an outcome or exceeds :data:`MAX_DECISIONS`.
    """
    roller = RngRoller(np.random.default_rng(seed))
    start = getattr(scenario, "start_combat", None)  # a drawn encounter (npc_tactics.encounters) adds wear
    state, opening = start(engine, roller) if start is not None else engine.new_combat(scenario, roller)
    sides = max(int(engine.spec.sides), 1 + max(int(c.side) for c in state.combatants))
    if len(agents) != sides:
        raise ValueError(f"play_fight needs one agent per side ({sides}), got {len(agents)}")
    events: list[Event] = list(opening)
    decisions_per_side = [0] * sides
    actions: list[Counter[str]] = [Counter() for _ in range(sides)]
    decisions = 0
    outcome = engine.outcome(state)
    while outcome is None:
        decision = engine.pending(state)
        if decision is None:
            raise RuntimeError(
                f"{engine.spec.name} engine has no pending decision but no outcome either"
            )
        mask = engine.legal_mask(state, decision)
        obs = Observation(None, state, decision, engine, encoder)  # encoded only if the agent reads it
        action = int(agents[decision.side].act(obs, mask))
        actions[decision.side][
            engine.catalogue[action].verb if 0 <= action < len(engine.catalogue) else "?"
        ] += 1
        decisions_per_side[decision.side] += 1
        decisions += 1
        if decisions > MAX_DECISIONS:
            raise RuntimeError(
                f"fight with seed {seed} did not end after {MAX_DECISIONS} decisions"
            )
        state, step_events = engine.step(state, action, roller, inplace=True, mask=mask)
        events.extend(step_events)
        outcome = engine.outcome(state)

    counts: Counter[tuple[int, str, str]] = Counter()
    for e in events:
        counts[(_side_of(state, e.actor), e.kind, event_result(e))] += 1
    fn = profile if profile is not None else find_profile(engine)
    profiles = tuple(
        dict(fn(events, state, side)) if fn is not None else {} for side in range(sides)
    )
    statuses: list[Counter[str]] = [Counter() for _ in range(sides)]
    for c in state.combatants:
        statuses[int(c.side)][_status_name(c.status)] += 1
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
