"""The shared engine protocol: catalogue building, IllegalActionError, options, events."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pytest

from npc_tactics.dice import ScriptedRoller
from npc_tactics.rules.base import (
    ActionCatalogue,
    Decision,
    DecisionKind,
    Engine,
    EventSink,
    IllegalActionError,
    Outcome,
    SideResult,
    Status,
    SystemSpec,
    ally_slots,
    enemy_slots,
    events_to_jsonl,
)


def test_catalogue_expands_targets_and_options() -> None:
    cat = ActionCatalogue.build([
        ("attack", [DecisionKind.ACT], "enemy", 2, []),
        ("split", [DecisionKind.SPLIT], None, 0, [0, 1, 2]),
        ("heal", [DecisionKind.ACT], "self", 0, []),
    ])
    assert cat.names == ["attack:enemy_0", "attack:enemy_1", "split:0", "split:1", "split:2", "heal:self"]
    assert cat.index("split:2") == 4 and cat[1].slot == 1 and cat[4].option == 2
    assert cat.indices("split") == [2, 3, 4]
    with pytest.raises(KeyError, match="split:9"):
        cat.index("split:9")


@dataclass
class _C:
    name: str
    side: int
    status: Status = Status.ACTIVE
    hp: int = 3
    max_hp: int = 3


@dataclass
class _S:
    combatants: list[_C]
    round: int = 1
    turn: int = 0
    log: list[int] = field(default_factory=list)

    def clone(self) -> _S:
        return _S([_C(**vars(c)) for c in self.combatants], self.round, self.turn, list(self.log))


class _CoinEngine(Engine[_S]):
    """A toy engine: each side in turn picks heads/tails; a d2 equal to the pick wounds the enemy."""

    catalogue = ActionCatalogue.build([("call", [DecisionKind.ACT], None, 0, ["heads", "tails"]),
                                       ("pass", [DecisionKind.ACT], None, 0, [])])
    spec = SystemSpec("coin", "Coin", "0", 2, 1, 3, 10, (DecisionKind.ACT,), {"bonus": 0, "mode": "a"})

    def _new_combat(self, scenario, sink):  # type: ignore[no-untyped-def]
        return _S([_C("a", 0), _C("b", 1)])

    def _enter(self, state: _S, sink: EventSink) -> None:
        pass  # a hand-built coin state always stands at a decision

    def pending(self, state: _S) -> Decision | None:
        if self.outcome(state) is not None:
            return None
        return Decision(state.turn, state.turn, DecisionKind.ACT, state.round)

    def legal_mask(self, state: _S, decision: Decision | None = None) -> np.ndarray:
        return np.array([True, True, False])

    def _apply(self, state: _S, decision: Decision, action: int, sink: EventSink) -> None:
        face = sink.die(2, "coin", decision.actor)
        if face - 1 == action:
            enemy = state.combatants[1 - decision.actor]
            enemy.hp -= 1
            sink.emit("damage", decision.actor, 1 - decision.actor, amount=1, result="hit")
        state.turn = 1 - state.turn

    def outcome(self, state: _S) -> Outcome | None:
        for c in state.combatants:
            if c.hp <= 0:
                win = 1 - c.side
                return Outcome(tuple(SideResult.WIN if s == win else SideResult.LOSS for s in (0, 1)), win,
                               state.round, "down")
        return None


def test_step_is_pure_unless_inplace_and_records_rolls() -> None:
    engine = _CoinEngine()
    s0, _ = engine.new_combat({}, ScriptedRoller([]))
    s1, events = engine.step(s0, 0, ScriptedRoller([1]))
    assert s0.combatants[1].hp == 3 and s1.combatants[1].hp == 2
    assert [e.kind for e in events] == ["roll", "damage"]
    assert events[0].data["faces"] == [1]
    s2, _ = engine.step(s1, 1, ScriptedRoller([1]), inplace=True)
    assert s2 is s1
    assert '"kind":"roll"' in events_to_jsonl(events)


def test_illegal_action_names_action_and_decision() -> None:
    engine = _CoinEngine()
    state, _ = engine.new_combat({}, ScriptedRoller([]))
    with pytest.raises(IllegalActionError, match=r"illegal action 2 \(pass\) at ACT decision of combatant 0"):
        engine.step(state, 2, ScriptedRoller([1]))
    with pytest.raises(IllegalActionError, match="outside the catalogue"):
        engine.step(state, 99, ScriptedRoller([1]))


def test_options_are_validated() -> None:
    assert _CoinEngine({"bonus": 2}).options == {"bonus": 2, "mode": "a"}
    with pytest.raises(ValueError, match="unknown coin rules option 'bnus'"):
        _CoinEngine({"bnus": 2})
    with pytest.raises(ValueError, match="expects int"):
        _CoinEngine({"bonus": "two"})


def test_slots_follow_side_order() -> None:
    cs = [_C("a", 0), _C("b", 1), _C("c", 0), _C("d", 1)]
    assert enemy_slots(cs, 2) == [1, 3]
    assert ally_slots(cs, 2) == [0]
