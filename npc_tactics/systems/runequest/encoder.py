"""RQG observation encoder: the fight seen from the acting combatant, every value in [-1, 1]
(docs/runequest.md).

Context: round, decision step, own SR budget, the incoming blow (REACT: who attacks, with what weapon class, at
which SR, missile or aimed), the spell being powered (OPTION). Per combatant: standing, HP/MP/Rune points,
position, engagement, SR, skills, defences left this round, fumble penalties, ready weapons, armour, wounds,
spells in effect, and whether it is the one attacking the actor right now. Other combatants' statements of
intent are hidden.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from npc_tactics.dice import parse
from npc_tactics.encoders.base import Decl, Encoder, Field, OneHot, flag, one_hot
from npc_tactics.rules.base import Decision, DecisionKind, Status
from npc_tactics.systems.runequest.rules import tables as T
from npc_tactics.systems.runequest.rules.damage import split_damage
from npc_tactics.systems.runequest.rules.resolve import DODGE, PARRY, defence_chance
from npc_tactics.systems.runequest.rules.state import Combatant, Incoming, Intent, RQState

WCLASSES = ("light", "medium", "great", "shield", "missile", "natural")
SPELL_NAMES = tuple(T.SPELLS)


def _max_damage(c: Combatant, w: int) -> int:
    dice, mod, dmax = split_damage(c.weapons[w].spec.damage)
    return dmax + mod + (parse(c.spec.db).maximum if c.spec.db else 0)


@dataclass(slots=True)
class Ctx:
    st: RQState
    me: Combatant
    kind: DecisionKind
    it: Intent | None
    max_rounds: int
    inc: Incoming | None  # the incoming blow, at a REACT decision only
    inc_max_damage: int = 0
    inc_class: str = ""
    parry: int = 0
    dodge: int = 0


@dataclass(slots=True)
class Slot:
    c: Combatant
    other: bool  # not the actor
    offset: float
    distance: float
    lose_dodge: bool
    attacking_me: bool
    best_sr: int
    best_skill: int
    best_parry: int
    best_damage: int
    great: bool
    shield: bool
    missile: bool
    armour: float  # mean armour per location
    worst: float  # largest location damage / that location's HP
    useless: int  # useless or severed limbs


def _spell(v: Ctx) -> str | None:
    return v.it.spell if v.kind == DecisionKind.OPTION and v.it is not None else None


class RuneQuestEncoder(Encoder[RQState, Ctx, Slot]):
    """The RQG declarations; docs/runequest.md's observation table is generated from them."""

    CONTEXT: ClassVar[Sequence[Decl[Ctx]]] = (
        Field("round", "round / max_rounds", "fraction", 1.0, lambda v: v.st.round / v.max_rounds),
        Field("rounds_left", "(max_rounds - round) / max_rounds", "fraction", 1.0,
              lambda v: (v.max_rounds - v.st.round) / v.max_rounds),
        flag("declare_first", "1 at the statement of intent (first step)",
             lambda v: v.kind == DecisionKind.DECLARE and v.st.phase == "declare"),
        flag("declare_then", "1 at the step after a spell (strike, fire, second spell or nothing more)",
             lambda v: v.st.phase == "then"),
        flag("option_aim", "1 when choosing the location of an aimed blow",
             lambda v: v.kind == DecisionKind.OPTION and v.it is not None and v.it.verb == "aimed"),
        flag("option_power", "1 when choosing how many points to put in a spell",
             lambda v: v.kind == DecisionKind.OPTION and v.it is not None and v.it.verb != "aimed"),
        flag("engaged", "1 if the actor started the round engaged (attack and defend, or defend and cast)",
             lambda v: v.me.engaged_start),
        Field("sr_used", "SR of the actor's last declared step (then and power steps)", "SR", 12.0,
              lambda v: v.it.sr_used if v.it is not None else 0.0),
        Field("incoming_sr", "REACT: strike rank of the incoming blow", "SR", 12.0,
              lambda v: v.inc.sr if v.inc is not None else 0.0),
        Field("incoming_skill", "REACT: the attacker's chance (after aim and range)", "%", 100.0,
              lambda v: v.inc.skill if v.inc is not None else 0.0),
        Field("incoming_max_damage", "REACT: the attacking weapon's maximum damage with db", "HP", 30.0,
              lambda v: v.inc_max_damage),
        flag("incoming_missile", "REACT: 1 for a missile (only a shield parries, no dodge)",
             lambda v: v.inc is not None and v.inc.missile),
        flag("incoming_aimed", "REACT: 1 for an aimed blow", lambda v: v.inc is not None and v.inc.aimed_loc >= 0),
        flag("incoming_knockback", "REACT: 1 for a knockback attempt",
             lambda v: v.inc is not None and v.inc.knockback),
        one_hot("incoming_class_", WCLASSES, "REACT: 1 if the attacking weapon's class is {}".format,
                lambda v: v.inc_class),
        Field("parry_chance", "REACT: the actor's best current parry chance (with the successive -20%)", "%",
              100.0, lambda v: v.parry),
        Field("dodge_chance", "REACT: the actor's current dodge chance", "%", 100.0, lambda v: v.dodge),
        one_hot("spell_", SPELL_NAMES, "OPTION power: 1 if the spell being powered is {}".format, _spell),
    )
    COMBATANT: ClassVar[Sequence[Decl[Slot]]] = (
        flag("present", "1 if the slot holds a combatant", lambda v: 1.0),
        OneHot((("active", "1 if still fighting", (Status.ACTIVE,)),
                ("unconscious", "1 if unconscious", (Status.UNCONSCIOUS,)),
                ("incapacitated", "1 if conscious but out of the fight", (Status.INCAPACITATED,)),
                ("dead", "1 if dead", (Status.DEAD,)),
                ("fled", "1 if fled", (Status.FLED,))), lambda v: v.c.status),
        Field("hp", "total HP / max HP", "fraction", 1.0, lambda v: v.c.hp / v.c.max_hp if v.c.max_hp else 0.0),
        Field("max_hp", "max HP", "HP", 30.0, lambda v: v.c.max_hp),
        Field("mp", "magic points", "MP", 20.0, lambda v: v.c.mp),
        Field("rune_points", "Rune points", "Rune points", 5.0, lambda v: v.c.rune_points),
        Field("offset", "signed distance from the actor (+ = towards the enemies' starting side)", "m", 30.0,
              lambda v: v.offset),
        Field("distance", "distance from the actor", "m", 30.0, lambda v: v.distance),
        flag("in_reach", "1 if within 2 m of the actor (melee reach)",
             lambda v: v.distance <= T.MELEE_REACH_M and v.other),
        flag("engaged", "1 if engaged at the start of the round", lambda v: v.c.engaged_start),
        Field("dex_sr", "DEX SR", "SR", 5.0, lambda v: v.c.spec.dex_sr),
        Field("melee_sr", "DEX SR + SIZ SR + best ready melee weapon SR", "SR", 12.0, lambda v: v.best_sr),
        Field("attack_skill", "best ready weapon skill", "%", 100.0, lambda v: v.best_skill),
        Field("parry_skill", "best current parry chance", "%", 100.0, lambda v: v.best_parry),
        Field("dodge", "current dodge chance", "%", 100.0,
              lambda v: defence_chance(v.c, DODGE, -1) if v.c.spec.dodge else 0.0),
        Field("parries_used", "parries made this round", "parries", 4.0, lambda v: v.c.parries),
        Field("dodges_used", "dodges made this round", "dodges", 4.0, lambda v: v.c.dodges),
        flag("lose_parry", "1 if a fumble costs its next parry", lambda v: v.c.lose_parry),
        flag("lose_attack", "1 if a fumble costs its next attack", lambda v: v.c.lose_attack),
        flag("lose_dodge", "1 if a fumble (13-15) stops its dodges this round and the next",
             lambda v: v.lose_dodge),
        flag("prone", "1 if on the ground (useless leg, abdomen at >= its HP, knocked down)",
             lambda v: v.c.prone),
        Field("max_damage", "maximum damage of its best ready weapon with db", "HP", 30.0,
              lambda v: v.best_damage),
        flag("great_weapon", "1 if a great (two-handed) weapon is ready", lambda v: v.great),
        flag("shield_ready", "1 if a shield is ready", lambda v: v.shield),
        flag("missile_ready", "1 if it holds a missile weapon with ammunition", lambda v: v.missile),
        Field("armour", "mean armour per location", "AP", 10.0, lambda v: v.armour),
        Field("worst_wound", "largest location damage / that location's HP", "fraction", 3.0, lambda v: v.worst),
        Field("useless_limbs", "useless or severed limbs", "limbs", 2.0, lambda v: v.useless),
        flag("bleeding", "1 if bleeding", lambda v: bool(v.c.bleed_clock or v.c.bleed_per_round)),
        Field("bladesharp", "Bladesharp points", "points", 4.0,
              lambda v: v.c.bladesharp if v.c.bladesharp_rounds else 0.0),
        Field("protection", "Protection points + 2 x Shield points", "points", 8.0,
              lambda v: v.c.protection + 2 * v.c.shield_spell),
        flag("truesword", "1 if Truesword is on", lambda v: bool(v.c.truesword_rounds)),
        flag("befuddled", "1 if befuddled", lambda v: bool(v.c.befuddled_rounds)),
        flag("busy", "1 if committed to an action slipping from an earlier round",
             lambda v: bool(v.c.busy_rounds or v.c.carried)),
        flag("attacking_me", "REACT: 1 if this combatant's blow is the incoming one", lambda v: v.attacking_me),
    )

    def context_view(self, state: RQState, decision: Decision) -> Ctx:
        st = state
        me = st.combatants[decision.actor]
        kind = decision.kind
        inc = st.incoming if kind == DecisionKind.REACT else None
        ctx = Ctx(st, me, kind, me.intent, st.max_rounds or 1, inc)
        if inc is not None:
            a = st.combatants[inc.attacker]
            ctx.inc_max_damage = _max_damage(a, inc.weapon)
            ctx.inc_class = a.weapons[inc.weapon].spec.wclass
            ctx.parry = max((defence_chance(me, PARRY, w) for w, wp in enumerate(me.weapons)
                             if me.ready >> w & 1 and wp.spec.parry and wp.hp > 0), default=0)
            ctx.dodge = defence_chance(me, DODGE, -1)
        return ctx

    def combatant_view(self, state: RQState, decision: Decision, index: int, ctx: Ctx) -> Slot:
        me, c = ctx.me, state.combatants[index]
        best_sr, best_skill, best_parry, best_damage = 12, 0, 0, 0
        great = shield = missile = False
        for w, wp in enumerate(c.weapons):
            if not c.ready >> w & 1 or (wp.hp <= 0 and wp.spec.max_hp > 0):
                continue
            spec = wp.spec
            if spec.kind in ("missile", "thrown"):
                if wp.ammo > 0:
                    missile = True
            else:
                best_sr = min(best_sr, c.spec.dex_sr + c.spec.siz_sr + spec.sr)
            best_skill = max(best_skill, spec.skill)
            best_damage = max(best_damage, _max_damage(c, w))
            if spec.parry:
                best_parry = max(best_parry, defence_chance(c, PARRY, w))
            if spec.kind == "shield":
                shield = True
            if spec.wclass == "great":
                great = True
        armour, worst, useless = 0, 0.0, 0
        for loc in c.locations:  # one pass for the three location fields
            armour += loc.spec.armour
            worst = max(worst, loc.damage / loc.spec.max_hp)
            useless += loc.useless
        inc = ctx.inc
        return Slot(c, index != decision.actor, (c.pos - me.pos) if me.side == 0 else (me.pos - c.pos),
                    abs(c.pos - me.pos), c.no_dodge_until >= state.round, inc is not None and inc.attacker == index,
                    best_sr, best_skill, best_parry, best_damage, great, shield, missile,
                    armour / len(c.locations), worst, useless)
