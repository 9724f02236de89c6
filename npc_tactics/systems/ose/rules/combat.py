"""Attacks, damage and status changes (ose-bx.md §4, §6, §9, §10); spells are in :mod:`.spells`.

Every die goes through the :class:`~npc_tactics.rules.base.EventSink`, so the event log replays the fight.
"""

from __future__ import annotations

from npc_tactics.rules.base import EventSink, Status
from npc_tactics.systems.ose.rules import breath, conditions, defences, effects, holds
from npc_tactics.systems.ose.rules.damage import apply_damage, fall_to, flush_dying
from npc_tactics.systems.ose.rules.state import OSEState, Strike
from npc_tactics.systems.ose.rules.status import (
    OUT,
    OUT_WITH_FLED,
    STATUS_NAMES,
    disrupt_before_turn,
    lose_spell,
    set_status,
)

#: re-exported: the attack code's callers (morale, movement, spells, situations) import them from here
__all__ = ["OUT", "OUT_WITH_FLED", "STATUS_NAMES", "apply_damage", "attack", "disrupt_before_turn", "fall_to",
           "flush_dying", "hit_probability", "lose_spell", "needed_roll", "range_band", "set_status",
           "set_vs_charge", "strike"]
from npc_tactics.systems.ose.rules.tables import (
    BRACE_DAMAGE_MULT,
    FULL_COVER,
    MATRIX_MAX_ROLL,
    MATRIX_MIN_ROLL,
    MELEE_REACH,
    NATURAL_HIT,
    NATURAL_MISS,
    RANGE_MOD,
    RANGE_NAMES,
)


def needed_roll(thac0: int, ac: int, ac_mode: str) -> int:
    """The d20 total needed to hit AC ``ac`` (§9.1, §9.2).

    ``matrix``: THAC0 − AC clamped to 2..20 (the attack matrix); ``ascending``: d20 + mods + AB ≥ AAC,
    i.e. THAC0 − AC unclamped (§9.5: the two differ slightly at the extremes).
    """
    need = thac0 - ac
    if ac_mode == "matrix":
        return (
            MATRIX_MIN_ROLL
            if need < MATRIX_MIN_ROLL
            else MATRIX_MAX_ROLL
            if need > MATRIX_MAX_ROLL
            else need
        )
    return need


def hit_probability(thac0: int, ac: int, modifier: int = 0, ac_mode: str = "matrix") -> float:
    """Exact chance that a d20 attack hits (natural 20 always hits, natural 1 always misses, §9.3)."""
    need = needed_roll(thac0, ac, ac_mode)
    hits = sum(
        1
        for face in range(1, 21)
        if face == NATURAL_HIT or (face != NATURAL_MISS and face + modifier >= need)
    )
    return hits / 20


def range_band(ranges: tuple[int, int, int], d: int) -> int:
    """0 short, 1 medium, 2 long, −1 beyond long range (§6)."""
    for band, top in enumerate(ranges):
        if d <= top:
            return band
    return -1


def attack(
    state: OSEState, sink: EventSink, ai: int, ti: int, missile: bool, damage_mult: int = 1
) -> bool:
    """The attacks of ``ai`` at ``ti`` this step: one missile, or the melee routine (each strike its own roll,
    §9, and damage, §10; the dice × ``damage_mult`` for a set weapon). Returns whether any hit."""
    a = state.combatants[ai]
    if not missile and (a.prof.breath is not None or a.prof.gaze):  # rules/breath.py
        if a.prof.breath is not None and breath.breathes(state, sink, ai):
            breath.breathe(state, sink, ai, ti)
            return True
        if a.prof.gaze:
            breath.gaze(state, sink, ai, ti)
    auto = False
    if a.attached >= 0:  # a blood-drainer latched on drains its victim without a roll (rules/effects.py)
        if a.attached == ti and not missile:
            kind = holds.holder_kind(a.prof) if a.prof.routine else ""
            if kind == "constriction":  # coiled round it: it squeezes (rules/holds.py)
                return holds.squeeze(state, sink, ai, ti)
            if kind != "hold":
                return effects.drain_blood(state, sink, ai, ti)
            auto = True  # stuck to its sucker since an earlier round: its strikes hit by themselves
        elif not state.combatants[a.attached].inside:  # it lets go (a swallowed victim stays inside)
            if state.combatants[a.attached].held_by == ai:
                state.combatants[a.attached].held_by = -1
            a.attached = -1
    routine = a.prof.routine
    times = conditions.strikes_per_round(state, ai)
    if missile or (not routine and times == 1):
        return strike(state, sink, ai, ti, missile, None, damage_mult, auto)
    hit = False
    for _ in range(times):
        for one in routine or (None,):
            t = state.combatants[ti]
            if t.status != Status.ACTIVE or t.hp <= 0:
                if not state.options["routine_retarget"]:
                    return hit  # the rest of the routine was meant for the fallen target (docs/ose-monsters.md)
                nxt = _next_target(state, ai)
                if nxt < 0:
                    return hit
                ti = nxt
            hit = strike(state, sink, ai, ti, False, one, damage_mult, auto and ti == a.attached) or hit
            if a.status != Status.ACTIVE:
                return hit
    return hit


def _next_target(state: OSEState, ai: int) -> int:
    """The first active enemy in melee reach (slot order), for option routine_retarget; -1 if none."""
    a = state.combatants[ai]
    for j in state.enemies[ai]:
        e = state.combatants[j]
        if e.status == Status.ACTIVE and e.hp > 0 and abs(e.pos - a.pos) <= MELEE_REACH:
            return j
    return -1


def strike(
    state: OSEState, sink: EventSink, ai: int, ti: int, missile: bool, one: Strike | None, damage_mult: int = 1,
    auto: bool = False,
) -> bool:
    """One attack roll (§9) and its damage (§10) and effects; ``one`` is the strike of a routine (None: the
    profile's single melee or missile attack). ``auto``: a victim held fast is hit with no roll (rules/holds.py).
    Returns whether it hit."""
    cs = state.combatants
    a, t = cs[ai], cs[ti]
    p, tp = a.prof, t.prof
    opts = state.options
    variable = opts["variable_weapon_damage"]
    d = abs(a.pos - t.pos)
    if missile:
        band = range_band(p.missile_ranges, d)
        cover = t.cover if t.cover < FULL_COVER else 0
        mod = p.dex_missile + RANGE_MOD[band] - cover
        expr = p.missile_damage_var if variable else p.missile_damage
        dmg_bonus = 0
        if a.ammo > 0:
            a.ammo -= 1
    else:
        band = -1
        mod = p.str_mod + p.weapon_magic
        if one is None:
            expr = p.melee_damage_var if variable else p.melee_damage
        else:
            expr = one.damage_var if variable else one.damage
        dmg_bonus = p.str_mod + p.weapon_magic
    if state.field.daylight:  # goblins and the like: -1 to hit in full daylight (OSE stat blocks)
        mod += p.daylight_mod
    mod += conditions.to_hit_bonus(state, ai, ti, missile)
    if tp.gaze or p.gaze:  # eyes averted from a petrifying gaze, or a mirror (option avert_gaze)
        mod += breath.gaze_to_hit(state, ai, ti)
    stab = not missile and p.backstab[0] > 0 and (state.surprised[t.side] or "invisible" in a.conditions)
    if a.inside:  # swallowed: it fights its way out at -4 (rules/holds.py)
        mod += holds.INSIDE_TO_HIT
    if stab:  # OSE thief: an unaware target (surprised, or the thief unseen) is back-stabbed
        mod += p.backstab[0]
        damage_mult *= p.backstab[1]
    ac = conditions.armour_class(state, ti, missile)
    if t.retreating:  # §5.2: +2 to hit a retreating combatant, its shield does not count
        mod += 2
        ac += tp.shield
    a.attacked = True
    if a.conditions:
        conditions.break_invisibility(state, sink, ai)  # attacking ends Invisibility (OSE)
    if t.conditions and conditions.attack_absorbed(state, sink, ai, ti):  # an image of Mirror Image, hit or miss
        return False
    need = needed_roll(p.thac0, ac, opts["ac_mode"])
    if auto:
        sink.emit("effect", ai, ti, rule="OSE hold", effect="hold", result="automatic")
        return _hit(state, sink, ai, ti, False, one, expr, damage_mult, dmg_bonus, 0, 0, need)
    roll = sink.die(20, "attack", ai, ti)
    total = roll + mod
    if roll == NATURAL_HIT:
        hit, result = True, "natural_20"
    elif roll == NATURAL_MISS:
        hit, result = False, "natural_1"
    else:
        hit = total >= need
        result = "hit" if hit else "miss"
    sink.emit(
        "attack",
        ai,
        ti,
        rule="ose-bx.md §9",
        result=result,
        roll=roll,
        total=total,
        need=need,
        missile=missile,
        range=RANGE_NAMES[band] if missile else "melee",
        weapon=p.missile_weapon if missile else (p.melee_weapon if one is None else one.form),
        **({"backstab": True} if stab else {}),
    )
    if not hit:
        return False
    return _hit(state, sink, ai, ti, missile, one, expr, damage_mult, dmg_bonus, roll, total, need)


def _hit(
    state: OSEState, sink: EventSink, ai: int, ti: int, missile: bool, one: Strike | None, expr: str,
    damage_mult: int, dmg_bonus: int, roll: int, total: int, need: int,
) -> bool:
    """What a hit does: damage (§10) unless the target cannot be harmed, then the strike's effects."""
    a, t = state.combatants[ai], state.combatants[ti]
    p, tp = a.prof, t.prof
    disrupt_before_turn(state, sink, ai, ti, "hit")  # even a hit that does no damage (A6)
    kind = "missile" if missile else "melee"
    if kind in tp.immune:  # §9.4: invulnerable: no damage roll
        sink.emit("immune", ai, ti, rule="ose-bx.md §9.4", attack=kind, result="no_damage")
        return True
    if tp.hit_by and not (defences.harms(p, tp) or conditions.magic_weapon(state, ai)):  # silver or magic only
        sink.emit("unharmed", ai, ti, rule="OSE monster descriptions", needs=tp.hit_by, result="no_damage")
        return True
    if expr:
        dmg = sink.roll(expr, "damage", ai, ti).total * damage_mult + dmg_bonus
        if a.conditions:  # Bless +1, Striking +1d6 on a weapon hit (rules/conditions.py)
            dmg += conditions.damage_bonus(state, ai)
            if not missile:
                dmg += conditions.extra_damage(state, sink, ai, ti)
        apply_damage(state, sink, ai, ti, dmg if dmg > 1 else 1, kind)  # minimum 1 (§10)
    if one is not None and one.effects:
        effects.apply_effects(state, sink, ai, ti, one.effects, one)
    if p.swallow is not None and not missile:  # a high enough roll swallows (rules/holds.py)
        holds.swallow_after_hit(state, sink, ai, ti, one, roll, total, need)
    return True


def set_vs_charge(state: OSEState, sink: EventSink, ci: int, ti: int) -> None:
    """OSE "Brace": a spear or polearm set against a charge doubles its damage; as in BECMI the set weapon
    strikes the charger as it comes in reach, before the charger's own attack, and uses up the wielder's
    attack for the round. Set means: it has not moved, attacked, cast or declared a move this round."""
    t = state.combatants[ti]
    if not (
        t.status == Status.ACTIVE
        and t.prof.brace
        and not t.moved
        and not t.attacked
        and t.casting < 0
        and t.declared == 0
        and not (t.prof.throws and t.ammo == 0)
    ):
        return
    sink.emit("set_vs_charge", ti, ci, rule="OSE Brace", result="set")
    attack(state, sink, ti, ci, False, damage_mult=BRACE_DAMAGE_MULT)
