"""Fights played with one side watched decision by decision: what the tactics measurements read.

The watched side's agent is wrapped by a :class:`Watcher` that, before answering each decision, writes one
:class:`Move` from the state the agent sees (public fields only: hit points, side, status, round): who
decides, what kind, the action chosen, the actor's wound level, and for an action aimed at an enemy, the
combatants the same verb could have aimed at and their wound levels. The rest comes from
:func:`~npc_tactics.evaluation.fight.play_fight` (paired seeds, the event log, the system's tactic profile) and
the final state (each combatant's status). Nothing here knows a system's rules: the verbs that mean
"attack" or "leave" and the extra facts of a decision come from the system's tactics hook
(:class:`~npc_tactics.evaluation.tactics.hooks.Tactics`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from npc_tactics.agents.base import Agent, AgentFactory, Observation
from npc_tactics.evaluation.arena import Arena, fight_seeds
from npc_tactics.evaluation.fight import FightRecord, ProfileFn, agent_rngs, find_profile, play_fight
from npc_tactics.evaluation.tactics.hooks import DecisionFacts
from npc_tactics.rules.base import DecisionKind, Event, Status, enemy_slots

__all__ = ["Extra", "FightLog", "Move", "Watcher", "hp_fraction", "play_watched"]

#: a system's extra facts about a decision, read from the state before it (its tactics hook's ``decision_facts``)
Extra = DecisionFacts


def hp_fraction(c: Any) -> float:
    """Hit points left as a share of the maximum (0 when down, clipped to [0, 1])."""
    top = float(getattr(c, "max_hp", 0) or 0)
    return 0.0 if top <= 0 else min(1.0, max(0.0, float(c.hp) / top))


@dataclass(slots=True)
class Move:
    """One decision of the watched side. ``target`` is the combatant index an enemy-aimed action names (else
    None); ``options`` the enemies the same verb (and option) could name at that decision, with their HP share."""

    round: int
    actor: int
    kind: DecisionKind
    action: int
    name: str
    verb: str
    hp: float
    target: int | None = None
    options: dict[int, float] = field(default_factory=dict)
    context: dict[str, Any] = field(default_factory=dict)


@dataclass(slots=True)
class FightLog:
    """One watched fight: its record (results, events, profile), the watched side's moves, the final status
    and side of every combatant."""

    side: int
    record: FightRecord
    moves: list[Move]
    status: list[Status]
    sides: list[int]
    max_hp: list[float]

    @property
    def events(self) -> list[Event]:
        return self.record.events or []

    @property
    def result(self) -> str:
        return self.record.results[self.side]


class Watcher:
    """Wraps an agent: same moves, each one written down as a :class:`Move` first."""

    def __init__(self, agent: Agent, extra: Extra | None = None) -> None:
        self.agent = agent
        self.name = str(getattr(agent, "name", "agent"))
        self.moves: list[Move] = []
        self.extra = extra

    def act(self, observation: Observation, mask: np.ndarray) -> int:
        action = int(self.agent.act(observation, mask))
        move = _move(observation, mask, action)
        if self.extra is not None:
            move.context.update(self.extra(observation.state, observation.decision))
        self.moves.append(move)
        return action


def _move(observation: Observation, mask: np.ndarray, action: int) -> Move:
    state, decision, cat = observation.state, observation.decision, observation.engine.catalogue
    spec = cat[action]
    cs = state.combatants
    move = Move(int(getattr(state, "round", 0)), int(decision.actor), decision.kind, action, spec.name, spec.verb,
                hp_fraction(cs[decision.actor]), context=dict(decision.context or {}))
    if spec.target == "enemy" and spec.slot >= 0:
        slots = enemy_slots(cs, decision.actor)
        if spec.slot < len(slots):
            move.target = slots[spec.slot]
        siblings = _siblings(cat)[(spec.verb, repr(spec.option))]  # the same verb and option at each slot
        for k, idx in enumerate(slots):
            a = siblings.get(k)
            if a is not None and mask[a]:
                move.options[idx] = hp_fraction(cs[idx])
    return move


_SIBLINGS: dict[int, dict[tuple[str, str], dict[int, int]]] = {}


def _siblings(cat: Any) -> dict[tuple[str, str], dict[int, int]]:
    """``(verb, option) -> {enemy slot: action index}`` of a catalogue (built once per catalogue)."""
    table = _SIBLINGS.get(id(cat))
    if table is None:
        table = {}
        for sp in cat:
            if sp.target == "enemy" and sp.slot >= 0:
                table.setdefault((sp.verb, repr(sp.option)), {})[sp.slot] = sp.index
        _SIBLINGS[id(cat)] = table
    return table


def play_watched(
    arena: Arena,
    watched: Agent | AgentFactory,
    opponent: AgentFactory,
    side: int,
    fights: int,
    seed: int = 0,
    extra: Extra | None = None,
) -> list[FightLog]:
    """Play ``fights`` paired-seed fights (``seed..``) with ``watched`` on ``side`` and ``opponent`` on the other
    side(s); the watched agent is a ready agent (a policy) or a factory rebuilt per fight with that side's
    stream (a scripted agent), so a scripted and a trained agent meet the same dice and the same opponents."""
    logs: list[FightLog] = []
    system_profile = find_profile(arena.engine)
    for s in fight_seeds(seed, fights):
        rngs = agent_rngs(s, arena.sides)
        me = watched if isinstance(watched, Agent) and not isinstance(watched, type) else watched(arena.engine,
                                                                                                   rngs[side])
        watcher = Watcher(me, extra)
        agents: list[Agent] = [watcher if k == side else opponent(arena.engine, rngs[k]) for k in range(arena.sides)]
        final: dict[str, Any] = {}
        rec = play_fight(arena.engine, arena.encoder, arena.scenario, agents, s, keep_events=True,
                         profile=_capturing(system_profile, final))
        state = final["state"]
        logs.append(FightLog(side, rec, watcher.moves, [Status(int(c.status)) for c in state.combatants],
                             [int(c.side) for c in state.combatants],
                             [float(getattr(c, "max_hp", 0) or 0) for c in state.combatants]))
    return logs


def _capturing(profile: ProfileFn | None, into: dict[str, Any]) -> ProfileFn:
    """The system's tactic profile, also keeping the final state (for each combatant's status)."""

    def fn(events: list[Event], state: Any, side: int) -> Mapping[str, Any]:
        into["state"] = state
        return profile(events, state, side) if profile is not None else {}

    return fn
