"""Scripted opponents of the dice-pool system (dice-pool.md §11).

Each reads ``observation.state`` (public fighter fields), ``observation.decision`` (context: ``pool``,
``defense``, ``next`` for SPLIT; ``needed``, ``aim_bonus`` for OPTION) and always returns a legal action.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from npc_tactics.agents.base import AgentEntry, Observation, pick_first
from npc_tactics.rules.base import DecisionKind, Status, enemy_slots
from npc_tactics.systems.dicepool.rules import actions as A
from npc_tactics.systems.dicepool.rules import tables as T

HEAD_AIM = A.AIM_AT + 1 + T.HEAD


class _Base:
    name = "base"

    def __init__(self, engine: Any = None, rng: np.random.Generator | None = None) -> None:
        self.engine = engine
        self.rng = rng if rng is not None else np.random.default_rng(0)

    def act(self, observation: Observation, mask: np.ndarray) -> int:
        d = observation.decision
        if d.kind == DecisionKind.SPLIT:
            choice = self.split(d.context, observation)
            a = A.SPLIT + max(0, min(choice, int(d.context["pool"])))
        elif d.kind == DecisionKind.OPTION:
            a = self.option(d.context, observation, mask)
        else:
            a = self.slot(observation, mask)
        if not mask[a]:
            a = pick_first(mask, [A.WAIT]) or int(np.flatnonzero(mask)[0])
        return int(a)

    # ----- helpers ----------------------------------------------------------------------------------
    def _targets(self, obs: Observation, mask: np.ndarray, base: int) -> list[int]:
        """Legal action indices of a targeted verb (``base`` = its enemy_0 index), weakest target first."""
        cs = obs.state.combatants
        slots = enemy_slots(cs, obs.decision.actor)
        legal = [
            (cs[e].hp, self.rng.random(), base + k) for k, e in enumerate(slots) if mask[base + k]
        ]
        return [a for _, _, a in sorted(legal)]

    def _nearest(self, obs: Observation, mask: np.ndarray, base: int) -> int | None:
        cs = obs.state.combatants
        me = cs[obs.decision.actor]
        slots = enemy_slots(cs, obs.decision.actor)
        legal = [
            (abs(cs[e].position - me.position), self.rng.random(), base + k)
            for k, e in enumerate(slots)
            if mask[base + k]
        ]
        return min(legal)[2] if legal else None

    @staticmethod
    def _draw_kind(obs: Observation, mask: np.ndarray, ranged: bool) -> int | None:
        me = obs.state.combatants[obs.decision.actor]
        for i, w in enumerate(me.weapons):
            if w.ranged == ranged and mask[A.DRAW + i]:
                return A.DRAW + i
        return None

    @staticmethod
    def _enemy_shooters(obs: Observation) -> bool:
        me = obs.state.combatants[obs.decision.actor]
        return any(
            c.side != me.side
            and c.status == Status.ACTIVE
            and c.weapon is not None
            and c.weapon.ranged
            for c in obs.state.combatants
        )

    def _melee_or_close(self, obs: Observation, mask: np.ndarray) -> int:
        """Strike the weakest engaged enemy, else ready a melee weapon, else close in, else shoot, else wait."""
        strikes = self._targets(obs, mask, A.STRIKE)
        me = obs.state.combatants[obs.decision.actor]
        if strikes:
            draw = self._draw_kind(obs, mask, False)
            if (me.weapon is None or me.weapon.ranged) and draw is not None and me.readied >= 0:
                return draw
            return strikes[0]
        shots = self._targets(obs, mask, A.SHOOT)
        if shots:
            return shots[0]
        if mask[A.RELOAD]:
            return A.RELOAD
        adv = self._nearest(obs, mask, A.ADVANCE)
        if adv is not None:
            return adv
        return A.WAIT

    # ----- overridable ------------------------------------------------------------------------------
    def split(self, ctx: Any, obs: Observation) -> int:
        return 0

    def option(self, ctx: Any, obs: Observation, mask: np.ndarray) -> int:
        return A.AIM_AT

    def slot(self, obs: Observation, mask: np.ndarray) -> int:
        return self._melee_or_close(obs, mask)


class AggressiveAgent(_Base):
    """All dice to attack (split:0), never aims at a location, never spends a slot aiming: strikes the
    weakest engaged enemy, else shoots the weakest enemy in range, else reloads, else advances."""

    name = "aggressive"


class ByTheBookAgent(_Base):
    """A fixed split rule and aim-then-shoot at range.

    SPLIT: keep the dice that expect DEFENSE successes (0.6 per die) plus one, and move the rest to DEFENSE;
    all dice attack when its own slot comes next. OPTION: aim at the head when the reduced pool still
    expects DEFENSE + 1 successes. Slot: strike when engaged; with a ranged weapon readied take the cover at
    hand, then aim at the nearest target, then shoot it; reload; draw the ranged weapon when no enemy is
    engaged; otherwise draw a melee weapon and close in.
    """

    name = "by-the-book"

    def split(self, ctx: Any, obs: Observation) -> int:
        pool = int(ctx["pool"])
        if ctx["next"] == "self":
            return 0
        keep = min(pool, math.ceil(int(ctx["defense"]) / 0.6) + 1)
        return pool - keep

    def option(self, ctx: Any, obs: Observation, mask: np.ndarray) -> int:
        expected = (int(ctx["pool"]) - T.LOCATION_AIM_DICE) * 0.6 + int(ctx["aim_bonus"])
        return HEAD_AIM if mask[HEAD_AIM] and expected >= int(ctx["needed"]) + 1 else A.AIM_AT

    def slot(self, obs: Observation, mask: np.ndarray) -> int:
        me = obs.state.combatants[obs.decision.actor]
        strikes = self._targets(obs, mask, A.STRIKE)
        if strikes and me.weapon is not None and not me.weapon.ranged:
            return strikes[0]
        shoot = self._nearest(obs, mask, A.SHOOT)
        if shoot is not None and not strikes:
            cover = pick_first(mask, [A.COVER + 1, A.COVER])
            if cover is not None and me.aim_target < 0:
                return cover
            target = enemy_slots(obs.state.combatants, obs.decision.actor)[(shoot - A.SHOOT)]
            if me.aim_target == target:
                return shoot
            return shoot - A.SHOOT + A.AIM
        if mask[A.RELOAD] and not strikes:
            return A.RELOAD
        if not strikes:
            draw = self._draw_kind(obs, mask, True)
            if draw is not None and (me.weapon is None or not me.weapon.ranged):
                return draw
        return self._melee_or_close(obs, mask)


class CautiousAgent(_Base):
    """Heavy defence: moves half its dice (rounded down) to DEFENSE, whatever comes next.

    Slot: withdraws below 40% HP; under fire, takes the best cover at hand, else kneels when not engaged;
    then strikes the weakest engaged enemy or shoots (no location aim), reloads, or advances.
    """

    name = "cautious"

    def split(self, ctx: Any, obs: Observation) -> int:
        return int(ctx["pool"]) // 2

    def slot(self, obs: Observation, mask: np.ndarray) -> int:
        me = obs.state.combatants[obs.decision.actor]
        if me.hp < 0.4 * me.max_hp and mask[A.WITHDRAW]:
            return A.WITHDRAW
        strikes = self._targets(obs, mask, A.STRIKE)
        if not strikes and self._enemy_shooters(obs):
            cover = pick_first(mask, [A.COVER + 1, A.COVER])
            if cover is not None:
                return cover
            if me.posture == 0 and not self._targets(obs, mask, A.ADVANCE) and mask[A.POSTURE + 1]:
                return A.POSTURE + 1
        return self._melee_or_close(obs, mask)


AGENTS: dict[str, AgentEntry] = {
    "aggressive": AgentEntry(
        "aggressive", "all dice to attack; strike, shoot or close in", AggressiveAgent
    ),
    "by-the-book": AgentEntry(
        "by-the-book", "fixed split rule; cover, aim then shoot at range", ByTheBookAgent
    ),
    "cautious": AgentEntry(
        "cautious", "heavy DEFENSE split, cover and withdrawal when hurt", CautiousAgent
    ),
}
