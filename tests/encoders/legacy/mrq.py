"""MRQ observation encoder: the decision context (incoming attack for REACT, margin and role for EFFECT, the
impale choice for OPTION) and one block per combatant (location HP, skill, weapon, reach, distance, states).

Every value is scaled into [-1, 1]; docs/mrq.md lists the layout field by field.
"""

from __future__ import annotations

from npc_tactics.rules.base import Decision, DecisionKind, Status
from npc_tactics.systems.mrq.rules import fighters as F
from npc_tactics.systems.mrq.rules import missiles as M
from npc_tactics.systems.mrq.rules.exchange import damage_passes
from npc_tactics.systems.mrq.rules.state import READY, MRQState
from npc_tactics.systems.mrq.rules.tables import FAILURE, SUCCESS
from tests.encoders.legacy.base import Encoder


class MRQEncoder(Encoder):
    CONTEXT_FIELDS = (
        ("round", "round / max_rounds"),
        ("ca", "this Combat Action's number / 5 (ACT)"),
        ("free_attack", "1 if this CA is the two-weapon free attack (attacks only)"),
        ("reactions_left", "the actor's Reactions left this round / 5"),
        ("charge", "1 if the REACT decision answers a charge (receive or evade)"),
        (
            "opponent_slot",
            "(enemy slot + 1) / 6 of the attacker (REACT) or the opponent (EFFECT, OPTION)",
        ),
        ("precise", "1 if the incoming attack is precise (REACT)"),
        ("opp_weapon_damage", "opponent's weapon maximum damage / 20 (REACT, EFFECT)"),
        ("opp_skill", "opponent's attack skill / 150 (REACT, EFFECT)"),
        ("own_defence", "actor's defence skill / 150"),
        ("margin", "margin of victory / 3 (EFFECT)"),
        ("effects_remaining", "special effects still to pick / 3 (EFFECT)"),
        ("role", "+1 the actor won as attacker, -1 as defender (EFFECT)"),
        ("attacker_succeeded", "1 if the attacker's own roll succeeded (EFFECT)"),
        ("damage_passes", "1 if body damage gets through before effects (EFFECT)"),
        (
            "defence_failed",
            "1 if the defender defended and failed its roll (EFFECT: Expose defender)",
        ),
        ("impale", "1 at the impale leave/pull choice (OPTION)"),
        ("impaled_location_hp", "HP fraction of the impaled location (OPTION)"),
        ("missile", "1 if the exchange is a missile shot (REACT, EFFECT)"),
    )
    COMBATANT_FIELDS = (
        ("present", "1 if the slot holds a combatant"),
        ("active", "1 if ACTIVE, -1 if out of the fight"),
        ("hp", "total HP fraction (positive location HP / max)"),
        ("loc_right_leg", "location HP / location max (negative = wounded below 0)"),
        ("loc_left_leg", "location HP / max"),
        ("loc_abdomen", "location HP / max"),
        ("loc_chest", "location HP / max"),
        ("loc_right_arm", "location HP / max"),
        ("loc_left_arm", "location HP / max"),
        ("loc_head", "location HP / max"),
        ("skill", "current style skill (¾ or unarmed when parts are lost, minus penalties) / 150"),
        ("acrobatics", "Acrobatics (Athletics for quadrupeds) / 150"),
        ("weapon_damage", "maximum damage of the item it strikes with / 20"),
        ("deflection", "mean Deflection Points of its parry item / 20 (0 without DP)"),
        ("reach", "reach of the item it strikes with / 4"),
        (
            "distance",
            "engagement distance to the actor / 2 (0 apart, 0.5 long, 1 close; own side 0)",
        ),
        ("actor_can_strike", "1 if the actor can strike this combatant now"),
        ("can_strike_actor", "1 if this combatant can strike the actor now"),
        ("reactions", "Reactions left / 5"),
        ("cas_left", "Combat Actions left this round / 5"),
        ("lost_ca", "Combat Actions still to lose / 3"),
        ("prone", "1 if prone"),
        ("entangled", "1 if entangled"),
        ("impaled", "weapons stuck in it / 2"),
        ("weapon_ready", "1 if its main weapon is ready"),
        ("offhand_ready", "1 if it has a usable off-hand item (shield or second weapon)"),
        ("armour", "mean armour / 10"),
        ("mounted", "1 if mounted"),
        ("metres", "metres to the actor when apart / 100 (0 when engaged or on the actor's side)"),
        ("missile_range", "range of its ready missile weapon / 100 (0 without one or out of missiles)"),
        ("ammo", "missiles left / 12 (capped at 1)"),
        ("actor_can_shoot", "1 if the actor can shoot this combatant now"),
    )

    def context(self, state: MRQState, decision: Decision) -> list[float]:
        v = [0.0] * len(self.CONTEXT_FIELDS)
        me = state.combatants[decision.actor]
        v[0] = state.round / max(1, state.max_rounds)
        v[3] = me.reactions / 5
        v[9] = F.defence_skill(me) / 150
        ctx = decision.context
        kind = decision.kind
        if kind == DecisionKind.ACT:
            v[1] = ctx.get("ca", 1) / 5
            v[2] = 1.0 if ctx.get("free_attack") else 0.0
            return v
        ex = state.exchange
        if ex is None:
            return v
        opp = ex.attacker if decision.actor == ex.defender else ex.defender
        enemies = state.sides[1 - me.side]
        v[5] = (enemies.index(opp) + 1) / 6 if opp in enemies else 0.0
        o = state.combatants[opp]
        missile = ex.mode == "missile"
        v[18] = 1.0 if missile else 0.0
        v[7] = F.strike_item(o, missile and opp == ex.attacker).max_damage / 20
        v[8] = (
            M.missile_skill(state, opp, decision.actor)
            if missile and opp == ex.attacker
            else F.attack_skill(state, opp, decision.actor)
        ) / 150
        if kind == DecisionKind.REACT:
            v[4] = 1.0 if ctx.get("charge") else 0.0
            v[6] = 1.0 if ex.halvings else 0.0
        elif kind == DecisionKind.EFFECT:
            v[10] = ex.margin / 3
            v[11] = ex.effects_left / 3
            v[12] = 1.0 if ex.winner == 0 else -1.0
            v[13] = 1.0 if ex.att_level >= SUCCESS else 0.0
            v[14] = 1.0 if damage_passes(state, ex) else 0.0
            v[15] = 1.0 if ex.defence in ("defend", "precise") and ex.def_level <= FAILURE else 0.0
        else:
            v[16] = 1.0
            loc = max(ex.location, 0)
            v[17] = o.loc_hp[loc] / o.prof.loc_max[loc]
        return v

    def combatant(self, state: MRQState, decision: Decision, index: int) -> list[float]:
        c = state.combatants[index]
        a = decision.actor
        p = c.prof
        active = c.status == Status.ACTIVE
        _, item = F.attack_item(c)
        _, pitem = F.parry_item(c)
        dp = 0.0
        if F.has_dp(c):
            dp = pitem.ap if pitem.kind == "shield" else pitem.bonus + sum(n * (s + 1) / 2 for n, s in pitem.dice)
        enemy = c.side != state.combatants[a].side
        out = [1.0, 1.0 if active else -1.0, c.hp / c.max_hp]
        out.extend(h / m for h, m in zip(c.loc_hp, p.loc_max, strict=True))
        out += [
            F.base_skill(c) / 150 - F.penalty(c) / 150,
            F.acrobatics(c) / 150,
            item.max_damage / 20,
            dp / 20,
            item.reach / 4,
            state.distance(a, index) / 2 if enemy else 0.0,
            1.0 if enemy and active and F.can_strike(state, a, index) else 0.0,
            1.0 if enemy and active and F.can_strike(state, index, a) else 0.0,
            c.reactions / 5,
            max(0, c.cas - c.ca_done) / 5,
            min(c.lost_ca, 3) / 3,
            float(c.prone),
            float(c.entangled_by >= 0),
            c.impaled / 2,
            float(c.weapon_state == READY),
            float(F.off_usable(c)),
            sum(F.armour_at(c, k) for k in range(7)) / 70,
            float(p.mounted),
        ]
        if enemy and state.dist[a * state.n + index] == 0:
            out.append(min(1.0, state.gap[a * state.n + index] / 100))
        else:
            out.append(0.0)
        w = p.missile
        ready = w is not None and c.ammo > 0 and c.missile_state == READY
        out.append(w.range / 100 if ready else 0.0)  # type: ignore[union-attr]  # ready implies w is not None
        out.append(min(1.0, c.ammo / 12))
        me = state.combatants[a]
        out.append(
            1.0
            if enemy
            and active
            and me.prof.missile is not None
            and M.in_range(state, a, index)
            and M.can_shoot(state, a)
            else 0.0
        )
        return out
