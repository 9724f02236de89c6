"""The fake system's state, catalogue and round loop (see the package docstring for the rules)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

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
    read_only,
    side_outcome,
)

CATALOGUE = ActionCatalogue.build(
    [
        ("attack", [DecisionKind.ACT], "enemy", 2, ()),
        ("defend", [DecisionKind.ACT], "self", 0, ()),
        ("flee", [DecisionKind.ACT], "self", 0, ()),
    ]
)
MAX_ROUNDS = 20
DEFEND_BONUS = 2  # to-hit penalty against a defending target
MORALE = 8  # 2d6 <= MORALE passes


@dataclass(slots=True)
class Fighter:
    name: str
    side: int
    hp: int
    max_hp: int
    status: Status = Status.ACTIVE
    defending: bool = False

    def clone(self) -> Fighter:
        return Fighter(self.name, self.side, self.hp, self.max_hp, self.status, self.defending)


@dataclass(slots=True)
class FakeState:
    combatants: list[Fighter]
    round: int = 1
    turn: int = 0
    broken: list[bool] = field(default_factory=lambda: [False, False])
    ended: Outcome | None = None
    options: Mapping[str, Any] = field(default_factory=lambda: read_only({}))  #: resolved once, read-only

    def clone(self) -> FakeState:
        return FakeState([c.clone() for c in self.combatants], self.round, self.turn, list(self.broken), self.ended,
                         self.options)


class FakeEngine(Engine[FakeState]):
    spec = SystemSpec(
        name="fake",
        title="Fake duel system",
        version="0.1",
        sides=2,
        max_per_side=2,
        num_actions=len(CATALOGUE),
        max_rounds=MAX_ROUNDS,
        decision_kinds=(DecisionKind.ACT,),
        default_options={"hit_on": 11},
        max_decisions=4 * MAX_ROUNDS,
        option_ranges={"hit_on": (2, 20)},
    )
    catalogue = CATALOGUE

    def _new_combat(self, scenario: Any, sink: EventSink) -> FakeState:
        fighters = [Fighter(f["name"], side, f["hp"], f["hp"])
                    for side, members in enumerate(scenario["sides"]) for f in members]
        state = FakeState(fighters, options=self.resolve_options(scenario.get("options")))
        sink.round = state.round
        sink.emit("round_start")
        self._advance(state, sink)
        return state

    def _enter(self, state: FakeState, sink: EventSink) -> None:
        self._advance(state, sink)

    def pending(self, state: FakeState) -> Decision | None:
        if state.ended is not None:
            return None
        return Decision(state.turn, state.combatants[state.turn].side, DecisionKind.ACT, state.round)

    def legal_mask(self, state: FakeState, decision: Decision | None = None) -> np.ndarray:
        decision = decision or self.pending(state)
        mask = np.zeros(len(CATALOGUE), dtype=bool)
        if decision is None:
            mask[:] = True
            return mask
        for k, idx in enumerate(enemy_slots(state.combatants, decision.actor)):
            mask[CATALOGUE.index(f"attack:enemy_{k}")] = state.combatants[idx].status == Status.ACTIVE
        mask[CATALOGUE.index("defend:self")] = mask[CATALOGUE.index("flee:self")] = True
        return mask

    def _apply(self, state: FakeState, decision: Decision, action: int, sink: EventSink) -> None:
        spec = CATALOGUE[action]
        me = state.combatants[decision.actor]
        me.defending = False
        if spec.verb == "attack":
            self._attack(state, decision.actor, enemy_slots(state.combatants, decision.actor)[spec.slot], sink)
        elif spec.verb == "defend":
            me.defending = True
            sink.emit("defend", decision.actor)
        else:
            me.status = Status.FLED
            sink.emit("flee", decision.actor)
        state.turn += 1
        self._advance(state, sink)

    def _attack(self, state: FakeState, actor: int, target: int, sink: EventSink) -> None:
        t = state.combatants[target]
        face = sink.die(20, "attack", actor, target)
        need = state.options["hit_on"] + (DEFEND_BONUS if t.defending else 0)
        result = {20: "natural_20", 1: "natural_1"}.get(face, "hit" if face >= need else "miss")
        sink.emit("attack", actor, target, result=result)
        if result not in ("hit", "natural_20"):
            return
        damage = sink.roll("1d6", "damage", actor, target).total + (2 if face == 20 else 0)
        t.hp = max(0, t.hp - damage)
        sink.emit("damage", actor, target, amount=damage)
        if t.hp == 0:
            t.status = Status.DEAD
            sink.emit("death", None, target)
            self._morale(state, t.side, sink)

    def _morale(self, state: FakeState, side: int, sink: EventSink) -> None:
        if state.broken[side]:
            return
        state.broken[side] = True
        for i, c in enumerate(state.combatants):
            if c.side == side and c.status == Status.ACTIVE:
                passed = sink.roll("2d6", "morale", i).total <= MORALE
                sink.emit("morale", i, passed=passed)
                if not passed:
                    c.status = Status.FLED

    def _advance(self, state: FakeState, sink: EventSink) -> None:
        """Move the turn to the next active combatant, or end the fight."""
        while True:
            state.ended = self._check(state)
            if state.ended is not None:
                return
            if state.turn >= len(state.combatants):
                state.turn = 0
                state.round += 1
                sink.round = state.round
                sink.emit("round_start")
                continue
            if state.combatants[state.turn].status == Status.ACTIVE:
                return
            state.turn += 1

    def _check(self, state: FakeState) -> Outcome | None:
        if state.round > MAX_ROUNDS:
            return Outcome((SideResult.DRAW, SideResult.DRAW), None, MAX_ROUNDS, "max_rounds")
        return side_outcome(state.combatants, 2, state.round)

    def outcome(self, state: FakeState) -> Outcome | None:
        return state.ended
