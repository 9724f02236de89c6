"""A tiny rules system for the training tests: two sides trade d6 blows; ``defend`` makes hits
harder.

It fills every slot of the system registry (engine, encoder, agents, content) so the training code
can be exercised end to end without depending on a real engine's speed or balance. Registered as
``fake`` by ``conftest.py``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from npc_tactics.agents.base import AgentEntry, Observation, pick_first
from npc_tactics.encoders.base import Encoder
from npc_tactics.errors import ConfigError
from npc_tactics.rules.base import (
    ActionCatalogue,
    Decision,
    DecisionKind,
    Engine,
    EventSink,
    Outcome,
    SideResult,
    Status,
    SystemSpec,
    enemy_slots,
)

SCENARIOS = {
    "duel": ("one against one", [(0, "npc", 6), (1, "hero", 6)]),
    "pair": (
        "two against two",
        [(0, "npc_a", 5), (0, "npc_b", 5), (1, "hero_a", 5), (1, "hero_b", 5)],
    ),
}


@dataclass(slots=True)
class FakeCombatant:
    side: int
    name: str
    hp: int
    max_hp: int
    status: Status = Status.ACTIVE
    defending: bool = False

    def clone(self) -> FakeCombatant:
        return FakeCombatant(self.side, self.name, self.hp, self.max_hp, self.status, self.defending)


@dataclass(slots=True)
class FakeState:
    combatants: list[FakeCombatant]
    round: int = 1
    turn: int = 0
    done: bool = False
    history: list[int] = field(default_factory=list)

    def clone(self) -> FakeState:
        return FakeState(
            [c.clone() for c in self.combatants],
            self.round,
            self.turn,
            self.done,
            list(self.history),
        )


class FakeEngine(Engine[FakeState]):
    spec = SystemSpec("fake", "Fake duel", "0.1", 2, 2, 4, 12, (DecisionKind.ACT,), {"hit_on": 4})
    catalogue = ActionCatalogue.build(
        [
            ("attack", [DecisionKind.ACT], "enemy", 2, ()),
            ("defend", [DecisionKind.ACT], "self", 0, ()),
            ("flee", [DecisionKind.ACT], None, 0, ()),
        ]
    )

    def new_combat(self, scenario: Any, roller: Any) -> FakeState:
        state = FakeState([FakeCombatant(s, n, hp, hp) for s, n, hp in scenario["combatants"]])
        self._skip(state)
        return state

    def _skip(self, state: FakeState) -> None:
        n = len(state.combatants)
        for _ in range(n + 1):
            if state.combatants[state.turn].status == Status.ACTIVE:
                return
            self._next(state)

    def _next(self, state: FakeState) -> None:
        state.turn += 1
        if state.turn >= len(state.combatants):
            state.turn = 0
            state.round += 1

    def pending(self, state: FakeState) -> Decision | None:
        if self.outcome(state) is not None:
            return None
        c = state.combatants[state.turn]
        return Decision(state.turn, c.side, DecisionKind.ACT, state.round)

    def legal_mask(self, state: FakeState, decision: Decision | None = None) -> np.ndarray:
        decision = decision or self.pending(state)
        mask = np.zeros(len(self.catalogue), dtype=bool)
        if decision is None:
            return ~mask
        for k, idx in enumerate(enemy_slots(state.combatants, decision.actor)):
            mask[k] = state.combatants[idx].status == Status.ACTIVE
        mask[2] = mask[3] = True
        return mask

    def _apply(self, state: FakeState, decision: Decision, action: int, sink: EventSink) -> None:
        me = state.combatants[decision.actor]
        me.defending = False
        state.history.append(action)
        if action < 2:
            target = enemy_slots(state.combatants, decision.actor)[action]
            foe = state.combatants[target]
            need = self.options["hit_on"] + (1 if foe.defending else 0)
            if sink.die(6, "to hit", decision.actor, target) >= need:
                amount = sink.die(3, "damage", decision.actor, target)
                foe.hp -= amount
                sink.emit("damage", decision.actor, target, amount=amount)
                if foe.hp <= 0:
                    foe.status = Status.DEAD
                    sink.emit("death", target=target)
        elif action == 2:
            me.defending = True
        else:
            me.status = Status.FLED
            sink.emit("flee", decision.actor)
        self._next(state)
        self._skip(state)

    def outcome(self, state: FakeState) -> Outcome | None:
        active = [any(c.side == s and c.status == Status.ACTIVE for c in state.combatants) for s in (0, 1)]
        rounds = state.round
        if all(active) and rounds <= self.spec.max_rounds:
            return None
        if all(active):
            return Outcome((SideResult.DRAW, SideResult.DRAW), None, rounds - 1, "round cap")
        results = []
        for s in (0, 1):
            fled = any(c.side == s and c.status == Status.FLED for c in state.combatants)
            if active[s]:
                results.append(SideResult.WIN)
            else:
                results.append(SideResult.FLED if fled else SideResult.LOSS)
        winner = 0 if active[0] else (1 if active[1] else None)
        return Outcome(tuple(results), winner, rounds, "side out")


class FakeEncoder(Encoder):
    CONTEXT_FIELDS = (("round", "round / 12"),)
    COMBATANT_FIELDS = (
        ("present", "1 if the slot holds a combatant"),
        ("hp", "hp / max_hp"),
        ("active", "1 if active"),
        ("defending", "1 if defending"),
    )

    def context(self, state: Any, decision: Decision) -> list[float]:
        return [state.round / 12]

    def combatant(self, state: Any, decision: Decision, index: int) -> list[float]:
        c = state.combatants[index]
        return [1.0, c.hp / c.max_hp, float(c.status == Status.ACTIVE), float(c.defending)]


class ByTheBook:
    """Attacks the first active enemy, always."""

    name = "by-the-book"

    def __init__(self, engine: Any, rng: np.random.Generator) -> None:
        self.rng = rng

    def act(self, observation: Observation, mask: np.ndarray) -> int:
        choice = pick_first(mask, [0, 1, 2])
        return 3 if choice is None else choice


AGENTS = {"by-the-book": AgentEntry("by-the-book", "attacks the first active enemy", ByTheBook)}


def list_scenarios() -> list[tuple[str, str]]:
    return [(name, desc) for name, (desc, _) in SCENARIOS.items()]


def load_scenario(name: str) -> dict[str, Any]:
    if name not in SCENARIOS:
        raise ConfigError(name, "", "unknown fake scenario")
    return {"name": name, "combatants": SCENARIOS[name][1]}


def system_ready(name: str) -> bool:
    """True when every part of a system (engine, encoder, agents, content) imports: a system
    still being written by someone else is skipped rather than failed."""
    from npc_tactics.systems import SYSTEMS

    info = SYSTEMS.get(name)
    if info is None:
        return False
    try:
        for part in ("engine", "encoder", "agents", "content"):
            info.load(part)
    except (ImportError, AttributeError):
        return False
    return True
