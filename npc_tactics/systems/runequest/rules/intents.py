"""Statement of intent (§1 phase 1, §3-§7, §25): which declarations are legal and what they
schedule.

A declaration is one DECLARE choice, maybe an OPTION follow-up (aimed location, spell points) and,
for a combatant who was *not* engaged at the start of the round and just declared a spell, a second
DECLARE
("then") step: strike after the spell (Bladesharp then strike, spell at an approaching enemy then
engage),
fire after it, a second spell (+5 SR), or nothing more (``defend``) (§4, §7.1, A15, A16). A
combatant not engaged at the start of the round who declared a weapon attack gets a "then" step
when a spirit spell still fits: the spell at the attack's SR + 5 (switching from weapon to spell
with a hand free, §4) + DEX SR + extra MP, within the 12-SR limit (Rune magic excluded, §4). Each
scheduled step carries its strike rank; a step past SR 12 slips into the next round (§6).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from npc_tactics.rules.base import Status, enemy_slots
from npc_tactics.systems.runequest.rules import actions as A
from npc_tactics.systems.runequest.rules import calc, split
from npc_tactics.systems.runequest.rules import tables as T
from npc_tactics.systems.runequest.rules.hands import free_hand_after, knock_weapon
from npc_tactics.systems.runequest.rules.magic import can_afford, needs_aid, spell_sr
from npc_tactics.systems.runequest.rules.spellmask import spell_mask, spells_of
from npc_tactics.systems.runequest.rules.state import Combatant, Intent, RQState, Step

REACH = T.MELEE_REACH_M
ACTIVE = Status.ACTIVE
MISSILE_KINDS = ("missile", "thrown")


def surprise(s: RQState, c: Combatant) -> int:
    """+3/+1 SR in round 1 for a surprised side, by the nearest enemy's distance (§3.2, A14)."""
    if s.round != 1 or c.side not in s.surprised:
        return 0
    near = min((abs(e.pos - c.pos) for e in s.combatants if e.side != c.side), default=99.0)
    return calc.surprise_sr(near)


def usable(c: Combatant, w: int) -> bool:
    wp = c.weapons[w]
    return (wp.hp > 0 or wp.spec.max_hp == 0) and wp.spec.hands <= c.usable_hands()


def melee_sr(c: Combatant, w: int, moved: float, options: Mapping[str, Any]) -> int:
    """DEX SR + SIZ SR + weapon SR, plus movement (+1/3 m) and readying (+5), combined in parallel
    (§3, §7.1)."""
    spec = c.weapons[w].spec
    ready = 0 if c.ready >> w & 1 else T.READY_SR
    prep = calc.combined_sr(calc.move_sr(moved), ready, parallel=options["combine_move_and_ready"])
    return c.spec.dex_sr + c.spec.siz_sr + spec.sr + prep


def missile_sr(c: Combatant, w: int) -> int:
    """Missiles use DEX SR only, +5 to ready (§5)."""
    return c.spec.dex_sr + (0 if c.ready >> w & 1 else T.READY_SR)


def _spell_after_weapon(c: Combatant, w: int, sr: int) -> bool:
    """Whether a "then" spell may follow a weapon attack at ``sr`` (§4, §6, A16): not engaged at
    the start of the round, a spirit spell affordable within SR 12 (+5 hand switch), a hand free."""
    if c.engaged_start or not c.spec.spirit or c.befuddled_rounds > 0:
        return False
    if sr + T.HAND_SWITCH_SR + c.spec.dex_sr > T.MAX_SR:
        return False
    if not any(c.mp >= mp and rp == 0 for _n, _t, mp, rp, _sr, _r, _h in spells_of(c)):
        return False
    return free_hand_after(c, w)


def _charge(c: Combatant, e: Combatant, engaged: bool) -> float:
    """Metres to move to strike ``e`` in melee, or -1 if it cannot be reached this round (§1 phase
    2)."""
    d = abs(e.pos - c.pos)
    if d <= REACH:
        return 0.0
    if engaged or d - 1 > c.spec.move_m / 2:
        return -1.0
    return d - 1


def declare_mask(s: RQState, idx: int, options: Mapping[str, Any], then: bool) -> np.ndarray:
    """Legal DECLARE actions of combatant ``idx`` (``then``: the step after a spell or a weapon)."""
    m = np.zeros(A.N, dtype=np.bool_)
    cs = s.combatants
    c = cs[idx]
    if then and c.intent is not None and c.intent.verb == "attack":  # weapon -> spell (§4)
        m[A.DEFEND] = True
        enemies = enemy_slots(cs, idx)[: A.MAX_PER_SIDE]
        extra = c.intent.sr_used + T.HAND_SWITCH_SR
        # the hand the weapon frees counts (checked by free_hand_after when the step was offered)
        spell_mask(s, c, _allies(s, idx), enemies, m, extra, spirit_only=True, free=True)
        return m
    down = c.prone  # on the ground: no charge, closing, withdrawal or flight (§18, A22)
    on = [A.DEFEND] if then or down else [A.DEFEND, A.FLEE, A.RETREAT]
    engaged = c.engaged_start
    side = c.side
    pos = c.pos
    live = []  # (slot, distance) of active enemies
    k = 0
    for e in cs:
        if e.side != side:
            if k >= A.MAX_PER_SIDE:
                break
            if e.status == ACTIVE:
                live.append((k, abs(e.pos - pos)))
            k += 1
    bef = c.befuddled_rounds > 0
    prev = c.intent.sr_used if then and c.intent is not None else 0
    lit = options["spell_sr_reading"] == "seed_literal"
    limit = 2 * T.MAX_SR if then else T.MAX_SR
    sur = surprise(s, c) if s.round == 1 else 0
    hands = c.usable_hands()
    half = c.spec.move_m / 2
    cspec = c.spec
    parallel = options["combine_move_and_ready"]
    for w, wp in enumerate(c.weapons[: A.N_WEAPONS]):
        spec = wp.spec
        if (wp.hp <= 0 and spec.max_hp > 0) or spec.hands > hands:
            continue
        ready = c.ready >> w & 1
        if not then and not ready:
            on.append(A.READY[w])
        if bef:
            continue
        row_a, row_b = A.ATTACK[w], A.AIMED[w]
        if spec.kind in MISSILE_KINDS:
            if engaged or wp.ammo <= 0:
                continue
            sr = (
                calc.chain_sr(prev, T.READY_SR + cspec.dex_sr, lit)
                if then
                else (cspec.dex_sr + (0 if ready else T.READY_SR) + sur)
            )
            if sr > T.MAX_SR:
                continue
            thrown = spec.kind == "thrown"
            for k, d in live:
                if calc.range_divisor(d, spec.range_m, thrown, options["thrown_range_bands"]):
                    on.append(row_a[k])
                    if not then:
                        on.append(row_b[k])
            continue
        base = cspec.dex_sr + cspec.siz_sr + spec.sr
        ready_cost = 0 if ready else T.READY_SR
        for k, d in live:
            if d <= REACH:
                moved = 0.0
            elif engaged or down or d - 1 > half:
                continue
            else:
                moved = d - 1
            mv = int(moved // 3)
            sr = base + ((mv if mv > ready_cost else ready_cost) if parallel else mv + ready_cost)
            sr = calc.chain_sr(prev, sr, lit) if then else sr + sur
            if sr <= limit:
                on.append(row_a[k])
                if not then:
                    on.append(row_b[k])
    allies = _allies(s, idx)
    if not then:
        kw = -1 if bef else knock_weapon(c, options["knockback_rule"] == "push")
        for k, d in live:
            if d > REACH:
                if not engaged and not down:
                    on.append(A.CLOSE[k])
            elif kw >= 0:
                on.append(A.KNOCKBACK[k])
        # engaged: attack and defend, or defend and cast, nothing else (§7.2): no First Aid
        if cspec.first_aid > 0 and not engaged:
            if needs_aid(c):
                on.append(A.AID_SELF)
            for k, ai in enumerate(allies):
                p = cs[ai]
                d = abs(p.pos - pos)
                if needs_aid(p) and (d <= REACH or (not down and d - REACH <= half)):
                    on.append(A.AID_ALLY[k])
    m[on] = True
    if not bef and (cspec.spirit or cspec.rune):
        spell_mask(
            s,
            c,
            allies,
            enemy_slots(cs, idx)[: A.MAX_PER_SIDE],
            m,
            prev + T.READY_SR if then else sur,
        )
    return m


def _allies(s: RQState, idx: int) -> list[int]:
    side = s.combatants[idx].side
    return [i for i, c in enumerate(s.combatants) if c.side == side and i != idx][
        : A.MAX_PER_SIDE - 1
    ]


def option_mask(s: RQState, idx: int, options: Mapping[str, Any]) -> np.ndarray:
    """Legal OPTION actions: aimed location, spell points (MP/Rune points affordable, SR <= 12),
    or the number of attacks of a split attack (split.py)."""
    m = np.zeros(A.N, dtype=np.bool_)
    c = s.combatants[idx]
    it = c.intent
    if it is None:
        raise ValueError("OPTION decision without a statement of intent")
    if split.splitting(it):
        return split.split_mask(s, idx, options)
    if it.verb == "aimed":
        for i in range(min(len(s.combatants[it.target].locations), T.AIM_SLOTS)):
            m[A.AIM[i]] = True
        return m
    known = c.spirit_points(it.spell) or c.rune_known(it.spell)
    if it.spell == "heal_wound":
        known = T.MAX_POWER
    base = it.sr_used + _chain_cost(it) if it.steps else 0
    for n in range(1, min(known, T.MAX_POWER) + 1):
        if can_afford(c, it.spell, n) and (n == 1 or base + spell_sr(c, it.spell, n) <= T.MAX_SR):
            m[A.POWER[n - 1]] = True
    if not m.any():
        m[A.POWER[0]] = True
    return m


def target_of(s: RQState, idx: int, slot_target: str | None, slot: int) -> int:
    if slot_target == "enemy":
        return enemy_slots(s.combatants, idx)[slot]
    if slot_target == "ally":
        return _allies(s, idx)[slot]
    return idx


def declare(s: RQState, idx: int, action: int, then: bool, options: Mapping[str, Any]) -> str:
    """Record a DECLARE choice; return the next step: "option", "then" or "done"."""
    spec = A.CATALOGUE[action]
    c = s.combatants[idx]
    verb = spec.verb
    if then and verb == "defend":
        return "done"
    target = target_of(s, idx, spec.target, spec.slot)
    if not then:
        c.intent = Intent(verb, target=target)
    it = c.intent
    if it is None:
        raise ValueError("then-step without a statement of intent")
    lit = options["spell_sr_reading"] == "seed_literal"
    if verb in ("attack", "aimed"):
        w = int(spec.option)
        wspec = c.weapons[w].spec
        it.weapon, it.target = w, target
        sur = 0 if then else surprise(s, c)
        if wspec.kind in MISSILE_KINDS:
            first = (
                calc.chain_sr(it.sr_used, T.READY_SR + c.spec.dex_sr, lit)
                if then
                else missile_sr(c, w) + sur
            )
            if verb == "aimed":
                it.verb = "aimed"
                return "option"
            shots = calc.shots_per_round(
                c.spec.dex_sr, wspec.rate if wspec.kind == "missile" else "1", first
            )
            fired = shots[: c.weapons[w].ammo]
            paid = not c.is_ready(w)
            for n, sr in enumerate(fired):
                it.steps.append(Step("attack", sr, w, target, shot=n, readied=paid))
            return _then_after_weapon(c, it, w, fired[-1] if fired and not then else 99)
        moved = _charge(c, s.combatants[target], c.engaged_start)
        if moved > 0:
            it.move_to, it.move_max = target, moved
        sr = melee_sr(c, w, moved, options)
        sr = calc.chain_sr(it.sr_used, sr, lit) if then else sr + sur
        if verb == "aimed":
            it.verb = "aimed"
            return "option"
        it.steps.append(Step("attack", sr, w, target, readied=not c.is_ready(w)))
        if verb == "attack" and w in c.spec.several:
            sr = _several_attacks(c, it, w, target, sr - melee_sr(c, w, moved, options), moved, options)
        if not then and len(it.steps) == 1 and split.max_parts(c, w, sr, options) > 1:
            return "option"  # how many attacks (skills over 100%, split.py; not with several attacks)
        return _then_after_weapon(c, it, w, 99 if then else sr)
    if verb == "knockback":
        w = knock_weapon(c, options["knockback_rule"] == "push")
        it.weapon = w
        it.steps.append(Step("knockback", melee_sr(c, w, 0, options) + surprise(s, c), w, target))
        return "done"
    if verb == "close":
        it.move_to, it.move_max = target, c.spec.move_m
        return "done"
    if verb == "cast":
        it.spell, it.target = str(spec.option), target
        row = T.SPELLS[it.spell]
        if row.variable:
            return "option"
        return finish_cast(s, idx, row.fixed_cost)
    if verb == "ready":
        it.weapon = int(spec.option)
        it.steps.append(Step("ready", T.READY_SR, it.weapon))
        return "done"
    if verb == "first_aid":
        d = abs(s.combatants[target].pos - c.pos)
        if d > REACH:
            it.move_to, it.move_max = target, d - 1
        it.steps.append(Step("first_aid", T.MAX_SR, target=target))
        return "done"
    return "done"  # defend, retreat, flee: carried out by the movement phase and bookkeeping


def _several_attacks(c: Combatant, it: Intent, w: int, target: int, extra: int, moved: float,
                     options: Mapping[str, Any]) -> int:
    """A creature with several attacks a round (``several_attacks``: its natural weapons, or the weapons it names,
    the scorpion man's club and sting) strikes the same target with each other one it can use at that weapon's
    own melee SR (plus the same movement/surprise/chain SR; +5 to ready a wielded one), within SR 12. Returns
    the SR of the last blow."""
    last = it.steps[-1].sr
    for j in c.spec.several:
        if j != w and usable(c, j):
            sr = melee_sr(c, j, moved, options) + extra
            if sr <= T.MAX_SR:  # a wielded weapon not in hand is readied in the SR; a natural one never is
                paid = c.weapons[j].spec.hands > 0 and not c.is_ready(j)
                it.steps.append(Step("attack", sr, j, target, readied=paid))
                last = max(last, sr)
    return last


def finish_split(s: RQState, idx: int, parts: int) -> str:
    """Record the number of attacks of a split attack, then offer the "then" spell as usual."""
    c = s.combatants[idx]
    last = split.finish_split(s, idx, parts)
    it = c.intent
    assert it is not None
    return _then_after_weapon(c, it, it.weapon, last)


def _then_after_weapon(c: Combatant, it: Intent, w: int, sr: int) -> str:
    """Offer the weapon -> spirit spell "then" step when it can fit (§4); else the intent is done."""
    if it.verb != "attack" or not _spell_after_weapon(c, w, sr):
        return "done"
    it.sr_used = sr
    return "then"


def _chain_cost(it: Intent) -> int:
    """+5 SR before a chained spell: the hand switch after a weapon, else preparing a second
    spell (§4, A15)."""
    return T.HAND_SWITCH_SR if it.verb == "attack" else T.READY_SR


def finish_cast(s: RQState, idx: int, power: int) -> str:
    """Schedule the declared spell at ``power`` points (§4; A15: a second spell costs +5 more)."""
    c = s.combatants[idx]
    it = c.intent
    if it is None:
        raise ValueError("spell without a statement of intent")
    it.power = power
    sr = spell_sr(c, it.spell, power)
    first = not it.steps
    sr = sr + surprise(s, c) if first else it.sr_used + _chain_cost(it) + sr
    it.steps.append(Step("cast", sr, target=it.target, spell=it.spell, power=power))
    it.sr_used = sr
    if first and not c.engaged_start:
        return "then"
    return "done"


def finish_aim(s: RQState, idx: int, loc: int, options: Mapping[str, Any]) -> None:
    """Aimed blow: wait until SR 12 and use half skill (§9; test vector 4). ``loc`` is the ``aim:<i>`` slot,
    the location index itself unless the target's table has more than seven rows (``tables.aim_location``)."""
    c = s.combatants[idx]
    it = c.intent
    if it is None:
        raise ValueError("aim without a statement of intent")
    loc = T.aim_location(len(s.combatants[it.target].locations), loc)
    it.loc = loc
    it.steps.append(
        Step("aimed", T.MAX_SR, it.weapon, it.target, loc=loc, readied=not c.is_ready(it.weapon))
    )
