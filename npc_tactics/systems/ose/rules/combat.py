"""Attacks, damage and status changes (ose-bx.md §4, §6, §9, §10); spells are in :mod:`.spells`.

Every die goes through the :class:`~npc_tactics.rules.base.EventSink`, so the event log replays the fight.
"""

from __future__ import annotations

from npc_tactics.rules.base import EventSink, Status
from npc_tactics.systems.ose.rules.state import OSEState
from npc_tactics.systems.ose.rules.tables import (
    BRACE_DAMAGE_MULT,
    FULL_COVER,
    MATRIX_MAX_ROLL,
    MATRIX_MIN_ROLL,
    NATURAL_HIT,
    NATURAL_MISS,
    RANGE_MOD,
    RANGE_NAMES,
    SPELL_NAMES,
)

STATUS_NAMES = {s: s.name.lower() for s in Status}
#: Who counts toward "half the side incapacitated or killed" (§4, A13); fled and surrendered members only
#: with the house option ``morale_count_fled``.
OUT = frozenset((Status.DEAD, Status.INCAPACITATED, Status.UNCONSCIOUS))
OUT_WITH_FLED = OUT | {Status.FLED, Status.SURRENDERED}


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


def set_status(state: OSEState, sink: EventSink, i: int, status: Status, cause: str) -> None:
    """Change a combatant's status, emit it, drop a pending spell and fire the side's morale triggers (§4)."""
    c = state.combatants[i]
    if c.status == status:
        return
    if c.status == Status.ACTIVE:
        state.active[c.side] -= 1
    elif status == Status.ACTIVE:
        state.active[c.side] += 1
    c.status = status
    c.dying = False
    sink.emit(
        "status",
        i,
        None,
        rule="ose-bx.md §10" if status == Status.DEAD else "ose-bx.md §4",
        status=STATUS_NAMES[status],
        cause=cause,
        result=STATUS_NAMES[status],
    )
    if c.casting >= 0:  # a caster taken out before its turn loses the spell (§7)
        lose_spell(state, sink, i, cause)
    side = c.side
    trigger = False
    if status == Status.DEAD and not state.first_death[side]:
        state.first_death[side] = True
        trigger = True
    if not state.half_out[side]:
        members = [x for x in state.combatants if x.side == side]
        gone = OUT_WITH_FLED if state.options["morale_count_fled"] else OUT
        out = sum(1 for x in members if x.status in gone)
        if 2 * out >= len(members):
            state.half_out[side] = True
            trigger = True
    if trigger:
        state.morale_due[side] = 1


def lose_spell(state: OSEState, sink: EventSink, i: int, cause: str) -> None:
    """The declared spell is disrupted: no effect, erased from memory as if cast (§7)."""
    c = state.combatants[i]
    sid = c.casting
    c.casting = -1
    c.spells[sid] -= 1
    sink.emit(
        "spell_disrupted",
        i,
        None,
        rule="ose-bx.md §7",
        spell=SPELL_NAMES[sid],
        cause=cause,
        result="disrupted",
    )


def disrupt_before_turn(state: OSEState, sink: EventSink, actor: int, target: int, cause: str) -> None:
    """§7: a caster whose side lost initiative, hit or damaged (a Magic Missile too) before its turn, loses
    the declared spell. Nobody lost initiative inside a tied (simultaneous) group (A5)."""
    t = state.combatants[target]
    if t.casting >= 0 and t.group > state.combatants[actor].group and not state.simul:
        lose_spell(state, sink, target, cause)


def apply_damage(
    state: OSEState, sink: EventSink, actor: int, target: int, amount: int, cause: str
) -> None:
    """Take ``amount`` hit points (already ≥ 1); at 0 HP the target dies (§10). In a simultaneous step the
    death waits for the end of the step, so two opponents can kill each other (§3)."""
    t = state.combatants[target]
    disrupt_before_turn(state, sink, actor, target, cause)
    lost = amount if amount < t.hp else t.hp
    t.hp -= lost
    sink.emit(
        "damage",
        actor,
        target,
        rule="ose-bx.md §10",
        amount=lost,
        rolled=amount,
        hp=t.hp,
        cause=cause,
    )
    if t.hp <= 0:
        if state.simul:
            t.dying = True
        else:
            set_status(state, sink, target, Status.DEAD, cause)


def flush_dying(state: OSEState, sink: EventSink) -> None:
    """End of a simultaneous step: those reduced to 0 HP die now."""
    for i, c in enumerate(state.combatants):
        if c.dying:
            set_status(state, sink, i, Status.DEAD, "damage")


def attack(
    state: OSEState, sink: EventSink, ai: int, ti: int, missile: bool, damage_mult: int = 1
) -> bool:
    """One attack roll (§9) and its damage (§10; the dice × ``damage_mult`` for a set weapon). Returns
    whether it hit."""
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
        mod = p.str_mod
        expr = p.melee_damage_var if variable else p.melee_damage
        dmg_bonus = p.str_mod
    if state.field.daylight:  # goblins and the like: -1 to hit in full daylight (OSE stat blocks)
        mod += p.daylight_mod
    ac = tp.ac
    if t.retreating:  # §5.2: +2 to hit a retreating combatant, its shield does not count
        mod += 2
        ac += tp.shield
    a.attacked = True
    roll = sink.die(20, "attack", ai, ti)
    need = needed_roll(p.thac0, ac, opts["ac_mode"])
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
        weapon=p.missile_weapon if missile else p.melee_weapon,
    )
    if not hit:
        return False
    disrupt_before_turn(state, sink, ai, ti, "hit")  # even a hit that does no damage (A6)
    kind = "missile" if missile else "melee"
    if kind in tp.immune:  # §9.4: invulnerable: no damage roll
        sink.emit("immune", ai, ti, rule="ose-bx.md §9.4", attack=kind, result="no_damage")
        return True
    dmg = sink.roll(expr, "damage", ai, ti).total * damage_mult + dmg_bonus
    apply_damage(state, sink, ai, ti, dmg if dmg > 1 else 1, kind)  # minimum 1 (§10)
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
