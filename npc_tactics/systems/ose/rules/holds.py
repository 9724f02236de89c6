"""Holding, constriction and swallowing whole (OSE monster descriptions; docs/ose-monsters.md "Holds").

Sources (the OSE SRD mirror ``itaiag/OSE.SRD.Wiki``, commit ``9e35b355560b30b65fb7e9fe2ad60318bf2633f1``,
``7. Monsters/Monster Stats/``):

* ``Snake.md`` (rock python), *Constriction*: when its bite hits, the python coils round the victim and squeezes
  for 2d4 automatic damage at once and every round after.
* ``Rhagodessa.md``, *Grab*: a victim hit by a sucker is stuck, and bitten automatically the next round.
* ``Purple Worm.md``, *Swallow whole*: a bite roll of 20, or 4 or more above the number needed, swallows a
  man-sized or smaller victim: 3d6 damage a round inside until the worm dies; the victim may attack with an
  edged weapon at -4; ``Toad, Giant.md``: a natural 20 swallows a small victim (1d6 a round, edged weapons at -4);
  ``Caecilia.md``: a natural 19 or 20 (1d8 a round, a dagger at -4).

The holder keeps ``Combatant.attached`` on its victim (as a blood-drainer does), the victim ``held_by`` on its
holder; the hold lasts while the holder is active, next to its victim and attacks nobody else (checked when
asked, :func:`held`). A held victim cannot move away. A swallowed victim is out of the fight (incapacitated,
cause ``swallowed``) until its swallower is out (:func:`.status.set_status` frees it).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from npc_tactics.rules.base import EventSink, Status
from npc_tactics.systems.ose.rules.damage import apply_damage
from npc_tactics.systems.ose.rules.state import OSEState, Profile, Strike, Swallow
from npc_tactics.systems.ose.rules.status import set_status
from npc_tactics.systems.ose.rules.tables import MELEE_REACH

__all__ = ["EDGED", "GRABS", "INSIDE_TO_HIT", "end_of_round", "fits", "grab", "held", "holder_kind", "squeeze",
           "swallow_after_hit"]

#: attack effects that hold the victim fast (rules/effects.py hands them here)
GRABS = ("constriction", "hold")
#: melee weapons that cut (weapons.yaml: neither blunt, nor a lance or polearm): a swallowed victim's way out
EDGED = ("battle_axe", "dagger", "hand_axe", "short_sword", "silver_dagger", "sword", "two_handed_sword")
DAGGERS = ("dagger", "silver_dagger")
INSIDE_TO_HIT = -4  #: a swallowed victim's attack from inside (OSE purple worm, giant toad, caecilia)
MAN_SIZED_MAX_HD = 2  #: monsters "man-sized or smaller": at most this many Hit Dice (docs/ose-monsters.md)


def held(state: OSEState, i: int) -> bool:
    """Whether ``i`` is held fast (coiled round, stuck to a sucker, or swallowed) by an active holder."""
    c = state.combatants[i]
    if c.held_by < 0:
        return False
    h = state.combatants[c.held_by]
    return h.status == Status.ACTIVE and h.attached == i and (c.inside or abs(h.pos - c.pos) <= MELEE_REACH)


def holder_kind(p: Profile) -> str:
    """"constriction", "hold" or "" (a blood-drainer, or nothing): what a latched-on ``p`` does next round."""
    for s in p.routine:
        for e in s.effects:
            if e in GRABS:
                return e
    return ""


def grab(state: OSEState, sink: EventSink, ai: int, ti: int, effect: str, one: Strike | None) -> None:
    """A strike with ``constriction`` or ``hold`` hit ``ti``: it is held; a constrictor squeezes at once."""
    a, t = state.combatants[ai], state.combatants[ti]
    again = a.attached == ti and t.held_by == ai
    a.attached = ti
    t.held_by = ai
    if not again:
        sink.emit("effect", ai, ti, rule=f"OSE {effect}", effect=effect, result="held")
    if effect == "constriction":
        _crush(state, sink, ai, ti, one)


def squeeze(state: OSEState, sink: EventSink, ai: int, ti: int) -> bool:
    """A constrictor coiled round ``ti`` squeezes it this round instead of its routine: automatic damage."""
    state.combatants[ai].attacked = True
    sink.emit("effect", ai, ti, rule="OSE constriction", effect="constriction", result="squeezes")
    _crush(state, sink, ai, ti, None)
    return True


def _crush(state: OSEState, sink: EventSink, ai: int, ti: int, one: Strike | None) -> None:
    p = state.combatants[ai].prof
    dice = p.constrict
    if not dice:
        s = one if one is not None else next((x for x in p.routine if "constriction" in x.effects), None)
        dice = s.damage if s is not None and s.damage else p.melee_damage
    amount = sink.roll(dice, "damage", ai, ti).total
    apply_damage(state, sink, ai, ti, amount if amount > 1 else 1, "constriction")


def fits(sw: Swallow, target: Profile) -> bool:
    """Whether ``target`` is small enough to be swallowed: "man" (man-sized or smaller) takes every character
    and monsters of at most 2 Hit Dice; "small" halflings and monsters of less than 1 Hit Die."""
    if sw.size == "small":
        if target.kind == "character":
            return target.cls == "halfling"
        return target.hd <= 1 and target.hd_plus < 0
    return target.kind == "character" or target.hd < MAN_SIZED_MAX_HD or (
        target.hd == MAN_SIZED_MAX_HD and target.hd_plus <= 0)


def swallow_after_hit(state: OSEState, sink: EventSink, ai: int, ti: int, one: Strike | None, roll: int,
                      total: int, need: int) -> None:
    """After a hit of the swallowing strike: a natural ``roll`` (or ``margin`` over the number needed) swallows
    a victim that fits (:func:`fits`)."""
    a, t = state.combatants[ai], state.combatants[ti]
    sw = a.prof.swallow
    if sw is None or t.status != Status.ACTIVE or t.hp <= 0 or a.attached >= 0:
        return
    form = one.form if one is not None else ""
    if sw.form and one is not None and form != sw.form:
        return
    if not (roll >= sw.roll or (sw.margin > 0 and total >= need + sw.margin)):
        return
    if not fits(sw, t.prof):
        sink.emit("effect", ai, ti, rule="OSE swallow", effect="swallow", result="unaffected")
        return
    a.attached = ti
    t.held_by = ai
    t.inside = True
    t.pos = a.pos
    t.retreating = False
    sink.emit("effect", ai, ti, rule="OSE swallow", effect="swallow", result="swallowed")
    set_status(state, sink, ti, Status.INCAPACITATED, "swallowed")


def end_of_round(state: OSEState, sink: EventSink, strike: Callable[[OSEState, EventSink, int, int, bool, Any], Any]
                 ) -> None:
    """Each swallowed victim still alive strikes its swallower from inside (an edged weapon, or a dagger, at
    -4), then the swallower's stomach does its damage. ``strike`` is :func:`.combat.strike` (combat imports
    this module, so the engine hands it in)."""
    cs = state.combatants
    simul = state.simul
    for i, c in enumerate(cs):
        if not c.inside or c.held_by < 0 or c.hp <= 0:
            continue
        si = c.held_by
        sw = cs[si].prof.swallow
        if sw is None or cs[si].status != Status.ACTIVE:
            continue
        state.simul = False  # the end of the round: a death is at once
        weapons = DAGGERS if sw.weapon == "dagger" else EDGED
        if c.prof.melee_weapon in weapons:
            strike(state, sink, i, si, False, None)
        if c.inside and c.hp > 0 and cs[si].status == Status.ACTIVE:
            sink.emit("effect", si, i, rule="OSE swallow", effect="swallow", result="digests")
            amount = sink.roll(sw.damage, "damage", si, i).total
            apply_damage(state, sink, si, i, amount if amount > 1 else 1, "digestion")
        state.simul = simul
