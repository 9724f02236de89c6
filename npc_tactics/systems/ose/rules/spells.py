"""Spells in the spell step of a side's turn (ose-bx.md §7) and their effects.

A spell is declared before initiative (:mod:`.legal`, ``cast:<spell>:<target>``), resolved here in the
caster's group's spell step, and lost if the caster is hit or damaged first (:func:`.combat.disrupt_before_turn`).
"""

from __future__ import annotations

from npc_tactics.rules.base import EventSink, Status
from npc_tactics.systems.ose.rules.combat import apply_damage, set_status
from npc_tactics.systems.ose.rules.state import OSEState
from npc_tactics.systems.ose.rules.tables import (
    CURE_LIGHT_WOUNDS,
    FULL_COVER,
    HOLD_PERSON_MAX_HD,
    HOLD_PERSON_SINGLE_PENALTY,
    MAGIC_MISSILE_DAMAGE,
    MAGIC_MISSILE_LEVELS_PER_EXTRA,
    SLEEP_HD,
    SLEEP_MAX_HD,
    SLEEP_RADIUS,
    SLEEP_SINGLE_HD,
    SPELL_NAMES,
    SPELLS,
    feet_to_squares,
)

SPELL_RANGE = tuple(max(1, feet_to_squares(SPELLS[s][2])) for s in SPELL_NAMES)  #: touch = 1 square
MM, SLEEP, HOLD, CLW = (
    SPELL_NAMES.index(s) for s in ("magic_missile", "sleep", "hold_person", "cure_light_wounds")
)


def spell_target_ok(state: OSEState, ci: int, ti: int, sid: int) -> bool:
    """Range and line of sight (§7): active target within range, neither in full cover."""
    c, t = state.combatants[ci], state.combatants[ti]
    if t.status != Status.ACTIVE or t.hp <= 0 or t.cover >= FULL_COVER or c.cover >= FULL_COVER:
        return False
    if sid == CLW and t.hp >= t.max_hp:
        return False
    return abs(c.pos - t.pos) <= SPELL_RANGE[sid]


def cast(state: OSEState, sink: EventSink, ci: int) -> None:
    """Resolve a declared spell in the side's spell step (§7). An invalid target keeps it in memory."""
    c = state.combatants[ci]
    sid, ti = c.casting, c.cast_target
    c.casting = -1
    c.attacked = True
    name = SPELL_NAMES[sid]
    if not spell_target_ok(state, ci, ti, sid):
        sink.emit("spell", ci, ti, rule="ose-bx.md §7", spell=name, result="no_target")
        return
    c.spells[sid] -= 1
    sink.emit("spell", ci, ti, rule="ose-bx.md §7", spell=name, result="cast")
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
    elif sid == HOLD:
        tp = t.prof
        # OSE Hold Person: the HD limit is for human-like monsters; humans of any level are held
        too_big = tp.kind == "monster" and (
            tp.hd > HOLD_PERSON_MAX_HD or (tp.hd == HOLD_PERSON_MAX_HD and tp.hd_plus > 1)
        )
        if tp.undead or not tp.humanoid or "hold" in tp.immune or too_big:
            sink.emit("hold", ci, ti, rule="OSE Hold Person", result="unaffected")
            return
        roll = sink.die(20, "save", ti)
        saved = roll + HOLD_PERSON_SINGLE_PENALTY >= tp.save_spells
        sink.emit(
            "save",
            ti,
            ci,
            rule="OSE Hold Person",
            result="saved" if saved else "failed",
            roll=roll,
            need=tp.save_spells,
            modifier=HOLD_PERSON_SINGLE_PENALTY,
        )
        if not saved:
            set_status(state, sink, ti, Status.INCAPACITATED, "hold_person")


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
