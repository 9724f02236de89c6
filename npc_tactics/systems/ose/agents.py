"""Scripted OSE agents: aggressive, by-the-book and cautious (contract §6).

They read ``observation.state`` (public fields of :class:`~npc_tactics.systems.ose.rules.state.OSEState`),
``observation.decision`` and the mask, break ties between equally good targets with their own ``rng``, and
always return a legal action (falling back to the first legal one).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from npc_tactics.agents.base import AgentEntry, Observation
from npc_tactics.rules.base import DecisionKind, Status
from npc_tactics.systems.ose.rules import actions as A
from npc_tactics.systems.ose.rules.state import OSEState
from npc_tactics.systems.ose.rules.tables import SLEEP_RADIUS, SPELL_NAMES

MM, SLEEP, HOLD, CLW = (
    SPELL_NAMES.index(s) for s in ("magic_missile", "sleep", "hold_person", "cure_light_wounds")
)


class _Base:
    name = "base"

    def __init__(self, engine: Any = None, rng: np.random.Generator | None = None) -> None:
        self.rng = rng if rng is not None else np.random.default_rng(0)

    # ----- helpers over public state --------------------------------------------------------------
    def _slots(self, mask: np.ndarray, first: int, n: int = A.MAX_PER_SIDE) -> list[int]:
        return [k for k in range(n) if mask[first + k]]

    def _pick(self, st: OSEState, actor: int, slots: list[int], key: Any) -> int | None:
        """The slot minimising ``key(combatant)``; ties broken at random."""
        if not slots:
            return None
        cs = st.combatants
        scored = [(key(cs[st.enemies[actor][k]]), k) for k in slots]
        best = min(s for s, _ in scored)
        choices = [k for s, k in scored if s == best]
        return choices[int(self.rng.integers(len(choices)))] if len(choices) > 1 else choices[0]

    @staticmethod
    def _ranged(c: Any) -> bool:
        """A missile weapon with ammunition; a thrown melee weapon only if it keeps one to fight with."""
        return c.prof.missile_weapon is not None and c.ammo != 0 and (not c.prof.throws or c.ammo > 1)

    @staticmethod
    def _dist(st: OSEState, a: int, b: int) -> int:
        return abs(st.combatants[a].pos - st.combatants[b].pos)

    def _nearest(self, st: OSEState, actor: int) -> int:
        live = [j for j in st.enemies[actor] if st.combatants[j].status == Status.ACTIVE]
        return min((self._dist(st, actor, j) for j in live), default=99)

    def _spell(self, st: OSEState, actor: int, mask: np.ndarray) -> int | None:
        """Standard spell use: heal a badly hurt friend, Sleep a group, Hold the toughest, Missile the weakest."""
        me = st.combatants[actor]
        self_idx, ally0 = A.CAST_FRIEND[CLW]
        if mask[self_idx] and me.hp * 2 <= me.max_hp:
            return self_idx
        for k, j in enumerate(st.allies[actor]):
            if (
                k < A.MAX_PER_SIDE - 1
                and mask[ally0 + k]
                and st.combatants[j].hp * 2 <= st.combatants[j].max_hp
            ):
                return ally0 + k
        sleepers = self._slots(mask, A.CAST_ENEMY0[SLEEP])
        if sleepers:  # Sleep takes friend and foe in the area: net sleepers, and never more friends than foes

            def caught(c: Any) -> int:
                near = [
                    x
                    for j, x in enumerate(st.combatants)
                    if j != actor and x.status == Status.ACTIVE and abs(x.pos - c.pos) <= SLEEP_RADIUS
                ]
                return sum(1 if x.side == me.side else -1 for x in near)

            best = self._pick(st, actor, sleepers, caught)
            if best is not None and caught(st.combatants[st.enemies[actor][best]]) < 0:
                return A.CAST_ENEMY0[SLEEP] + best
        holds = self._slots(mask, A.CAST_ENEMY0[HOLD])
        holds = [k for k in holds if st.combatants[st.enemies[actor][k]].prof.humanoid]
        if holds:
            return A.CAST_ENEMY0[HOLD] + self._pick(st, actor, holds, lambda c: c.prof.thac0 - c.hp)  # type: ignore[operator]
        mms = self._slots(mask, A.CAST_ENEMY0[MM])
        if mms:
            return A.CAST_ENEMY0[MM] + self._pick(st, actor, mms, lambda c: c.hp)  # type: ignore[operator]
        return None

    def _melee(self, st: OSEState, actor: int, mask: np.ndarray) -> int | None:
        k = self._pick(
            st,
            actor,
            self._slots(mask, A.MELEE0),
            lambda c: (not c.retreating, c.casting < 0, c.hp),
        )
        return None if k is None else A.MELEE0 + k

    def _shoot(self, st: OSEState, actor: int, mask: np.ndarray) -> int | None:
        k = self._pick(
            st,
            actor,
            self._slots(mask, A.SHOOT0),
            lambda c: (c.casting < 0, abs(c.pos - st.combatants[actor].pos), c.hp),
        )
        return None if k is None else A.SHOOT0 + k

    def _close(self, st: OSEState, actor: int, mask: np.ndarray) -> int | None:
        k = self._pick(
            st,
            actor,
            self._slots(mask, A.CLOSE0),
            lambda c: (abs(c.pos - st.combatants[actor].pos), c.hp),
        )
        return None if k is None else A.CLOSE0 + k

    def act(self, observation: Observation, mask: np.ndarray) -> int:
        st: OSEState = observation.state
        d = observation.decision
        choice = self.choose(st, d.actor, d.kind, d.context.get("phase", "declare"), mask)
        if choice is None or not mask[choice]:
            return int(np.flatnonzero(mask)[0])
        return int(choice)

    def choose(
        self, st: OSEState, actor: int, kind: DecisionKind, phase: str, mask: np.ndarray
    ) -> int | None:
        raise NotImplementedError


class AggressiveAgent(_Base):
    """Charges: casts its best offensive spell at once, never withdraws or retreats, closes on the nearest
    enemy, shoots only when it cannot close, and strikes the weakest adjacent enemy (retreaters first)."""

    name = "aggressive"

    def choose(
        self, st: OSEState, actor: int, kind: DecisionKind, phase: str, mask: np.ndarray
    ) -> int | None:
        if kind == DecisionKind.DECLARE:
            return self._spell(st, actor, mask) or A.DECLARE_NONE
        if phase == "move":
            return self._close(st, actor, mask) or A.HOLD
        if phase == "missile":
            return self._shoot(st, actor, mask) if self._ranged(st.combatants[actor]) else A.HOLD
        return self._melee(st, actor, mask) or self._shoot(st, actor, mask)


class ByTheBookAgent(_Base):
    """Plays as the rulebook's typical combatant: casters cast (heal a friend at half HP, Sleep a group,
    Hold the toughest humanoid, Magic Missile the weakest); archers stand and shoot the nearest enemy until
    engaged; everyone else closes on the nearest enemy and attacks the weakest adjacent one (disrupting
    casters and retreaters first). It withdraws only when engaged and at a quarter of its HP or less."""

    name = "by-the-book"

    def choose(
        self, st: OSEState, actor: int, kind: DecisionKind, phase: str, mask: np.ndarray
    ) -> int | None:
        me = st.combatants[actor]
        if kind == DecisionKind.DECLARE:
            spell = self._spell(st, actor, mask)
            if spell is not None:
                return spell
            if (
                me.hp * 4 <= me.max_hp
                and self._nearest(st, actor) <= 1
                and mask[A.DECLARE_WITHDRAW]
            ):
                return A.DECLARE_WITHDRAW
            return A.DECLARE_NONE
        has_missile = self._ranged(me)
        if phase == "move":
            if has_missile and self._nearest(st, actor) >= 2:
                return A.HOLD
            return self._close(st, actor, mask) or A.HOLD
        if phase == "missile":
            return self._shoot(st, actor, mask) if has_missile else A.HOLD
        return self._melee(st, actor, mask) or self._shoot(st, actor, mask)


class CautiousAgent(_Base):
    """Keeps its distance: casts from afar, shoots and steps back when an enemy is within twice its move
    (so it stays out of reach whoever wins initiative) when it has a missile weapon, otherwise waits for the
    enemy to come; when engaged below half HP it declares a fighting withdrawal (a retreat below a quarter),
    and it only strikes adjacent enemies."""

    name = "cautious"

    def choose(
        self, st: OSEState, actor: int, kind: DecisionKind, phase: str, mask: np.ndarray
    ) -> int | None:
        me = st.combatants[actor]
        if kind == DecisionKind.DECLARE:
            if me.hp * 4 <= me.max_hp and mask[A.DECLARE_RETREAT]:
                return A.DECLARE_RETREAT
            if me.hp * 2 <= me.max_hp and mask[A.DECLARE_WITHDRAW]:
                return A.DECLARE_WITHDRAW
            return self._spell(st, actor, mask) or A.DECLARE_NONE
        has_missile = self._ranged(me)
        if phase == "move":
            near = self._nearest(st, actor)
            reach = max((st.combatants[j].prof.move for j in st.enemies[actor]), default=0)
            if has_missile and near <= 1 + 2 * reach:  # out of reach even if the enemy moves first
                return A.MOVE_AWAY
            return A.HOLD
        if phase == "missile":
            return self._shoot(st, actor, mask) if has_missile else A.HOLD
        return self._melee(st, actor, mask)


AGENTS: dict[str, AgentEntry] = {
    "aggressive": AgentEntry(
        "aggressive", "casts at once, charges the nearest enemy, never withdraws", AggressiveAgent
    ),
    "by-the-book": AgentEntry(
        "by-the-book",
        "standard play: casters cast, archers stand and shoot, others close and strike the weakest",
        ByTheBookAgent,
    ),
    "cautious": AgentEntry(
        "cautious", "keeps range, steps back while shooting, withdraws when hurt", CautiousAgent
    ),
}
