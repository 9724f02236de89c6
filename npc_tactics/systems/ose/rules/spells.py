"""Spells in the spell step of a side's turn (ose-bx.md §7) and their effects.

A spell is declared before initiative (:mod:`.legal`, ``cast:<spell>:<target>``), resolved here in the
caster's group's spell step, and lost if the caster is hit or damaged first (:func:`.combat.disrupt_before_turn`).
This module holds the target checks, the dispatch and the single-target spells; areas are in
:mod:`.spells_area`, lasting effects on friends in :mod:`.spells_buffs`, Hold Person's two ways in
:mod:`.spells_hold` (docs/ose-spells.md).
"""

from __future__ import annotations

from collections.abc import Callable

from npc_tactics.rules.base import EventSink, Status
from npc_tactics.systems.ose.rules import conditions as K
from npc_tactics.systems.ose.rules import spells_area, spells_buffs, spells_hold
from npc_tactics.systems.ose.rules.combat import apply_damage, needed_roll, set_status
from npc_tactics.systems.ose.rules.spells_common import (  # noqa: F401  (ALREADY, spell_target_ok re-exported)
    ALREADY,
    person,
    save,
    spell_target_ok,
    unaffected,
)
from npc_tactics.systems.ose.rules.state import OSEState
from npc_tactics.systems.ose.rules.tables import (
    CAUSE_LIGHT_WOUNDS,
    CURE_LIGHT_WOUNDS,
    MAGIC_MISSILE_DAMAGE,
    MAGIC_MISSILE_LEVELS_PER_EXTRA,
    NATURAL_HIT,
    NATURAL_MISS,
    SLEEP_HD,
    SLEEP_MAX_HD,
    SLEEP_RADIUS,
    SLEEP_SINGLE_HD,
    SPELL_NAMES,
    SPELLS,
)

MM, SLEEP, HOLD, CLW = (
    SPELL_NAMES.index(s) for s in ("magic_missile", "sleep", "hold_person", "cure_light_wounds")
)
#: spell id -> its target kind ("enemy", "friend", "self")
KIND = tuple(SPELLS[s][3] for s in SPELL_NAMES)
def cast(state: OSEState, sink: EventSink, ci: int) -> None:
    """Resolve a declared spell in the side's spell step (§7). An invalid target keeps it in memory; so does
    a Silence that fell on the caster after it declared (it cannot speak the words)."""
    c = state.combatants[ci]
    sid, ti = c.casting, c.cast_target
    c.casting = -1
    c.attacked = True
    name = SPELL_NAMES[sid]
    if not K.can_cast(state, ci):
        sink.emit("spell_blocked", ci, ti, rule="OSE Silence 15' Radius", spell=name, cause="silence",
                  result="not_cast")
        return
    if not spell_target_ok(state, ci, ti, sid):
        sink.emit("spell", ci, ti, rule="ose-bx.md §7", spell=name, result="no_target")
        return
    c.spells[sid] -= 1
    sink.emit("spell", ci, ti, rule="ose-bx.md §7", spell=name, result="cast")
    if c.conditions:
        K.break_invisibility(state, sink, ci)
    t = state.combatants[ti]
    if sid == MM:
        for _ in range(1 + 2 * ((c.prof.level - 1) // MAGIC_MISSILE_LEVELS_PER_EXTRA)):
            if t.hp > 0 and t.status == Status.ACTIVE:
                apply_damage(
                    state,
                    sink,
                    ci,
                    ti,
                    sink.roll(MAGIC_MISSILE_DAMAGE, "damage", ci, ti).total,
                    "magic_missile",
                )
    elif sid == CLW:
        healed = min(sink.roll(CURE_LIGHT_WOUNDS, "heal", ci, ti).total, t.max_hp - t.hp)
        t.hp += healed
        sink.emit(
            "heal", ci, ti, rule="OSE Cure Light Wounds", amount=healed, hp=t.hp, result="healed"
        )
    elif sid == SLEEP:
        _sleep(state, sink, ci, ti)
    elif sid == HOLD:  # one person at -2, or 1d4 of a group (option hold_person_mode): rules/spells_hold.py
        spells_hold.hold_person(state, sink, ci, ti)
    else:
        EFFECTS[name](state, sink, ci, ti)


def _charm_person(state: OSEState, sink: EventSink, ci: int, ti: int) -> None:
    """OSE Charm Person: a person (as Hold Person) that fails a save vs spells takes the caster for a friend;
    the charm outlasts any fight. The engine takes the charmed creature out of the fight (it stops fighting
    the caster's side; it does not join it)."""
    tp = state.combatants[ti].prof
    if not person(tp) or "charm" in tp.immune:
        unaffected(sink, ci, ti, "charm_person")
        return
    if not save(state, sink, ti, ci, "OSE Charm Person"):
        set_status(state, sink, ti, Status.INCAPACITATED, "charm_person")


def _cause_light_wounds(state: OSEState, sink: EventSink, ci: int, ti: int) -> None:
    """OSE Cause Light Wounds (reversed Cure Light Wounds): 1d6+1 damage to a creature touched; in combat a
    melee touch attack roll (the caster's THAC0 against the target's AC, as a melee attack) is needed."""
    c, t = state.combatants[ci], state.combatants[ti]
    if K.attack_absorbed(state, sink, ci, ti):
        return
    roll = sink.die(20, "attack", ci, ti)
    need = needed_roll(c.prof.thac0, K.armour_class(state, ti, False), state.options["ac_mode"])
    total = roll + c.prof.str_mod + K.to_hit_bonus(state, ci, ti, False)
    hit = roll == NATURAL_HIT or (roll != NATURAL_MISS and total >= need)
    result = "natural_20" if roll == NATURAL_HIT else "natural_1" if roll == NATURAL_MISS else (
        "hit" if hit else "miss")
    sink.emit("touch_attack", ci, ti, rule="OSE Cause Light Wounds", result=result, roll=roll, total=total,
              need=need)
    if hit and t.hp > 0:
        apply_damage(state, sink, ci, ti, sink.roll(CAUSE_LIGHT_WOUNDS, "damage", ci, ti).total,
                     "cause_light_wounds")


def _sleep(state: OSEState, sink: EventSink, ci: int, ti: int) -> None:
    """OSE Sleep, no save, undead unaffected (docs/ose.md "Published data checked").

    A target of exactly 4+1 HD is slept alone (single mode). Otherwise 2d8 HD of creatures of 4 HD
    or less around the target, the caster's allies included, fall asleep, fewest HD first (under 1 HD
    counts 1, 3+2 counts 3); Hit Dice too few for the next creature are wasted.
    """
    cs = state.combatants
    tp = cs[ti].prof
    if (tp.hd, tp.hd_plus) == SLEEP_SINGLE_HD and not (tp.undead or "sleep" in tp.immune):
        set_status(state, sink, ti, Status.INCAPACITATED, "sleep")
        sink.emit("sleep", ci, ti, rule="OSE Sleep", result="asleep", count=1, mode="single")
        return
    t = cs[ti]
    budget = sink.roll(SLEEP_HD, "sleep", ci, ti).total
    cands = []
    for j, e in enumerate(cs):  # the area takes friend and foe alike; the caster is not in it
        if j == ci or e.status != Status.ACTIVE or e.hp <= 0 or abs(e.pos - t.pos) > SLEEP_RADIUS:
            continue
        p = e.prof
        if (
            p.undead
            or "sleep" in p.immune
            or p.hd > SLEEP_MAX_HD
            or (p.hd == SLEEP_MAX_HD and p.hd_plus > 0)
        ):
            continue
        cands.append((p.hd, p.hd_plus, abs(e.pos - t.pos), j))
    cands.sort()
    slept = 0
    for hd, _, _, j in cands:
        if hd > budget:
            break
        budget -= hd
        slept += 1
        set_status(state, sink, j, Status.INCAPACITATED, "sleep")
    sink.emit(
        "sleep",
        ci,
        ti,
        rule="OSE Sleep",
        result="asleep" if slept else "unaffected",
        count=slept,
        mode="group",
    )


#: the effect of each spell beyond the first four: (state, sink, caster, target)
EFFECTS: dict[str, Callable[[OSEState, EventSink, int, int], None]] = {
    "charm_person": _charm_person,
    "cause_light_wounds": _cause_light_wounds,
    **spells_area.EFFECTS,
    **spells_buffs.EFFECTS,
}
_missing = set(SPELL_NAMES[4:]) - set(EFFECTS)
if _missing:  # pragma: no cover - a table row without its rule
    raise RuntimeError(f"OSE spells without an effect: {sorted(_missing)}")
