"""Damage rolls, hit locations, wounds, location effects and statuses (§14-§19, A4, A18-A20, A23).

Wounds change hit points at once, but statuses (unconscious, incapacitated, dead, dropped weapons)
are only settled by :func:`settle` at the end of each group of simultaneous actions (A23), so
equal-DEX combatants striking on the same SR both act even if one blow would drop the other (§3.1).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from npc_tactics.dice import parse
from npc_tactics.rules.base import EventSink, Status
from npc_tactics.systems.runequest.rules import tables as T
from npc_tactics.systems.runequest.rules.state import Combatant, RQState, WeaponSpec

ALIVE = (Status.ACTIVE, Status.UNCONSCIOUS, Status.INCAPACITATED)


@lru_cache(maxsize=256)
def split_damage(expr: str) -> tuple[str, int, int]:
    """(dice-only expression, fixed modifier, maximum of the dice) of a weapon damage like
    "1d8+1"."""
    parsed = parse(expr)
    dice = "+".join(f"{n}d{s}" for n, s, sign in parsed.dice if sign > 0)
    dmax = sum(n * s for n, s, sign in parsed.dice if sign > 0)
    return dice, parsed.bonus, dmax


def roll_damage(
    sink: EventSink,
    weapon: WeaponSpec,
    db: str,
    mode: str,
    options: Mapping[str, Any],
    actor: int,
    bonus: int = 0,
    truesword: bool = False,
) -> int:
    """Damage points of a blow (§14; A4).

    normal = dice + modifier + db; special = dice twice + modifier + db once (option
    ``special_damage: by_weapon_type``: crushing weapons roll dice once and add the maximum db);
    max_special (critical) = 2 x maximum dice + 2 x modifier + db (rolled, or maximum with
    ``crit_db: max``).
    Truesword doubles the dice in every mode. ``bonus`` is a magic modifier such as Bladesharp.
    """
    dice, mod, dmax = split_damage(weapon.damage)
    mod += bonus
    mult = 2 if truesword else 1
    total = 0
    if mode == "max_special":
        total = 2 * dmax * mult + 2 * mod
        if db:
            total += (
                parse(db).maximum
                if options["crit_db"] == "max"
                else sink.roll(db, "damage_bonus", actor).total
            )
        return max(0, total)
    times = mult
    max_db = False
    if mode == "special":
        if options["special_damage"] == "by_weapon_type" and weapon.dtype == "crush":
            max_db = True
        else:
            times *= 2
    if dice:
        for _ in range(times):
            total += sink.roll(dice, "damage", actor).total
    total += mod
    if db:
        total += parse(db).maximum if max_db else sink.roll(db, "damage_bonus", actor).total
    return max(0, total)


def hit_location(c: Combatant, d20: int) -> int:
    """Index of the location a D20 roll hits on ``c``'s table (§15)."""
    for i, loc in enumerate(c.locations):
        if loc.spec.low <= d20 <= loc.spec.high:
            return i
    raise ValueError(f"hit-location roll {d20} not covered by {c.spec.loc_table} table")


def armour_of(c: Combatant, li: int) -> int:
    """Armour points on a location: worn armour (unless broken by a fumble) + Protection + Shield
    x2."""
    loc = c.locations[li]
    worn = 0 if loc.armour_broken else loc.spec.armour
    return worn + c.protection + T.SHIELD_AP_PER_POINT * c.shield_spell


def wound(
    s: RQState,
    ti: int,
    li: int,
    points: int,
    ignore_armour: bool,
    sink: EventSink,
    actor: int | None,
    rule: str,
    mode: str = "normal",
) -> int:
    """Apply ``points`` of damage to location ``li`` of combatant ``ti``; return total HP lost
    (§14-§18).

    Armour absorbs unless ``ignore_armour``. A limb never loses more than 2L from one blow, and only
    that counts against total HP (test vector 5); a blow of 3L severs a limb or kills outright
    through the head, chest or abdomen (test vector 6). Effects are recorded on the location and
    settled later (A23).
    """
    c = s.combatants[ti]
    loc = c.locations[li]
    armour = 0 if ignore_armour else armour_of(c, li)
    dmg = points - armour
    if dmg <= 0:
        sink.emit(
            "absorbed",
            actor,
            ti,
            rule="§16",
            location=loc.spec.name,
            points=points,
            armour=armour,
            result="absorbed",
        )
        return 0
    big = loc.spec.max_hp
    if loc.spec.kind == "limb":
        counted = min(dmg, 2 * big)
        if dmg >= 3 * big and not loc.severed:
            loc.severed = True
            sink.emit(
                "location_effect", actor, ti, rule="§18", location=loc.spec.name, result="severed"
            )
    else:
        counted = dmg
        if dmg >= 3 * big:
            c.instant_death = True
            sink.emit(
                "location_effect",
                actor,
                ti,
                rule="§18",
                location=loc.spec.name,
                result="instant_death",
            )
    loc.damage += counted
    c.hp -= counted
    c.dirty = True
    if c.befuddled_rounds:
        c.befuddled_rounds = 0
    sink.emit(
        "damage",
        actor,
        ti,
        rule=rule,
        amount=counted,
        location=loc.spec.name,
        points=points,
        armour=armour,
        result=mode,
    )
    return counted


def status_for(c: Combatant) -> Status:
    """The status the wounds and total HP give (§17-§18), before dead/fled."""
    if c.instant_death:
        return Status.DEAD
    if c.hp <= 2:
        return Status.UNCONSCIOUS
    out = Status.ACTIVE
    for loc in c.locations:
        big = loc.spec.max_hp
        if loc.damage < big and not loc.severed:
            continue
        kind = loc.spec.kind
        if kind == "head" or (kind != "limb" and loc.damage >= 2 * big):
            return Status.UNCONSCIOUS
        if kind == "chest" or loc.severed or loc.damage >= 2 * big:
            out = Status.INCAPACITATED
    return out


def settle(s: RQState, sink: EventSink) -> None:
    """Apply the statuses and location effects of the wounds dealt so far (A23, §17, §18)."""
    for i, c in enumerate(s.combatants):
        if not c.dirty or c.status not in ALIVE:
            continue
        c.dirty = False
        for loc in c.locations:
            big = loc.spec.max_hp
            if loc.spec.kind == "limb":
                useless = loc.severed or loc.damage >= big
                if useless != loc.useless:
                    loc.useless = useless
                    if useless:
                        sink.emit(
                            "location_effect",
                            None,
                            i,
                            rule="§18",
                            location=loc.spec.name,
                            result="useless",
                        )
                        _drop_for_hands(c, i, sink)
            elif loc.damage >= big and not loc.first_aided:
                if loc.damage >= 2 * big:
                    c.bleed_per_round = T.SEVERE_BLEED_PER_ROUND
                if c.bleed_clock == 0 and c.bleed_per_round == 0:
                    c.bleed_clock = T.BLEED_OUT_ROUNDS[loc.spec.kind]
                    sink.emit(
                        "location_effect",
                        None,
                        i,
                        rule="§18",
                        location=loc.spec.name,
                        result="bleeding",
                    )
        if not c.prone and not c.can_stand():  # "tombe au sol" (§18: leg or abdomen >= L)
            c.prone = True
            sink.emit("location_effect", None, i, rule="§18", location="", result="fell")
        new = status_for(c)
        if new != c.status:
            c.status = new
            sink.emit(
                "status", None, i, rule="§17-§18", status=new.name.lower(), result=new.name.lower()
            )


def _drop_for_hands(c: Combatant, i: int, sink: EventSink) -> None:
    """An arm made useless drops what it held: shields for the shield arm, then two-handed weapons
    (§18)."""
    hands = c.usable_hands()
    left_gone = any(loc.useless for loc in c.locations if loc.spec.name == T.SHIELD_ARM)
    order = sorted(
        range(len(c.weapons)),
        key=lambda w: (
            c.weapons[w].spec.kind != "shield" or not left_gone,
            -c.weapons[w].spec.hands,
        ),
    )
    for w in order:
        used = sum(c.weapons[x].spec.hands for x in range(len(c.weapons)) if c.ready >> x & 1)
        if used <= hands:
            break
        if c.ready >> w & 1:
            c.ready &= ~(1 << w)
            sink.emit("drop", None, i, rule="§18", weapon=c.weapons[w].spec.name, result="dropped")


def end_of_round_deaths(s: RQState, sink: EventSink) -> None:
    """Anyone ending the round at total HP <= 0 dies (§17, §19; test vector 18)."""
    for i, c in enumerate(s.combatants):
        if c.status in ALIVE and (c.hp <= 0 or c.instant_death):
            c.status = Status.DEAD
            sink.emit("status", None, i, rule="§19", status="dead", result="dead")


def bleed(s: RQState, sink: EventSink, clocks: bool) -> None:
    """Bookkeeping of bleeding wounds: 1 HP a round at >= 2L, death when a >= L clock runs out
    (§18, A20)."""
    for i, c in enumerate(s.combatants):
        if c.status not in ALIVE:
            continue
        if c.bleed_per_round:
            c.hp -= c.bleed_per_round
            c.dirty = True
            sink.emit("bleeding", None, i, rule="§18", amount=c.bleed_per_round, result="lost_hp")
        if clocks and c.bleed_clock:
            c.bleed_clock -= 1
            if c.bleed_clock == 0:
                c.instant_death = c.dirty = True
                sink.emit("bleeding", None, i, rule="§18 A20", result="bled_out")


def heal_location(c: Combatant, li: int, amount: int) -> int:
    """Restore up to ``amount`` HP to location ``li`` (and total HP), never more than its damage
    (§20)."""
    loc = c.locations[li]
    if loc.severed:
        return 0
    healed = max(0, min(amount, loc.damage))
    loc.damage -= healed
    c.hp += healed
    c.dirty = True
    big = loc.spec.max_hp
    if loc.spec.kind != "limb" and loc.damage < big:
        c.bleed_clock = 0
        if loc.damage < 2 * big:
            c.bleed_per_round = 0
    return healed


def worst_location(c: Combatant, first_aid: bool = False) -> int:
    """The most damaged location (for Heal and First Aid); -1 if none qualifies."""
    best, idx = 0, -1
    for i, loc in enumerate(c.locations):
        if loc.severed or (first_aid and loc.first_aided):
            continue
        if loc.damage > best:
            best, idx = loc.damage, i
    return idx
