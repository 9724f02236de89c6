"""MRQ observation encoder: the decision context (incoming attack for REACT, margin and role for EFFECT, the
impale choice for OPTION) and one block per combatant (location HP, skill, weapon, reach, distance, states).

Every value is scaled into [-1, 1]; docs/mrq.md's observation table is generated from these declarations.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from npc_tactics.encoders.base import Decl, Encoder, Field, flag
from npc_tactics.rules.base import Decision, DecisionKind, Status
from npc_tactics.systems.mrq.rules import fighters as F
from npc_tactics.systems.mrq.rules import missiles as M
from npc_tactics.systems.mrq.rules.exchange import damage_passes
from npc_tactics.systems.mrq.rules.state import READY, Exchange, MRQCombatant, MRQState, Weapon
from npc_tactics.systems.mrq.rules.tables import FAILURE, LOCATIONS, SUCCESS

_ACT, _REACT, _EFFECT, _OPTION = DecisionKind.ACT, DecisionKind.REACT, DecisionKind.EFFECT, DecisionKind.OPTION


@dataclass(slots=True)
class Ctx:
    st: MRQState
    actor: int
    me: MRQCombatant
    kind: DecisionKind
    dctx: Mapping[str, Any]
    ex: Exchange | None = None  # the exchange, at a REACT, EFFECT or OPTION decision only
    opp: int = -1  # the actor's opponent in it
    missile: bool = False
    opp_shoots: bool = False  # the opponent is the one shooting


@dataclass(slots=True)
class Slot:
    st: MRQState
    actor: int
    index: int
    c: MRQCombatant
    enemy: bool
    active: bool
    item: Weapon  # what it strikes with
    deflection: float


def _exchange(name: str, description: str, unit: str, scale: float, kind: DecisionKind | None,
              read: Callable[[Ctx, Exchange], float]) -> Field[Ctx]:
    """A context field read only when there is an exchange (and, with ``kind``, at that decision kind)."""
    def value(v: Ctx) -> float:
        ex = v.ex
        if ex is None or (kind is not None and v.kind != kind):
            return 0.0
        return read(v, ex)
    return Field(name, description, unit, scale, value)


def _loc(k: int, name: str) -> Field[Slot]:
    return Field(f"loc_{name}", "location HP / location max (negative = wounded below 0)", "fraction", 1.0,
                 lambda v: v.c.loc_hp[k] / v.c.prof.loc_max[k])


def _opp_skill(v: Ctx, ex: Exchange) -> float:
    if v.opp_shoots:
        return M.missile_skill(v.st, v.opp, v.actor)
    return F.attack_skill(v.st, v.opp, v.actor)


def _missile_range(v: Slot) -> float:
    w = v.c.prof.missile
    return w.range if w is not None and v.c.ammo > 0 and v.c.missile_state == READY else 0.0


class MRQEncoder(Encoder[MRQState, Ctx, Slot]):
    """The MRQ declarations; docs/mrq.md's observation table is generated from them."""

    CONTEXT: ClassVar[Sequence[Decl[Ctx]]] = (
        Field("round", "round / max_rounds", "fraction", 1.0, lambda v: v.st.round / max(1, v.st.max_rounds)),
        Field("ca", "this Combat Action's number (ACT)", "CA", 5.0,
              lambda v: v.dctx.get("ca", 1) if v.kind == _ACT else 0.0),
        flag("free_attack", "1 if this CA is the two-weapon free attack (attacks only)",
             lambda v: v.kind == _ACT and bool(v.dctx.get("free_attack"))),
        Field("reactions_left", "the actor's Reactions left this round", "Reactions", 5.0, lambda v: v.me.reactions),
        _exchange("charge", "1 if the REACT decision answers a charge (receive or evade)", "flag", 1.0, _REACT,
                  lambda v, ex: bool(v.dctx.get("charge"))),
        _exchange("opponent_slot", "enemy slot + 1 of the attacker (REACT) or the opponent (EFFECT, OPTION)",
                  "slot + 1", 6.0, None, lambda v, ex: _opponent_slot(v)),
        _exchange("precise", "1 if the incoming attack is precise (REACT)", "flag", 1.0, _REACT,
                  lambda v, ex: bool(ex.halvings)),
        _exchange("opp_weapon_damage", "opponent's weapon maximum damage (REACT, EFFECT)", "HP", 20.0, None,
                  lambda v, ex: F.strike_item(v.st.combatants[v.opp], v.opp_shoots).max_damage),
        _exchange("opp_skill", "opponent's attack skill (REACT, EFFECT)", "%", 150.0, None, _opp_skill),
        Field("own_defence", "actor's defence skill", "%", 150.0, lambda v: F.defence_skill(v.me)),
        _exchange("margin", "margin of victory (EFFECT)", "levels", 3.0, _EFFECT, lambda v, ex: ex.margin),
        _exchange("effects_remaining", "special effects still to pick (EFFECT)", "effects", 3.0, _EFFECT,
                  lambda v, ex: ex.effects_left),
        _exchange("role", "+1 the actor won as attacker, -1 as defender (EFFECT)", "flag", 1.0, _EFFECT,
                  lambda v, ex: 1.0 if ex.winner == 0 else -1.0),
        _exchange("attacker_succeeded", "1 if the attacker's own roll succeeded (EFFECT)", "flag", 1.0, _EFFECT,
                  lambda v, ex: ex.att_level >= SUCCESS),
        _exchange("damage_passes", "1 if body damage gets through before effects (EFFECT)", "flag", 1.0, _EFFECT,
                  lambda v, ex: damage_passes(v.st, ex)),
        _exchange("defence_failed", "1 if the defender defended and failed its roll (EFFECT: Expose defender)",
                  "flag", 1.0, _EFFECT,
                  lambda v, ex: ex.defence in ("defend", "precise") and ex.def_level <= FAILURE),
        _exchange("impale", "1 at the impale leave/pull choice (OPTION)", "flag", 1.0, _OPTION,
                  lambda v, ex: True),
        _exchange("impaled_location_hp", "HP fraction of the impaled location (OPTION)", "fraction", 1.0,
                  _OPTION, lambda v, ex: _impaled_hp(v, ex)),
        _exchange("missile", "1 if the exchange is a missile shot (REACT, EFFECT)", "flag", 1.0, None,
                  lambda v, ex: v.missile),
    )
    COMBATANT: ClassVar[Sequence[Decl[Slot]]] = (
        flag("present", "1 if the slot holds a combatant", lambda v: 1.0),
        flag("active", "1 if ACTIVE, -1 if out of the fight", lambda v: 1.0 if v.active else -1.0),
        Field("hp", "total HP fraction (positive location HP / max)", "fraction", 1.0,
              lambda v: v.c.hp / v.c.max_hp),
        *(_loc(k, name) for k, name in enumerate(LOCATIONS)),
        Field("skill", "current style skill (¾ or unarmed when parts are lost) minus penalties", "%", 150.0,
              lambda v: F.base_skill(v.c) - F.penalty(v.c)),
        Field("acrobatics", "Acrobatics (Athletics for quadrupeds)", "%", 150.0, lambda v: F.acrobatics(v.c)),
        Field("weapon_damage", "maximum damage of the item it strikes with", "HP", 20.0,
              lambda v: v.item.max_damage),
        Field("deflection", "mean Deflection Points of its parry item (0 without DP)", "DP", 20.0,
              lambda v: v.deflection),
        Field("reach", "reach of the item it strikes with", "reach", 4.0, lambda v: v.item.reach),
        Field("distance", "engagement distance to the actor (0 apart, 1 long, 2 close; own side 0)", "steps",
              2.0, lambda v: v.st.distance(v.actor, v.index) if v.enemy else 0.0),
        flag("actor_can_strike", "1 if the actor can strike this combatant now",
             lambda v: v.enemy and v.active and F.can_strike(v.st, v.actor, v.index)),
        flag("can_strike_actor", "1 if this combatant can strike the actor now",
             lambda v: v.enemy and v.active and F.can_strike(v.st, v.index, v.actor)),
        Field("reactions", "Reactions left", "Reactions", 5.0, lambda v: v.c.reactions),
        Field("cas_left", "Combat Actions left this round", "CA", 5.0, lambda v: max(0, v.c.cas - v.c.ca_done)),
        Field("lost_ca", "Combat Actions still to lose (capped at 3)", "CA", 3.0, lambda v: v.c.lost_ca),
        flag("prone", "1 if prone", lambda v: v.c.prone),
        flag("entangled", "1 if entangled", lambda v: v.c.entangled_by >= 0),
        Field("impaled", "weapons stuck in it", "weapons", 2.0, lambda v: v.c.impaled),
        flag("weapon_ready", "1 if its main weapon is ready", lambda v: v.c.weapon_state == READY),
        flag("offhand_ready", "1 if it has a usable off-hand item (shield or second weapon)",
             lambda v: F.off_usable(v.c)),
        Field("armour", "armour points summed over its 7 locations (mean armour / 10)", "AP", 70.0,
              lambda v: sum(F.armour_at(v.c, k) for k in range(len(LOCATIONS)))),
        flag("mounted", "1 if mounted", lambda v: v.c.prof.mounted),
        Field("metres", "metres to the actor when apart (capped at 100; 0 when engaged or on the actor's side)",
              "m", 100.0, lambda v: v.st.metres(v.actor, v.index)
              if v.enemy and v.st.distance(v.actor, v.index) == 0 else 0.0),
        Field("missile_range", "range of its ready missile weapon (0 without one or out of missiles)", "m",
              100.0, _missile_range),
        Field("ammo", "missiles left (capped at 12)", "missiles", 12.0, lambda v: v.c.ammo),
        flag("actor_can_shoot", "1 if the actor can shoot this combatant now",
             lambda v: v.enemy and v.active and v.st.combatants[v.actor].prof.missile is not None
             and M.in_range(v.st, v.actor, v.index) and M.can_shoot(v.st, v.actor)),
    )

    def context_view(self, state: MRQState, decision: Decision) -> Ctx:
        actor = decision.actor
        v = Ctx(state, actor, state.combatants[actor], decision.kind, decision.context)
        ex = state.exchange
        if decision.kind != _ACT and ex is not None:
            v.ex = ex
            v.opp = ex.attacker if actor == ex.defender else ex.defender
            v.missile = ex.mode == "missile"
            v.opp_shoots = v.missile and v.opp == ex.attacker
        return v

    def combatant_view(self, state: MRQState, decision: Decision, index: int, ctx: Ctx) -> Slot:
        c = state.combatants[index]
        _, item = F.attack_item(c)
        dp = 0.0
        if F.has_dp(c):
            _, pitem = F.parry_item(c)
            if pitem.kind == "shield":
                dp = float(pitem.ap)
            else:  # a float start: compiled, sum() over floats is typed int and raises
                dp = pitem.bonus + sum((n * (s + 1) / 2 for n, s in pitem.dice), 0.0)
        return Slot(state, ctx.actor, index, c, c.side != ctx.me.side, c.status == Status.ACTIVE, item, dp)


def _opponent_slot(v: Ctx) -> float:
    enemies = v.st.sides[1 - v.me.side]
    return enemies.index(v.opp) + 1 if v.opp in enemies else 0.0


def _impaled_hp(v: Ctx, ex: Exchange) -> float:
    o = v.st.combatants[v.opp]
    loc = max(ex.location, 0)
    return o.loc_hp[loc] / o.prof.loc_max[loc]
