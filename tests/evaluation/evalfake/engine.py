"""Fake duel engine: each active combatant in turn attacks (d20 >= hit_on), holds or flees.

Attack results are exclusive: ``natural_20`` (hit, +2 damage), ``natural_1`` (miss), ``hit`` or
``miss``. At a side's first death every survivor of that side checks morale (2d6 <= 8 passes;
failing flees).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from npc_tactics.encoders.base import Encoder
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

CATALOGUE = ActionCatalogue.build(
    [
        ("attack", [DecisionKind.ACT], "enemy", 2, ()),
        ("hold", [DecisionKind.ACT], None, 0, ()),
        ("flee", [DecisionKind.ACT], "self", 0, ()),
    ]
)
MAX_ROUNDS = 20


@dataclass(slots=True)
class Fighter:
    name: str
    side: int
    hp: int
    max_hp: int
    status: Status = Status.ACTIVE

    def clone(self) -> Fighter:
        return Fighter(self.name, self.side, self.hp, self.max_hp, self.status)


@dataclass(slots=True)
class FakeState:
    combatants: list[Fighter]
    round: int = 1
    turn: int = 0
    broken: list[bool] = field(default_factory=lambda: [False, False])
    ended: Outcome | None = None

    def clone(self) -> FakeState:
        return FakeState(
            [c.clone() for c in self.combatants],
            self.round,
            self.turn,
            list(self.broken),
            self.ended,
        )


class FakeEngine(Engine[FakeState]):
    spec = SystemSpec(
        name="evalfake",
        title="Fake",
        version="0",
        sides=2,
        max_per_side=2,
        num_actions=len(CATALOGUE),
        max_rounds=MAX_ROUNDS,
        decision_kinds=(DecisionKind.ACT,),
        default_options={"hit_on": 11},
    )
    catalogue = CATALOGUE

    def new_combat(self, scenario: Any, roller: Any) -> FakeState:
        fighters = [
            Fighter(f["name"], side, f["hp"], f["hp"])
            for side, members in enumerate(scenario["sides"])
            for f in members
        ]
        state = FakeState(fighters)
        self._advance(state, start=True)
        return state

    def pending(self, state: FakeState) -> Decision | None:
        if state.ended is not None:
            return None
        c = state.combatants[state.turn]
        return Decision(state.turn, c.side, DecisionKind.ACT, state.round)

    def legal_mask(self, state: FakeState, decision: Decision | None = None) -> np.ndarray:
        decision = decision or self.pending(state)
        mask = np.zeros(len(CATALOGUE), dtype=bool)
        if decision is None:
            mask[:] = True
            return mask
        for k, idx in enumerate(enemy_slots(state.combatants, decision.actor)):
            if state.combatants[idx].status == Status.ACTIVE:
                mask[CATALOGUE.index(f"attack:enemy_{k}")] = True
        mask[CATALOGUE.index("hold")] = True
        mask[CATALOGUE.index("flee:self")] = True
        return mask

    def _apply(self, state: FakeState, decision: Decision, action: int, sink: EventSink) -> None:
        spec = CATALOGUE[action]
        me = state.combatants[decision.actor]
        if spec.verb == "attack":
            target = enemy_slots(state.combatants, decision.actor)[spec.slot]
            face = sink.die(20, "attack", decision.actor, target)
            if face == 20:
                result = "natural_20"
            elif face == 1:
                result = "natural_1"
            else:
                result = "hit" if face >= self.options["hit_on"] else "miss"
            sink.emit("attack", decision.actor, target, result=result)
            if result in ("hit", "natural_20"):
                dmg = sink.roll("1d6", "damage", decision.actor, target).total + (
                    2 if face == 20 else 0
                )
                t = state.combatants[target]
                t.hp = max(0, t.hp - dmg)
                sink.emit("damage", decision.actor, target, amount=dmg)
                if t.hp == 0:
                    t.status = Status.DEAD
                    sink.emit("death", None, target)
                    self._morale(state, t.side, sink)
        elif spec.verb == "flee":
            me.status = Status.FLED
            sink.emit("flee", decision.actor)
        else:
            sink.emit("hold", decision.actor)
        state.turn += 1
        self._advance(state, start=False, sink=sink)

    def _morale(self, state: FakeState, side: int, sink: EventSink) -> None:
        if state.broken[side]:
            return
        state.broken[side] = True
        for i, c in enumerate(state.combatants):
            if c.side == side and c.status == Status.ACTIVE:
                passed = sink.roll("2d6", "morale", i).total <= 8
                sink.emit("morale", i, passed=passed)
                if not passed:
                    c.status = Status.FLED

    def _advance(self, state: FakeState, start: bool, sink: EventSink | None = None) -> None:
        while True:
            state.ended = self._check(state)
            if state.ended is not None:
                return
            if state.turn >= len(state.combatants):
                state.turn = 0
                state.round += 1
                if sink is not None:
                    sink.round = state.round
                    sink.emit("round_start")
                continue
            if state.combatants[state.turn].status == Status.ACTIVE:
                return
            state.turn += 1

    def _check(self, state: FakeState) -> Outcome | None:
        active = [
            any(c.side == s and c.status == Status.ACTIVE for c in state.combatants) for s in (0, 1)
        ]
        if state.round > MAX_ROUNDS:
            return Outcome((SideResult.DRAW, SideResult.DRAW), None, MAX_ROUNDS, "round cap")
        if all(active):
            return None
        if not any(active):
            return Outcome((SideResult.DRAW, SideResult.DRAW), None, state.round, "no one left")

        def gone(side: int) -> SideResult:
            fled = any(c.side == side and c.status == Status.FLED for c in state.combatants)
            return SideResult.FLED if fled else SideResult.LOSS

        if active[0]:
            return Outcome((SideResult.WIN, gone(1)), 0, state.round, "side 1 out")
        return Outcome((gone(0), SideResult.WIN), 1, state.round, "side 0 out")

    def outcome(self, state: FakeState) -> Outcome | None:
        return state.ended


class FakeEncoder(Encoder):
    CONTEXT_FIELDS = (("round", "round / 20"),)
    COMBATANT_FIELDS = (("present", "1 if the slot is filled"), ("hp", "hp / max hp"))

    def context(self, state: Any, decision: Decision) -> list[float]:
        return [state.round / MAX_ROUNDS]

    def combatant(self, state: Any, decision: Decision, index: int) -> list[float]:
        c = state.combatants[index]
        return [1.0, c.hp / c.max_hp]
