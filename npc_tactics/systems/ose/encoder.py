"""OSE observation encoder: the fight seen from the acting combatant, every value in [-1, 1] (docs/ose.md).

Context: round, step one-hot, initiative, own declaration. Per combatant: standing, HP, AC, THAC0, distance and
reach from the actor, weapons, movement, declarations, spells, morale and cover.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from npc_tactics.encoders.base import Decl, Encoder, Field, OneHot, flag, one_hot
from npc_tactics.rules.base import Decision, Status
from npc_tactics.systems.ose.rules.state import (
    DECL_CAST,
    DECL_RETREAT,
    DECL_WITHDRAW,
    STAGE_DECLARE,
    Combatant,
    OSEState,
)


@dataclass(slots=True)
class Ctx:
    st: OSEState
    me: Combatant
    phase: str
    initiative: float
    max_rounds: int


@dataclass(slots=True)
class Slot:
    c: Combatant
    other: bool  # not the actor
    offset: int
    distance: int
    has_missile: bool


_PHASES = {"declare": "1 if declaring (before initiative)", "move": "1 in the movement step",
           "missile": "1 in the missile step", "melee": "1 in the melee step",
           "slow": "1 in the slow-weapon step at the end of the round"}


class OSEEncoder(Encoder[OSEState, Ctx, Slot]):
    """The OSE declarations; docs/ose.md's observation table is generated from them."""

    CONTEXT: ClassVar[Sequence[Decl[Ctx]]] = (
        Field("round", "round / max_rounds", "fraction", 1.0, lambda v: v.st.round / v.max_rounds),
        one_hot("phase_", tuple(_PHASES), _PHASES.__getitem__, lambda v: v.phase),
        flag("initiative", "+1 if the actor's side acts first this round, -1 if second, 0 tie / not rolled yet",
             lambda v: v.initiative),
        flag("simultaneous", "1 if the current step resolves both sides at once (initiative tie)",
             lambda v: v.st.simul),
        flag("declared_withdraw", "1 if the actor declared a fighting withdrawal this round",
             lambda v: v.me.declared == DECL_WITHDRAW),
        flag("declared_retreat", "1 if the actor declared a retreat this round",
             lambda v: v.me.declared == DECL_RETREAT),
        Field("rounds_left", "(max_rounds - round) / max_rounds", "fraction", 1.0,
              lambda v: (v.max_rounds - v.st.round) / v.max_rounds),
    )
    COMBATANT: ClassVar[Sequence[Decl[Slot]]] = (
        flag("present", "1 if the slot holds a combatant", lambda v: 1.0),
        OneHot((("active", "1 if still fighting", (Status.ACTIVE,)),
                ("dead", "1 if dead", (Status.DEAD,)),
                ("fled", "1 if fled (retreat off the field or morale failure)", (Status.FLED,)),
                ("out", "1 if held or asleep (incapacitated)", (Status.INCAPACITATED, Status.UNCONSCIOUS))),
               lambda v: v.c.status),
        Field("hp", "current hit points / max hit points", "fraction", 1.0,
              lambda v: v.c.hp / v.c.max_hp if v.c.max_hp else 0.0),
        Field("max_hp", "max hit points", "HP", 30.0, lambda v: v.c.max_hp),
        Field("ac", "9 - descending AC (higher = harder to hit)", "AC points", 10.0, lambda v: 9 - v.c.prof.ac),
        Field("attack", "19 - THAC0 (attack bonus)", "to-hit points", 10.0, lambda v: 19 - v.c.prof.thac0),
        Field("offset", "signed distance from the actor (+ = toward the enemies' starting side)", "squares",
              20.0, lambda v: v.offset),
        Field("distance", "|distance| from the actor", "squares", 20.0, lambda v: v.distance),
        flag("adjacent", "1 if within 1.5 m of the actor (melee)", lambda v: v.distance <= 1 and v.other),
        flag("missile", "1 if it has a missile weapon with ammunition", lambda v: v.has_missile),
        Field("missile_reach", "long range of its missile weapon (0 without one)", "squares", 40.0,
              lambda v: v.c.prof.missile_ranges[2] if v.has_missile else 0.0),
        Field("move", "encounter movement per round", "squares", 8.0, lambda v: v.c.prof.move),
        flag("slow", "1 if its melee weapon is slow (acts at the end of the round)",
             lambda v: v.c.prof.melee_slow),
        flag("declared_withdraw", "1 if it declared a fighting withdrawal this round",
             lambda v: v.c.declared == DECL_WITHDRAW),
        flag("declared_retreat", "1 if it declared a retreat (+2 to hit it, no shield)",
             lambda v: v.c.declared == DECL_RETREAT),
        flag("casting", "1 if it declared a spell this round (disrupted if hit before its turn)",
             lambda v: v.c.declared == DECL_CAST and v.c.casting >= 0),
        Field("spells", "spells left in memory", "spells", 4.0, lambda v: sum(v.c.spells)),
        Field("morale", "morale score (0 = never checks)", "ML", 12.0, lambda v: v.c.prof.morale),
        Field("cover", "cover level (5 = full cover)", "cover level", 5.0, lambda v: v.c.cover),
        flag("acted", "1 if it already attacked or cast this round", lambda v: v.c.attacked),
    )

    def context_view(self, state: OSEState, decision: Decision) -> Ctx:
        st = state
        me = st.combatants[decision.actor]
        ini = 0.0
        if st.stage != STAGE_DECLARE and len(st.groups) > 1 and not st.options["individual_initiative"]:
            first = st.groups[0]
            if first:
                ini = 1.0 if st.combatants[first[0]].side == me.side else -1.0
        return Ctx(st, me, decision.context.get("phase", "declare"), ini, st.max_rounds or 1)

    def combatant_view(self, state: OSEState, decision: Decision, index: int, ctx: Ctx) -> Slot:
        me, c = ctx.me, state.combatants[index]
        off = (c.pos - me.pos) if me.side == 0 else (me.pos - c.pos)
        return Slot(c, index != decision.actor, off, abs(c.pos - me.pos),
                    c.prof.missile_weapon is not None and c.ammo != 0)
