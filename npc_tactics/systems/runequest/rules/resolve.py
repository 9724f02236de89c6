"""Resolving one blow: attack roll, parry or dodge roll, the results tables, weapon and body damage.

§9-§13 of runequest-glorantha.md. The defender chose its answer (REACT) before either roll, because
the parry is rolled whether or not the attack succeeds (§11).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from npc_tactics.rules.base import EventSink
from npc_tactics.systems.runequest.rules import calc, poison
from npc_tactics.systems.runequest.rules import tables as T
from npc_tactics.systems.runequest.rules.damage import hit_location, roll_damage, wound
from npc_tactics.systems.runequest.rules.state import Combatant, Incoming, RQState

NO_DEFENCE, PARRY, DODGE = "none", "parry", "dodge"


def defence_chance(c: Combatant, how: str, w: int) -> int:
    """Current parry (weapon ``w``) or dodge chance of ``c``, with the successive -20% (§11,
    §13)."""
    if how == PARRY:
        if c.lose_parry:  # a fumble's lost parry: choosing it spends it, with no roll (A24)
            return 0
        return calc.successive_chance(c.weapons[w].spec.skill, c.parries)
    base = calc.dodge_chance(c.spec.dodge, c.spec.enc, c.spec.max_enc)
    return calc.successive_chance(base, c.dodges)


def weapon_damage_taken(weapon_hp: int, points: int, code: str) -> tuple[int, int]:
    """(HP the weapon loses, points passing through) for the §10.1 codes P1/PX/PF/A1/AX/AF.

    For the A-codes nothing passes through; ``points`` is the parrying weapon's damage D'.
    """
    w = weapon_hp
    if code == "P1":
        return (1, points - w) if points > w else (0, 0)
    if code == "PX":
        return (points - w, points - w) if points > w else (0, 0)
    if code == "PF":
        return min(points, w), max(0, points - w)
    if code == "A1":
        return (1 if points > w else 0), 0
    if code == "AX":
        return max(0, points - w), 0
    if code == "AF":
        return min(points, w), 0
    raise ValueError(f"unknown weapon-damage code {code!r}")


def fumble(s: RQState, who: int, weapon: int, sink: EventSink) -> str:
    """Roll the D20 fumble table for combatant ``who`` and apply its lasting effect (§10.3)."""
    c = s.combatants[who]
    effect = calc.fumble_effect(sink.die(20, "fumble", who))
    if "attack" in effect:
        c.lose_attack = True
    if "parry" in effect:
        c.lose_parry = True
    if "dodge" in effect:  # "et toute Esquive": no dodge for the rest of this round and the next (A24)
        c.no_dodge_until = s.round + 1
    if effect == "armour_breaks":
        li = hit_location(c, sink.die(20, "fumble_location", who))
        c.locations[li].armour_broken = True
        sink.emit(
            "fumble",
            who,
            None,
            rule="§10.3",
            effect=effect,
            location=c.locations[li].spec.name,
            result=effect,
        )
        return effect
    if effect == "drop_weapon":
        if weapon < 0 or not c.ready >> weapon & 1:
            weapon = next((w for w in range(len(c.weapons)) if c.ready >> w & 1), -1)
        if weapon >= 0:
            c.ready &= ~(1 << weapon)
    sink.emit("fumble", who, None, rule="§10.3", effect=effect, result=effect)
    return effect


def _damage_weapon(s: RQState, who: int, w: int, loss: int, sink: EventSink, rule: str) -> None:
    if loss <= 0 or w < 0:
        return
    weapon = s.combatants[who].weapons[w]
    if weapon.spec.max_hp <= 0:  # natural weapons have no weapon HP
        return
    weapon.hp = max(0, weapon.hp - loss)
    sink.emit(
        "weapon_damage",
        None,
        who,
        rule=rule,
        weapon=weapon.spec.name,
        amount=loss,
        result="broken" if weapon.hp == 0 else "damaged",
    )


def _location(s: RQState, inc: Incoming, sink: EventSink) -> int:
    if inc.aimed_loc >= 0:
        return inc.aimed_loc
    return hit_location(
        s.combatants[inc.defender], sink.die(20, "hit_location", inc.attacker, inc.defender)
    )


def _adjacent(s: RQState, inc: Incoming, options: Mapping[str, Any], sink: EventSink) -> int:
    """A5: excess damage "to the adjacent location" goes to the rolled hit location (default) or the
    parrying arm (``adjacent_location: parrying_arm``)."""
    if options["adjacent_location"] == "parrying_arm":
        d = s.combatants[inc.defender]
        for i, loc in enumerate(d.locations):
            if loc.spec.name == T.SHIELD_ARM:
                return i
    return _location(s, inc, sink)


def resolve_blow(
    s: RQState,
    inc: Incoming,
    how: str,
    pw: int,
    sink: EventSink,
    options: Mapping[str, Any],
    free: bool = False,
) -> dict[str, Any]:
    """Roll and apply one attack answered by ``how`` (parry with weapon ``pw``, dodge or none).

    Returns a small summary (levels and outcome) used by knockback and tests.
    """
    a, d = s.combatants[inc.attacker], s.combatants[inc.defender]
    aweapon = a.weapons[inc.weapon]
    if d.befuddled_rounds:  # Befuddle breaks when its target is attacked ([PUB] RQG)
        d.befuddled_rounds = 0
        sink.emit("befuddle_broken", inc.attacker, inc.defender, rule="§4 Befuddle", result="attacked")
    if how == PARRY and d.lose_parry:  # the fumble's lost parry is this one (§10.3, A24)
        d.lose_parry = False
        sink.emit("parry_lost", inc.defender, inc.attacker, rule="§10.3", result="lost_to_fumble")
        how, pw = NO_DEFENCE, -1
    skill = inc.skill
    def_chance = 0
    if how != NO_DEFENCE:  # skills over 100% lower the opposing one (RQG p. 201)
        def_chance = defence_chance(d, how, pw)
        skill, def_chance = calc.over_100(skill, def_chance)
    att_roll = sink.die(100, "attack", inc.attacker, inc.defender)
    att = calc.success_level(att_roll, skill)
    def_level = -1
    if how == PARRY:
        d.parries += 1
        d.parry_srs |= 1 << inc.sr
        def_level = calc.success_level(
            sink.die(100, "parry", inc.defender, inc.attacker), def_chance
        )
        cell = T.ATTACK_PARRY[att][def_level]
        outcome, mode, ignore, af, df = (
            cell.outcome,
            cell.mode,
            cell.ignore_armour,
            cell.attacker_fumbles,
            cell.defender_fumbles,
        )
    else:
        if how == DODGE:
            d.dodges += 1
            d.dodge_srs |= 1 << inc.sr
            def_level = calc.success_level(
                sink.die(100, "dodge", inc.defender, inc.attacker), def_chance
            )
            dcell = T.DODGE[def_level][att]
        else:
            dcell = T.UNDEFENDED[att]
        outcome, mode, ignore, af, df = (
            dcell.outcome,
            dcell.mode,
            dcell.ignore_armour,
            dcell.attacker_fumbles,
            dcell.defender_fumbles,
        )
    if (
        att == T.FAILURE
        and def_level == T.FUMBLE
        and outcome == "hit"
        and not options["failed_attack_hits_on_defender_fumble"]
    ):
        outcome = "miss"  # A6, published reading: the defender only fumbles
    sink.emit(
        "attack",
        inc.attacker,
        inc.defender,
        rule="§9-§13",
        weapon=aweapon.spec.name,
        wclass=aweapon.spec.wclass,
        sr=inc.sr,
        skill=skill,
        level=T.LEVEL_NAMES[att],
        defence=how,
        defence_level=T.LEVEL_NAMES[def_level] if def_level >= 0 else "",
        aimed=inc.aimed_loc >= 0,
        free=free,
        result=outcome,
    )
    if how != NO_DEFENCE:
        sink.emit(
            "defence",
            inc.defender,
            inc.attacker,
            rule="§11 §13",
            how=how,
            chance=def_chance,
            wclass=aweapon.spec.wclass,
            result=T.LEVEL_NAMES[def_level],
        )
    if att == T.CRIT:
        sink.emit("critical", inc.attacker, inc.defender, rule="§8", result="attack")
    if def_level == T.CRIT:
        sink.emit("critical", inc.defender, inc.attacker, rule="§8", result=how)
    bonus = a.bladesharp if aweapon.spec.kind in ("melee", "shield") and a.bladesharp_rounds else 0
    truesword = a.truesword_rounds > 0 and aweapon.spec.sword
    # thrown weapons add half the damage bonus ([PUB] RQG); bows and slings keep it whole (A10)
    adb = calc.half_db(a.spec.db) if aweapon.spec.kind == "thrown" else a.spec.db
    lost = 0  # hit points the blow took off the defender (a poisoned weapon's dose needs some: poison.py)
    if outcome == "hit":
        if inc.knockback:
            _knockback(s, inc, mode, options, sink, bonus, truesword)
        else:
            points = roll_damage(sink, aweapon.spec, adb, mode, options, inc.attacker, bonus, truesword)
            li = _location(s, inc, sink)
            passive = inc.missile and how == NO_DEFENCE and options["shield_passive_cover"]
            cover = _covering_shield(d, li) if passive else -1
            if cover >= 0:  # A9: a ready shield covering the location soaks the missile like P1
                shield = d.weapons[cover]
                loss, points = weapon_damage_taken(shield.hp, points, "P1")
                _damage_weapon(s, inc.defender, cover, loss, sink, "§12 A9")
            if points > 0:
                lost = wound(s, inc.defender, li, points, ignore, sink, inc.attacker, "§14-§18", mode)
    elif outcome == "through":
        pweapon = d.weapons[pw]
        points = (
            0
            if inc.knockback
            else roll_damage(sink, aweapon.spec, adb, mode, options, inc.attacker, bonus, truesword)
        )
        loss, excess = weapon_damage_taken(pweapon.hp, points, cell.code)
        _damage_weapon(s, inc.defender, pw, loss, sink, f"§10.1 {cell.code}")
        if excess > 0:
            li = (
                _adjacent(s, inc, options, sink)
                if cell.dest == "adjacent"
                else _location(s, inc, sink)
            )
            lost = wound(
                s, inc.defender, li, excess, ignore, sink, inc.attacker, f"§10.2 {cell.code}", mode
            )
    elif outcome == "deflect" and not inc.missile:  # a deflected arrow cannot hurt the bow
        pweapon = d.weapons[pw]
        db = d.spec.db if options["parry_damage_includes_db"] else ""
        points = roll_damage(sink, pweapon.spec, db, mode, options, inc.defender)
        loss, _ = weapon_damage_taken(aweapon.hp, points, cell.code)
        _damage_weapon(s, inc.attacker, inc.weapon, loss, sink, f"§10.1 {cell.code}")
    poison.after_blow(s, inc, lost, sink)
    if af:
        fumble(s, inc.attacker, inc.weapon, sink)
    if df:
        fumble(s, inc.defender, pw, sink)
    return {"attack": att, "defence": def_level, "outcome": outcome, "mode": mode}


def _covering_shield(d: Combatant, li: int) -> int:
    name = d.locations[li].spec.name
    for w, weapon in enumerate(d.weapons):
        if weapon.spec.kind == "shield" and d.ready >> w & 1 and weapon.hp > 0:
            if name in T.SHIELD_COVER.get(weapon.spec.size, ()):
                return w
    return -1


def _knockback(
    s: RQState,
    inc: Incoming,
    mode: str,
    options: Mapping[str, Any],
    sink: EventSink,
    bonus: int,
    truesword: bool,
) -> None:
    """A knockback attack that landed unparried and undodged (§21, A12).

    ``knockback_rule: published`` (default; RQG "Knockback" as best known, [PUB, unverified]): roll
    the blow's damage (success level, db, Bladesharp as usual) without applying it; if it exceeds
    the target's SIZ the target is knocked back 1 m per 5 points (or part) over, at least clear of
    reach, the attacker disengages, and the target rolls DEX x 5 or falls (it loses its next
    attack getting up). Otherwise the push fails. ``push``: the v0 house rule, always pushed 3 m.
    """
    a, d = s.combatants[inc.attacker], s.combatants[inc.defender]
    metres = float(T.DISENGAGE_GAP_M)
    extra: dict[str, Any] = {}
    if options["knockback_rule"] == "published":
        aspec = a.weapons[inc.weapon].spec
        points = roll_damage(sink, aspec, a.spec.db, mode, options, inc.attacker, bonus, truesword)
        over = points - d.spec.siz
        extra = {"damage": points, "siz": d.spec.siz}
        if over <= 0:
            sink.emit("knockback", inc.attacker, inc.defender, rule="§21 A12", result="failure", **extra)
            return
        metres = max(metres, float(-(-over // T.KNOCKBACK_POINTS_PER_M)))
        roll = sink.die(100, "knockback_dex", inc.defender, inc.attacker)
        fell = calc.success_level(roll, d.spec.dex * T.KNOCKBACK_DEX_MULT) > T.SUCCESS
        if fell:
            d.lose_attack = d.prone = True
        extra["fell"] = fell
    direction = 1.0 if d.pos >= a.pos else -1.0
    d.pos = a.pos + direction * metres
    a.disengaged = True
    sink.emit(
        "knockback", inc.attacker, inc.defender, rule="§21 A12", result="success", metres=metres,
        **extra,
    )
