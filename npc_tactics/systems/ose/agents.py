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
from npc_tactics.systems.ose.rules import spells_area as SA
from npc_tactics.systems.ose.rules import spells_buffs as SB
from npc_tactics.systems.ose.rules.state import OSEState
from npc_tactics.systems.ose.rules.tables import SLEEP_RADIUS, SPELL_NAMES

MM, SLEEP, HOLD, CLW = (
    SPELL_NAMES.index(s) for s in ("magic_missile", "sleep", "hold_person", "cure_light_wounds")
)
_S = SPELL_NAMES.index
#: spells that blast or entangle everyone in their area: spell id -> who it catches (state, caster, target)
_AREAS: tuple[tuple[int, Any], ...] = (
    (_S("fire_ball"), lambda st, ci, ti: SA.fire_ball_caught(st, ti)),
    (_S("lightning_bolt"), SA.bolt_caught),
    (_S("web"), lambda st, ci, ti: SA.web_caught(st, ti)),
    (_S("phantasmal_force"), SA.phantasm_caught),
)
#: spells on a friend that take a group: spell id -> the subjects (state, caster, centre)
_GROUPS: tuple[tuple[int, Any, str], ...] = (
    (_S("haste"), SB.haste_subjects, "haste"),
    (_S("bless"), SB.bless_subjects, "bless"),
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
        if self._has_new(me):
            first = self._new_spell_first(st, actor, mask)
            if first is not None:
                return first
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
        later = self._new_spell(st, actor, mask) if self._has_new(me) else None
        if later is not None:
            return later
        mms = self._slots(mask, A.CAST_ENEMY0[MM])
        if mms:
            return A.CAST_ENEMY0[MM] + self._pick(st, actor, mms, lambda c: c.hp)  # type: ignore[operator]
        return None

    @staticmethod
    def _has_new(me: Any) -> bool:
        """Whether it memorised any spell added after 0.2.0 (the old casters' play stays as it was)."""
        return any(me.spells[A.FIRST_SPELLS:])

    def _best_area(self, st: OSEState, actor: int, mask: np.ndarray, sid: int, caught: Any) -> int | None:
        """The target slot of area spell ``sid`` that catches the most enemies net of friends (a friend counts
        double, the caster triple); at least two enemies, or the last one, and no more friends than that."""
        if sid not in A.CAST_ENEMY0:
            return None
        me = st.combatants[actor]
        live = sum(1 for j in st.enemies[actor] if st.combatants[j].status == Status.ACTIVE)
        best, score = None, 0
        for k in self._slots(mask, A.CAST_ENEMY0[sid]):
            who = caught(st, actor, st.enemies[actor][k])
            foes = sum(1 for j in who if st.combatants[j].side != me.side)
            friends = sum(3 if j == actor else 2 for j in who if st.combatants[j].side == me.side)
            net = foes - friends
            if foes >= min(2, live) and net > score:
                best, score = k, net
        return None if best is None else A.CAST_ENEMY0[sid] + best

    def _new_spell_first(self, st: OSEState, actor: int, mask: np.ndarray) -> int | None:
        """Before Sleep: a Fire Ball or Lightning Bolt at a cluster; Shield when shot at or in melee; Mirror
        Image or Protection from Evil when an enemy is adjacent."""
        for sid, caught in _AREAS[:2]:
            pick = self._best_area(st, actor, mask, sid, caught)
            if pick is not None:
                return pick
        me = st.combatants[actor]
        near = self._nearest(st, actor)
        shooters = any(st.combatants[j].status == Status.ACTIVE and self._ranged(st.combatants[j])
                       for j in st.enemies[actor])
        for name, when in (("shield", shooters or near <= 1), ("mirror_image", near <= 1),
                           ("protection_from_evil", near <= 1)):
            idx = A.CAST_SELF.get(_S(name))
            if idx is not None and mask[idx] and when and not me.retreating:
                return idx
        return None

    def _new_spell(self, st: OSEState, actor: int, mask: np.ndarray) -> int | None:
        """After Sleep and Hold Person: Web or Phantasmal Force at a cluster; Charm Person, Light or Silence at
        the toughest enemy (Silence at a caster); Haste or Bless a group of friends; Striking on a fighter;
        Cause Light Wounds on an adjacent enemy; Invisibility on itself when nothing else is worth it."""
        cs = st.combatants
        for sid, caught in _AREAS[2:]:
            pick = self._best_area(st, actor, mask, sid, caught)
            if pick is not None:
                return pick
        for name in ("charm_person", "light", "darkness"):
            slots = self._slots(mask, A.CAST_ENEMY0[_S(name)])
            if name == "charm_person":
                slots = [k for k in slots if cs[st.enemies[actor][k]].prof.humanoid]
            if slots:
                return A.CAST_ENEMY0[_S(name)] + self._pick(st, actor, slots, lambda c: c.prof.thac0 - c.hp)  # type: ignore[operator]
        silence = [k for k in self._slots(mask, A.CAST_ENEMY0[_S("silence_15_radius")])
                   if any(cs[st.enemies[actor][k]].spells)]
        if silence:
            return A.CAST_ENEMY0[_S("silence_15_radius")] + silence[0]
        for sid, subjects, name in _GROUPS:
            self_idx, ally0 = A.CAST_FRIEND[sid]
            options = [(self_idx, actor)] + [(ally0 + k, j) for k, j in enumerate(st.allies[actor])
                                             if k < A.MAX_PER_SIDE - 1]
            best, most = None, 1
            for idx, centre in options:
                if mask[idx]:
                    n = sum(1 for j in subjects(st, actor, centre) if name not in cs[j].conditions)
                    if n > most:
                        best, most = idx, n
            if best is not None:
                return best
        self_idx, ally0 = A.CAST_FRIEND[_S("striking")]
        for k, j in enumerate(st.allies[actor]):
            if k < A.MAX_PER_SIDE - 1 and mask[ally0 + k] and not any(cs[j].spells):
                return ally0 + k
        cause = self._slots(mask, A.CAST_ENEMY0[_S("cause_light_wounds")])
        if cause:
            return A.CAST_ENEMY0[_S("cause_light_wounds")] + self._pick(st, actor, cause, lambda c: c.hp)  # type: ignore[operator]
        self_idx, _ = A.CAST_FRIEND[_S("invisibility")]
        if mask[self_idx] and self._nearest(st, actor) <= 4:
            return self_idx
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
