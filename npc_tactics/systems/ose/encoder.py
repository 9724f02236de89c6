"""OSE observation encoder: the fight seen from the acting combatant, every value in [-1, 1] (docs/ose.md).

Context: round, step one-hot, initiative, own declaration. Per combatant: standing, HP, AC, THAC0, distance and
reach from the actor, weapons, movement, declarations, spells, morale and cover.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from npc_tactics.dice import parse
from npc_tactics.encoders.base import Decl, Encoder, Field, OneHot, flag, one_hot
from npc_tactics.rules.base import Decision, Status
from npc_tactics.systems.ose.rules.defences import harms
from npc_tactics.systems.ose.rules.state import (
    DECL_CAST,
    DECL_RETREAT,
    DECL_WITHDRAW,
    STAGE_DECLARE,
    Combatant,
    OSEState,
    Profile,
)
from npc_tactics.systems.ose.rules.tables import SPELL_NAMES


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
    me: Profile  # the actor's profile (what its weapon can harm)
    other: bool  # not the actor
    offset: int
    distance: int
    has_missile: bool


_MEANS: dict[str, float] = {}


def _mean(expr: str) -> float:
    """Average of a damage expression (cached: a fight meets a handful)."""
    m = _MEANS.get(expr)
    if m is None:
        m = parse(expr).mean if expr else 0.0
        if len(_MEANS) < 4096:
            _MEANS[expr] = m
    return m


def melee_damage(p: Profile) -> float:
    """Average damage of its melee routine if every strike hits (the standard rule's dice)."""
    if not p.routine:
        return _mean(p.melee_damage) + p.str_mod + p.weapon_magic
    return sum(_mean(s.damage) for s in p.routine) + len(p.routine) * (p.str_mod + p.weapon_magic)


#: spell families a policy tells apart (tables.SPELL_NAMES ids): what a caster can still do
_FAMILIES = {
    "damage": ("magic_missile", "fire_ball", "lightning_bolt", "cause_light_wounds"),
    "control": ("sleep", "hold_person", "charm_person", "web", "phantasmal_force", "light", "darkness",
                "silence_15_radius"),
    "healing": ("cure_light_wounds",),
    "protection": ("shield", "protection_from_evil", "invisibility", "mirror_image", "haste", "bless", "striking"),
}
_FAMILY_IDS = {k: tuple(SPELL_NAMES.index(n) for n in v if n in SPELL_NAMES) for k, v in _FAMILIES.items()}
#: conditions that shield a combatant, and those that take it out of the fight for a while (rules/conditions.py)
_WARDS = ("shield", "protection_from_evil", "invisible", "haste", "bless", "striking")
_HINDRANCES = ("blind", "webbed", "fainted", "silenced")


def spells_of(c: Combatant, family: str) -> int:
    return sum(c.spells[s] for s in _FAMILY_IDS[family])


def has_any(c: Combatant, names: tuple[str, ...]) -> bool:
    cs = c.conditions
    return bool(cs) and any(n in cs or (n == "shield" and any(k.startswith("mirror_image") for k in cs)) for n in names)


def carries(p: Profile, effect: str) -> bool:
    return any(effect in s.effects for s in p.routine)


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
        # what tells one creature from another (issue 26): Hit Dice, attack routine and its effects, defences
        Field("hit_dice", "Hit Dice (monsters) or level (characters)", "HD", 10.0, lambda v: v.c.prof.hd),
        Field("strikes", "attacks of its melee routine a round", "attacks", 4.0,
              lambda v: len(v.c.prof.routine) or 1),
        Field("routine_damage", "average melee damage a round if every attack hits", "HP", 20.0,
              lambda v: melee_damage(v.c.prof)),
        flag("paralyses", "1 if its attacks paralyse (save versus paralysis)",
             lambda v: carries(v.c.prof, "paralysis")),
        flag("poisons", "1 if its attacks poison (save versus death or die)", lambda v: carries(v.c.prof, "poison")),
        flag("drains", "1 if its attacks drain levels", lambda v: carries(v.c.prof, "energy drain")),
        flag("petrifies", "1 if its attacks turn to stone", lambda v: carries(v.c.prof, "petrification")),
        flag("unharmable", "1 if the actor's melee weapon cannot harm it (silver or magic weapons only)",
             lambda v: v.c.prof.hit_by != "" and not harms(v.me, v.c.prof)),
        Field("regenerates", "hit points it regenerates a round", "HP", 5.0, lambda v: v.c.prof.regenerate),
        flag("undead", "1 if undead (immune to Sleep, Charm, Hold)", lambda v: v.c.prof.undead),
        flag("person", "1 if a person for Hold Person and Charm Person", lambda v: v.c.prof.humanoid),
        flag("flies", "1 if it can fly", lambda v: v.c.prof.fly > 0),
        flag("down_reviving", "1 if down but regenerating, to rise again", lambda v: v.c.revive_in >= 0),
        Field("damage_spells", "damage spells left (Magic Missile, Fire Ball, Lightning Bolt, Cause Light Wounds)",
              "spells", 4.0, lambda v: spells_of(v.c, "damage")),
        Field("control_spells", "spells left that take foes out (Sleep, Hold, Charm, Web, Phantasmal Force, Light, "
              "Darkness, Silence)", "spells", 4.0, lambda v: spells_of(v.c, "control")),
        Field("healing_spells", "Cure Light Wounds left", "spells", 4.0, lambda v: spells_of(v.c, "healing")),
        Field("protection_spells", "protective spells left (Shield, Protection from Evil, Invisibility, Mirror Image, "
              "Haste, Bless, Striking)", "spells", 4.0, lambda v: spells_of(v.c, "protection")),
        flag("warded", "1 if under a protective spell (shield, images, invisible, haste, bless, striking)",
             lambda v: has_any(v.c, _WARDS)),
        flag("hindered", "1 if blind, webbed, fainted or silenced", lambda v: has_any(v.c, _HINDRANCES)),
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
        return Slot(c, me.prof, index != decision.actor, off, abs(c.pos - me.pos),
                    c.prof.missile_weapon is not None and c.ammo != 0)
