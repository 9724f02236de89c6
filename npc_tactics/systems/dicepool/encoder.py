"""Observation encoder of the dice-pool system (docs/dicepool.md, "Observation layout").

Context: the slot's place in the game turn (T.A., local rank, who acts next) and the SPLIT/OPTION context
(pool, target DEFENSE, aim bonus, exact hit chances). Per combatant: location HP, distance, DEFENSE and
dice moved to it, pools, postures and cover, slots left this game turn. Every value is scaled into [-1, 1].
Hit chances are exact (pool.py ``hit_table``, built on first use: importing the encoder computes nothing).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from npc_tactics.dice import parse
from npc_tactics.encoders.base import Decl, Encoder, Field, flag, one_hot
from npc_tactics.rules.base import Decision, DecisionKind, Engine, Status
from npc_tactics.systems.dicepool.rules import tables as T
from npc_tactics.systems.dicepool.rules.combat import (
    attack_pool,
    behind,
    cover_at,
    melee_defense,
    melee_skill,
    range_band,
    shot_defense,
)
from npc_tactics.systems.dicepool.rules.engine import DicePoolEngine
from npc_tactics.systems.dicepool.rules.pool import hit_table
from npc_tactics.systems.dicepool.rules.state import DicePoolState, Fighter, Weapon

_MAX_NEED = 40
_SPLIT, _OPTION = DecisionKind.SPLIT, DecisionKind.OPTION


def _p_hit(dice: int, needed: int) -> float:
    """P(successes ≥ needed) from pool.hit_table (built on first use, not at import: issue 8 §5)."""
    return hit_table(T.MAX_POOL, _MAX_NEED)[max(0, min(dice, T.MAX_POOL))][max(0, min(needed, _MAX_NEED))]


@dataclass(slots=True)
class Ctx:
    st: DicePoolState
    actor: int
    kind: DecisionKind
    dctx: Mapping[str, Any]
    slots_left: dict[int, int]  # combatant -> slots it still holds this game turn after the current one
    next: str
    target_slot: int = 0  # enemy slot + 1 of the SPLIT/OPTION target


@dataclass(slots=True)
class Slot:
    me: Fighter
    c: Fighter
    other: bool  # not the actor
    distance: float
    engaged: bool
    shoot_pool: int
    band: int
    p_melee: float
    p_shot: float
    slots_left: int
    aimed_by_actor: bool
    aiming_at_actor: bool


_NEXT = {"self": "1 if the actor holds the next slot", "ally": "1 if an ally holds the next slot",
         "enemy": "1 if an enemy holds the next slot",
         "new_turn": "1 if this is the last slot of the game turn (next: new initiative)"}


def _loc(k: int, name: str) -> Field[Slot]:
    return Field(f"loc_{name}", f"{name} HP / its max (negative: below zero)", "fraction", 1.0,
                 lambda v: v.c.loc_hp[k] / v.c.loc_max[k])


def _target_defense(v: Ctx) -> float:
    if v.kind == _SPLIT:
        return float(v.dctx["defense"] / 12)
    return float(v.dctx["needed"] / 20) if v.kind == _OPTION else 0.0


def _p_hit_all(v: Ctx) -> float:
    if v.kind == _SPLIT:
        return _p_hit(v.dctx["pool"], v.dctx["defense"])
    if v.kind == _OPTION:
        return _p_hit(v.dctx["pool"], v.dctx["needed"] - v.dctx["aim_bonus"])
    return 0.0


def _p_hit_aimed(v: Ctx) -> float:
    if v.kind != _OPTION:
        return 0.0
    return _p_hit(v.dctx["pool"] - T.LOCATION_AIM_DICE, v.dctx["needed"] - v.dctx["aim_bonus"])


def _can_shoot(v: Slot) -> bool:
    c, w = v.c, v.c.weapon
    return bool(v.shoot_pool) and c.ammo[c.readied] != 0 and w is not None and (
        not w.reload or c.loaded[c.readied])


def _weapon_damage(w: Weapon | None) -> float:
    return parse(w.damage).mean if w is not None else 0.0


class DicePoolEncoder(Encoder[DicePoolState, Ctx, Slot]):
    """The dice-pool declarations; docs/dicepool.md's observation table is generated from them."""

    CONTEXT: ClassVar[Sequence[Decl[Ctx]]] = (
        Field("round", "game turn / max_rounds", "fraction", 1.0, lambda v: v.st.round / v.st.max_rounds),
        Field("ta", "Action Turn of this slot / number of T.A. this game turn (ACT)", "fraction", 1.0,
              lambda v: v.dctx["ta"] / v.st.n_ta if v.kind == DecisionKind.ACT else 0.0),
        Field("local_rank", "local action rank inside the T.A. (5 = start; ACT)", "rank", 5.0,
              lambda v: v.dctx["local_rank"] if v.kind == DecisionKind.ACT else 0.0),
        Field("n_ta", "Action Turns this game turn", "T.A.", 5.0, lambda v: v.st.n_ta),
        Field("slots_left", "slots the actor still holds this game turn after this one", "slots", 4.0,
              lambda v: v.slots_left.get(v.actor, 0)),
        one_hot("next_", tuple(_NEXT), _NEXT.__getitem__, lambda v: v.next),
        Field("pool", "SPLIT/OPTION: dice in the attack pool", "dice", 12.0,
              lambda v: v.dctx["pool"] if v.kind in (_SPLIT, _OPTION) else 0.0),
        Field("target_defense", "SPLIT: target's melee DEFENSE / 12; OPTION: DEFENSE the shot must reach / 20",
              "fraction", 1.0, _target_defense),
        Field("aim_bonus", "OPTION: successes added by a slot spent aiming", "successes", 4.0,
              lambda v: v.dctx["aim_bonus"] if v.kind == _OPTION else 0.0),
        Field("target_slot", "SPLIT/OPTION: enemy slot of the target + 1", "slot + 1", 6.0,
              lambda v: v.target_slot),
        Field("p_hit_all", "SPLIT/OPTION: exact chance to hit with the whole pool (no location aim)",
              "probability", 1.0, _p_hit_all),
        Field("p_hit_aimed", "OPTION: exact chance to hit aiming at a location (-2 dice)", "probability", 1.0,
              _p_hit_aimed),
    )
    COMBATANT: ClassVar[Sequence[Decl[Slot]]] = (
        flag("present", "1 if the slot holds a combatant", lambda v: 1.0),
        flag("active", "1 if active, -1 if dead, 0 otherwise (unconscious, fled...)",
             lambda v: 1.0 if v.c.status == Status.ACTIVE else (-1.0 if v.c.status == Status.DEAD else 0.0)),
        Field("hp", "HP / max HP (sum of positive location HP)", "fraction", 1.0, lambda v: v.c.hp / v.c.max_hp),
        Field("max_hp", "max HP", "HP", 80.0, lambda v: v.c.max_hp),
        *(_loc(k, name) for k, name in enumerate(T.LOCATIONS)),
        Field("distance", "distance to the actor", "m", 50.0, lambda v: v.distance),
        flag("engaged", "1 if within melee reach of the actor (self: of any enemy)", lambda v: v.engaged),
        Field("defense", "base DEFENSE", "DEFENSE", 12.0, lambda v: v.c.defense),
        Field("defense_dice", "dice moved to DEFENSE, until its next slot", "dice", 12.0,
              lambda v: v.c.defense_dice),
        Field("melee_pool", "dice to strike with (weapon skill or brawl, minus arm wounds)", "dice", 12.0,
              lambda v: attack_pool(v.c, melee_skill(v.c))),
        Field("shoot_pool", "dice to shoot with the readied ranged weapon (0 if none)", "dice", 12.0,
              lambda v: v.shoot_pool),
        flag("can_shoot", "1 if its readied ranged weapon is loaded with ammunition", _can_shoot),
        Field("weapon_damage", "mean damage of the readied weapon", "HP", 12.0, lambda v: _weapon_damage(v.c.weapon)),
        Field("strength", "STRENGTH", "STRENGTH", 6.0, lambda v: v.c.strength),
        Field("initiative", "Initiative pool", "dice", 12.0, lambda v: v.c.initiative),
        Field("coordination", "COORDINATION", "COORDINATION", 10.0, lambda v: v.c.coordination),
        Field("slots_left", "slots it still holds this game turn after the current one", "slots", 4.0,
              lambda v: v.slots_left),
        Field("posture", "posture (0 standing, 1 kneeling, 2 prone)", "posture", 2.0, lambda v: v.c.posture),
        Field("concealment", "cover taken (1 half, 2 three quarters)", "cover level", 2.0,
              lambda v: v.c.concealment),
        Field("cover_available", "best cover available where it stands (its cover spot, within 0.5 m)",
              "cover level", 2.0, lambda v: cover_at(v.c)),
        flag("moving", "1 if moving (+1 DEFENSE against shots)", lambda v: v.c.moving),
        flag("aimed_by_actor", "1 if the actor has spent a slot aiming at it", lambda v: v.aimed_by_actor),
        flag("aiming_at_actor", "1 if it has spent a slot aiming at the actor", lambda v: v.aiming_at_actor),
        Field("metal", "fraction of its locations under metal armour", "fraction", 1.0,
              lambda v: sum(v.c.metal) / len(v.c.metal)),
        flag("electric", "1 if its readied weapon is electric",
             lambda v: v.c.weapon is not None and v.c.weapon.electric),
        Field("shot_band", "range band of the actor's readied ranged weapon to it (-3: out of range or none)",
              "band", 3.0, lambda v: v.band if v.band >= 0 else -3.0),
        Field("p_hit_melee", "exact chance the actor's full melee pool hits it (enemies only)", "probability", 1.0,
              lambda v: v.p_melee),
        Field("p_hit_shot", "exact chance the actor's full shooting pool hits it (enemies only)", "probability",
              1.0, lambda v: v.p_shot),
        Field("armour", "mean armour points over its locations (absorb non-electric damage, D14)", "AP", 5.0,
              lambda v: sum(v.c.protection) / len(v.c.protection)),
        flag("behind", "1 if the actor stands behind it (its rear DEFENSE applies, D6; self: 0)",
             lambda v: v.other and behind(v.c, v.me)),
        flag("facing_actor", "1 if it faces the actor's side of the line (self: 0)",
             lambda v: v.other and v.c.facing != 0 and not behind(v.c, v.me) and v.distance > 0),
    )

    def __init__(self, engine: Engine[Any]) -> None:
        if not isinstance(engine, DicePoolEngine):
            raise TypeError(f"DicePoolEncoder needs a DicePoolEngine, got {type(engine).__name__}")
        super().__init__(engine)
        self._engine = engine

    def context_view(self, state: DicePoolState, decision: Decision) -> Ctx:
        counts: dict[int, int] = {}
        for _, c in state.queue[state.slot + 1:]:
            counts[c] = counts.get(c, 0) + 1
        dctx = decision.context
        nxt = dctx.get("next") or self._engine.next_relation(state)
        v = Ctx(state, decision.actor, decision.kind, dctx, counts, nxt)
        if decision.kind in (_SPLIT, _OPTION):
            enemies = [i for i, c in enumerate(state.combatants) if c.side != decision.side]
            v.target_slot = enemies.index(dctx["target"]) + 1
        return v

    def combatant_view(self, state: DicePoolState, decision: Decision, index: int, ctx: Ctx) -> Slot:
        cs = state.combatants
        me, c = cs[decision.actor], cs[index]
        rules = state.rules
        dist = abs(c.position - me.position)
        w = c.weapon
        if index == decision.actor:
            engaged = any(o.side != me.side and o.status == Status.ACTIVE
                          and abs(o.position - me.position) <= T.MELEE_REACH for o in cs)
        else:
            engaged = dist <= T.MELEE_REACH
        mw = me.weapon
        band = range_band(mw, dist, rules.shorter_band_on_boundary) if mw is not None and mw.ranged else -1
        p_melee = p_shot = 0.0
        if c.side != me.side and c.status == Status.ACTIVE:
            if engaged:
                p_melee = _p_hit(attack_pool(me, melee_skill(me)), melee_defense(c, rules, me))
            if band >= 0 and mw is not None:
                bonus = rules.aim_bonus if me.aim_target == index else 0
                p_shot = _p_hit(attack_pool(me, mw.skill), shot_defense(c, band, rules) - bonus)
        return Slot(me, c, index != decision.actor, dist, engaged,
                    attack_pool(c, w.skill) if w is not None and w.ranged else 0, band, p_melee, p_shot,
                    ctx.slots_left.get(index, 0), me.aim_target == index, c.aim_target == decision.actor)
