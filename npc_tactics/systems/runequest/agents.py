"""Scripted RQG agents: aggressive, by-the-book and cautious (contract §6).

They read ``observation.state`` (public fields of
:class:`~npc_tactics.systems.runequest.rules.state.RQState`, never
another combatant's statement of intent), ``observation.decision`` and the mask, break ties with
their own ``rng``, and always return a legal action (falling back to a random legal one).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from npc_tactics.agents.base import AgentEntry, Observation
from npc_tactics.dice import parse
from npc_tactics.rules.base import DecisionKind, Status, ally_slots, enemy_slots
from npc_tactics.systems.runequest.rules import actions as A
from npc_tactics.systems.runequest.rules.resolve import DODGE, PARRY, defence_chance
from npc_tactics.systems.runequest.rules.state import Combatant, RQState


def _first(*choices: int | None) -> int | None:
    """The first choice that is not None (action 0 is a real action, so ``or`` chains would be
    wrong)."""
    for c in choices:
        if c is not None:
            return c
    return None


class _Base:
    name = "base"

    def __init__(self, engine: Any = None, rng: np.random.Generator | None = None) -> None:
        self.rng = rng if rng is not None else np.random.default_rng(0)

    def act(self, observation: Observation, mask: np.ndarray) -> int:
        st: RQState = observation.state
        d = observation.decision
        if d.kind == DecisionKind.REACT:
            a = self.react(st, d.actor, mask)
        elif d.kind == DecisionKind.OPTION:
            a = self.option(st, d.actor, mask)
        elif st.phase == "then":
            a = self.then(st, d.actor, mask)
        else:
            a = self.declare(st, d.actor, mask)
        if a is None or not mask[a]:
            legal = np.flatnonzero(mask)
            a = int(legal[self.rng.integers(len(legal))])
        return int(a)

    # ----- shared helpers
    # ------------------------------------------------------------------------------
    def _best_attack(
        self, st: RQState, me: int, mask: np.ndarray, missile: bool | None = None
    ) -> int | None:
        """The legal attack with the best weapon skill on the enemy with the lowest HP fraction; between
        weapons of equal skill, the one with the higher mean damage (a warrior strikes with the broadsword
        and keeps the shield for parrying), then at random."""
        c = st.combatants[me]
        enemies = enemy_slots(st.combatants, me)
        best: tuple[float, float, float, int] | None = None
        for w in range(min(len(c.weapons), A.N_WEAPONS)):
            spec = c.weapons[w].spec
            if missile is not None and (spec.kind in ("missile", "thrown")) != missile:
                continue
            for k in range(min(len(enemies), A.MAX_PER_SIDE)):
                a = A.ATTACK[w][k]
                if not mask[a]:
                    continue
                e = st.combatants[enemies[k]]
                key = (e.hp / max(1, e.max_hp) - spec.skill / 100.0, -parse(spec.damage).mean,
                       float(self.rng.random()), a)
                if best is None or key < best:
                    best = key
        return None if best is None else best[3]

    def _close(self, st: RQState, me: int, mask: np.ndarray) -> int | None:
        enemies = enemy_slots(st.combatants, me)
        c = st.combatants[me]
        options = [
            (abs(st.combatants[enemies[k]].pos - c.pos), A.CLOSE[k])
            for k in range(min(len(enemies), 6))
            if mask[A.CLOSE[k]]
        ]
        return min(options)[1] if options else None

    def _best_defence(self, st: RQState, me: int, mask: np.ndarray) -> int:
        """The parry or dodge with the highest current chance (no defence if none is legal)."""
        c = st.combatants[me]
        best, pick = -1, A.NO_DEFENCE
        for w in range(A.N_WEAPONS):
            if mask[A.PARRY[w]]:
                ch = defence_chance(c, PARRY, w)
                if ch > best:
                    best, pick = ch, A.PARRY[w]
        if mask[A.DODGE] and defence_chance(c, DODGE, -1) > best:
            pick = A.DODGE
        return pick

    @staticmethod
    def _hurt(c: Combatant, frac: float) -> bool:
        return (
            c.hp <= frac * c.max_hp
            or any(loc.useless for loc in c.locations)
            or bool(c.bleed_clock or c.bleed_per_round)
        )

    def _heal(self, st: RQState, me: int, mask: np.ndarray, frac: float) -> int | None:
        c = st.combatants[me]
        for spell in ("heal_wound", "heal"):
            if mask[A.CAST_SELF[spell]] and c.hp <= frac * c.max_hp:
                return A.CAST_SELF[spell]
            for k, j in enumerate(ally_slots(st.combatants, me)[: A.MAX_PER_SIDE - 1]):
                p = st.combatants[j]
                if mask[A.CAST_ALLY[spell][k]] and p.hp <= frac * p.max_hp:
                    return A.CAST_ALLY[spell][k]
        return None

    def _buff(self, c: Combatant, mask: np.ndarray) -> int | None:
        for spell, on in (
            ("truesword", c.truesword_rounds),
            ("shield", c.shield_rounds),
            ("bladesharp", c.bladesharp_rounds),
            ("protection", c.protection_rounds),
        ):
            if not on and mask[A.CAST_SELF[spell]]:
                return A.CAST_SELF[spell]
        return None

    def _offensive_spell(self, st: RQState, me: int, mask: np.ndarray) -> int | None:
        enemies = enemy_slots(st.combatants, me)
        for spell in ("befuddle", "disruption"):
            legal = [k for k in range(min(len(enemies), 6)) if mask[A.CAST_ENEMY[spell][k]]]
            if legal:
                k = min(
                    legal,
                    key=lambda k: (
                        st.combatants[enemies[k]].befuddled_rounds > 0,
                        -st.combatants[enemies[k]].max_hp,
                    ),
                )
                if spell == "befuddle" and st.combatants[enemies[k]].befuddled_rounds:
                    continue
                return A.CAST_ENEMY[spell][k]
        return None

    # ----- decisions (overridden)
    # --------------------------------------------------------------------------
    def declare(self, st: RQState, me: int, mask: np.ndarray) -> int | None:
        return _first(self._best_attack(st, me, mask), self._close(st, me, mask), A.DEFEND)

    def then(self, st: RQState, me: int, mask: np.ndarray) -> int | None:
        return _first(self._best_attack(st, me, mask), A.DEFEND)

    def react(self, st: RQState, me: int, mask: np.ndarray) -> int | None:
        return self._best_defence(st, me, mask)

    def option(self, st: RQState, me: int, mask: np.ndarray) -> int | None:
        legal = [i for i, a in enumerate(A.POWER) if mask[a]]
        if legal:
            return A.POWER[max(legal)]
        aims = [i for i, a in enumerate(A.AIM) if mask[a]]
        return A.AIM[aims[-1]] if aims else None  # the head on the humanoid table


class AggressiveAgent(_Base):
    """Always attacks: the weakest enemy in reach with its best weapon, charging or closing
    otherwise; uses Befuddle/Disruption at range when it has nothing to strike; parries or dodges
    with its best
    chance; never retreats or flees; spends every point on spells."""

    name = "aggressive"

    def declare(self, st: RQState, me: int, mask: np.ndarray) -> int | None:
        return _first(
            self._best_attack(st, me, mask),
            self._offensive_spell(st, me, mask),
            self._close(st, me, mask),
            A.DEFEND,
        )


class ByTheBookAgent(_Base):
    """The careful professional: flees when seriously wounded (HP <= 1/3, a useless limb or
    bleeding); heals a friend below half HP; buffs (Truesword, Shield, Bladesharp, Protection)
    before melee while not engaged, then strikes in the same round; shoots when it has a missile
    weapon and is not engaged; otherwise strikes the weakest enemy in reach or closes on the
    nearest. REACT: the best parry (dodge only
    when it is the better chance)."""

    name = "by-the-book"

    def declare(self, st: RQState, me: int, mask: np.ndarray) -> int | None:
        c = st.combatants[me]
        if self._hurt(c, 1 / 3) and mask[A.FLEE]:  # on the ground it cannot run (§18)
            return A.FLEE
        heal = self._heal(st, me, mask, 0.5)
        if heal is not None:
            return heal
        if not c.engaged_start:
            buff = self._buff(c, mask)
            if buff is not None:
                return buff
            shot = self._best_attack(st, me, mask, missile=True)
            if shot is not None:
                return shot
        return _first(
            self._best_attack(st, me, mask, missile=False), self._close(st, me, mask), A.DEFEND
        )


class CautiousAgent(_Base):
    """Keeps itself alive: retreats when hurt below 60% while engaged and flees once disengaged;
    shoots and withdraws when it has a missile weapon and the enemy is closing; opens with
    Protection, Befuddle or Disruption at range; first-aids bleeding allies; attacks only enemies
    already in reach; always
    takes the best defence."""

    name = "cautious"

    def declare(self, st: RQState, me: int, mask: np.ndarray) -> int | None:
        c = st.combatants[me]
        if self._hurt(c, 0.6):
            leave = A.RETREAT if c.engaged_start else A.FLEE
            if mask[leave]:
                return leave
        for k, j in enumerate(ally_slots(st.combatants, me)[: A.MAX_PER_SIDE - 1]):
            p = st.combatants[j]
            if mask[A.AID_ALLY[k]] and (
                p.bleed_clock or p.bleed_per_round or p.status == Status.UNCONSCIOUS
            ):
                return A.AID_ALLY[k]
        if not c.engaged_start:
            shot = self._best_attack(st, me, mask, missile=True)
            if shot is not None:
                return shot
            if not c.protection_rounds and mask[A.CAST_SELF["protection"]]:
                return A.CAST_SELF["protection"]
            spell = self._offensive_spell(st, me, mask)
            if spell is not None:
                return spell
            if self._has_missile(c):
                if mask[A.RETREAT]:
                    return A.RETREAT
        return _first(self._best_attack(st, me, mask, missile=False), A.DEFEND)

    @staticmethod
    def _has_missile(c: Combatant) -> bool:
        return any(wp.spec.kind in ("missile", "thrown") and wp.ammo > 0 for wp in c.weapons)

    def then(self, st: RQState, me: int, mask: np.ndarray) -> int | None:
        return _first(self._best_attack(st, me, mask, missile=True), A.DEFEND)

    def option(self, st: RQState, me: int, mask: np.ndarray) -> int | None:
        legal = [a for a in A.POWER if mask[a]]
        if legal:
            return (
                legal[0] if len(legal) == 1 else legal[1]
            )  # 2 points when possible: fast and useful
        return super().option(st, me, mask)


AGENTS: dict[str, AgentEntry] = {
    "aggressive": AgentEntry(
        "aggressive", "always attacks the weakest enemy in reach, never retreats", AggressiveAgent
    ),
    "by-the-book": AgentEntry(
        "by-the-book",
        "best parry, buffs before melee, shoots when free, flees when seriously wounded",
        ByTheBookAgent,
    ),
    "cautious": AgentEntry(
        "cautious", "retreats when hurt, shoots and withdraws, strikes only in reach", CautiousAgent
    ),
}
