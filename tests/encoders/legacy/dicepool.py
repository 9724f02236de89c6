"""Observation encoder of the dice-pool system (docs/dicepool.md, "Observation layout").

Context: the slot's place in the game turn (T.A., local rank, who acts next) and the SPLIT/OPTION context
(pool, target DEFENSE, aim bonus, exact hit chances). Per combatant: location HP, distance, DEFENSE and
dice moved to it, pools, postures and cover, slots left this game turn. Every value is scaled into [-1, 1].
"""

from __future__ import annotations

from typing import Any

from npc_tactics.rules.base import Decision, DecisionKind, Status
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
from npc_tactics.systems.dicepool.rules.pool import hit_table
from tests.encoders.legacy.base import Encoder

_MAX_NEED = 40
_NEXT = ("self", "ally", "enemy", "new_turn")


def _p_hit(dice: int, needed: int) -> float:
    """P(successes ≥ needed) from pool.hit_table (built on first use, not at import: issue 8 §5)."""
    return hit_table(T.MAX_POOL, _MAX_NEED)[max(0, min(dice, T.MAX_POOL))][max(0, min(needed, _MAX_NEED))]


class DicePoolEncoder(Encoder):
    """Encodes a :class:`~npc_tactics.systems.dicepool.rules.state.DicePoolState` from the acting combatant."""

    CONTEXT_FIELDS = (
        ("round", "game turn / max_rounds"),
        ("ta", "Action Turn of this slot / number of T.A. this game turn"),
        ("local_rank", "local action rank inside the T.A. / 5 (5 = start)"),
        ("n_ta", "Action Turns this game turn / 5"),
        ("slots_left", "slots the actor still holds this game turn after this one / 4"),
        ("next_self", "1 if the actor holds the next slot"),
        ("next_ally", "1 if an ally holds the next slot"),
        ("next_enemy", "1 if an enemy holds the next slot"),
        ("next_new_turn", "1 if this is the last slot of the game turn (next: new initiative)"),
        ("pool", "SPLIT/OPTION: dice in the attack pool / 12"),
        (
            "target_defense",
            "SPLIT: target's melee DEFENSE / 12; OPTION: DEFENSE the shot must reach / 20",
        ),
        ("aim_bonus", "OPTION: successes added by a slot spent aiming / 4"),
        ("target_slot", "SPLIT/OPTION: (enemy slot of the target + 1) / 6"),
        ("p_hit_all", "SPLIT/OPTION: exact chance to hit with the whole pool (no location aim)"),
        ("p_hit_aimed", "OPTION: exact chance to hit aiming at a location (-2 dice)"),
    )
    COMBATANT_FIELDS = (
        ("present", "1 if the slot holds a combatant"),
        ("active", "1 if active, -1 if dead, 0 otherwise (unconscious, fled...)"),
        ("hp", "HP / max HP (sum of positive location HP)"),
        ("max_hp", "max HP / 80"),
        *((f"loc_{n}", f"{n} HP / its max (negative: below zero)") for n in T.LOCATIONS),
        ("distance", "distance to the actor / 50 m"),
        ("engaged", "1 if within melee reach of the actor (self: of any enemy)"),
        ("defense", "base DEFENSE / 12"),
        ("defense_dice", "dice moved to DEFENSE, until its next slot / 12"),
        ("melee_pool", "dice to strike with (weapon skill or brawl, minus arm wounds) / 12"),
        ("shoot_pool", "dice to shoot with the readied ranged weapon / 12 (0 if none)"),
        ("can_shoot", "1 if its readied ranged weapon is loaded with ammunition"),
        ("weapon_damage", "mean damage of the readied weapon / 12"),
        ("strength", "STRENGTH / 6"),
        ("initiative", "Initiative pool / 12"),
        ("coordination", "COORDINATION / 10"),
        ("slots_left", "slots it still holds this game turn after the current one / 4"),
        ("posture", "posture / 2 (0 standing, 0.5 kneeling, 1 prone)"),
        ("concealment", "cover taken / 2 (half, three quarters)"),
        ("cover_available", "best cover available where it stands / 2 (its cover spot, within 0.5 m)"),
        ("moving", "1 if moving (+1 DEFENSE against shots)"),
        ("aimed_by_actor", "1 if the actor has spent a slot aiming at it"),
        ("aiming_at_actor", "1 if it has spent a slot aiming at the actor"),
        ("metal", "fraction of its locations under metal armour"),
        ("electric", "1 if its readied weapon is electric"),
        (
            "shot_band",
            "range band of the actor's readied ranged weapon to it / 3 (-1: out of range or none)",
        ),
        ("p_hit_melee", "exact chance the actor's full melee pool hits it (enemies only)"),
        ("p_hit_shot", "exact chance the actor's full shooting pool hits it (enemies only)"),
        ("armour", "mean armour points over its locations / 5 (absorb non-electric damage, D14)"),
        ("behind", "1 if the actor stands behind it (its rear DEFENSE applies, D6; self: 0)"),
        ("facing_actor", "1 if it faces the actor's side of the line (self: 0)"),
    )

    def context(self, state: Any, decision: Decision) -> list[float]:
        ctx = decision.context
        counts: dict[int, int] = {}
        for _, c in state.queue[state.slot + 1 :]:
            counts[c] = counts.get(c, 0) + 1
        self._slots_left = counts
        out = [
            state.round / state.max_rounds,
            0.0,
            0.0,
            state.n_ta / 5,
            counts.get(decision.actor, 0) / 4,
        ]
        if decision.kind == DecisionKind.ACT:
            out[1] = ctx["ta"] / state.n_ta
            out[2] = ctx["local_rank"] / 5
        nxt = ctx.get("next") or self.engine.next_relation(state)  # type: ignore[attr-defined]  # a DicePoolEngine method; engine is typed as the base Engine
        out.extend(1.0 if nxt == n else 0.0 for n in _NEXT)
        pool = need = bonus = slot = p_all = p_aimed = 0.0
        if decision.kind == DecisionKind.SPLIT:
            pool, need = ctx["pool"], ctx["defense"]
            p_all = _p_hit(ctx["pool"], ctx["defense"])
            need /= 12
        elif decision.kind == DecisionKind.OPTION:
            pool, bonus = ctx["pool"], ctx["aim_bonus"]
            p_all = _p_hit(ctx["pool"], ctx["needed"] - ctx["aim_bonus"])
            p_aimed = _p_hit(ctx["pool"] - T.LOCATION_AIM_DICE, ctx["needed"] - ctx["aim_bonus"])
            need = ctx["needed"] / 20
        if decision.kind in (DecisionKind.SPLIT, DecisionKind.OPTION):
            enemies = [i for i, c in enumerate(state.combatants) if c.side != decision.side]
            slot = (enemies.index(ctx["target"]) + 1) / 6
        out.extend([pool / 12, need, bonus / 4, slot, p_all, p_aimed])
        return out

    def combatant(self, state: Any, decision: Decision, index: int) -> list[float]:
        cs = state.combatants
        me = cs[decision.actor]
        c = cs[index]
        rules = state.rules
        dist = abs(c.position - me.position)
        w = c.weapon
        enemy = c.side != me.side
        if index == decision.actor:
            engaged = any(
                o.side != me.side
                and o.status == Status.ACTIVE
                and abs(o.position - me.position) <= T.MELEE_REACH
                for o in cs
            )
        else:
            engaged = dist <= T.MELEE_REACH
        shoot_pool = attack_pool(c, w.skill) if w is not None and w.ranged else 0
        mw = me.weapon
        band = (
            range_band(mw, dist, rules.shorter_band_on_boundary)
            if mw is not None and mw.ranged
            else -1
        )
        p_melee = p_shot = 0.0
        if enemy and c.status == Status.ACTIVE:
            if engaged:
                p_melee = _p_hit(attack_pool(me, melee_skill(me)), melee_defense(c, rules, me))
            if band >= 0:
                bonus = rules.aim_bonus if me.aim_target == index else 0
                p_shot = _p_hit(attack_pool(me, mw.skill), shot_defense(c, band, rules) - bonus)
        status = 1.0 if c.status == Status.ACTIVE else (-1.0 if c.status == Status.DEAD else 0.0)
        return [
            1.0,
            status,
            c.hp / c.max_hp,
            c.max_hp / 80,
            *(h / m for h, m in zip(c.loc_hp, c.loc_max, strict=True)),
            dist / 50,
            1.0 if engaged else 0.0,
            c.defense / 12,
            c.defense_dice / 12,
            attack_pool(c, melee_skill(c)) / 12,
            shoot_pool / 12,
            1.0
            if shoot_pool and c.ammo[c.readied] != 0 and (not w.reload or c.loaded[c.readied])
            else 0.0,
            (_mean(w.damage) if w is not None else 0.0) / 12,
            c.strength / 6,
            c.initiative / 12,
            c.coordination / 10,
            self._slots_left.get(index, 0) / 4,
            c.posture / 2,
            c.concealment / 2,
            cover_at(c) / 2,
            1.0 if c.moving else 0.0,
            1.0 if me.aim_target == index else 0.0,
            1.0 if c.aim_target == decision.actor else 0.0,
            sum(c.metal) / len(c.metal),
            1.0 if w is not None and w.electric else 0.0,
            band / 3 if band >= 0 else -1.0,
            p_melee,
            p_shot,
            sum(c.protection) / len(c.protection) / 5,
            1.0 if index != decision.actor and behind(c, me) else 0.0,
            1.0 if index != decision.actor and c.facing != 0 and not behind(c, me) and dist > 0 else 0.0,
        ]


def _mean(expr: str) -> float:
    from npc_tactics.dice import parse

    return parse(expr).mean
