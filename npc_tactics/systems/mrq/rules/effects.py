"""Special effects of the MRQ variant: which are legal, and what those beyond the damage roll do
(mrq-opposed.md §4, A6 house defaults, A19–A21)."""

from __future__ import annotations

from npc_tactics.rules.base import EventSink
from npc_tactics.systems.mrq.rules import fighters as F
from npc_tactics.systems.mrq.rules import missiles as M
from npc_tactics.systems.mrq.rules.actions import EFFECT_IDX, VERB
from npc_tactics.systems.mrq.rules.damage import (
    damage_item,
    loc_name,
    roll_dm,
    roll_weapon,
)
from npc_tactics.systems.mrq.rules.opposed import (
    opposed_test,
    simple_test,
)
from npc_tactics.systems.mrq.rules.state import DROPPED, Exchange, MRQState, Weapon
from npc_tactics.systems.mrq.rules.tables import (
    APART,
    DISARM_BONUS,
    ENORMOUS_SIZ_RATIO,
    FAILURE,
    HEAD,
    LONG,
    LONG_WEAPON_REACH,
    SUCCESS,
    UPPER_BODY,
)

R = "mrq-opposed.md"
DEFENDED = ("defend", "precise")


def damage_passes(state: MRQState, ex: Exchange) -> bool:
    """Does body damage get through before effects (§3, A5)? Attacker win: yes. Defender win on the DP table
    at margin 0–1: halved damage, if the attacker's own roll succeeded (A5 option ``literal_defender_damage``)."""
    if ex.winner == 0:
        return True
    if ex.winner != 1 or ex.defence == "evade" or not state.options["deflection_points"] or ex.margin > 1:
        return False
    return ex.att_level >= SUCCESS or bool(state.options["literal_defender_damage"])


def _from_above(state: MRQState, ex: Exchange) -> bool:
    a = state.combatants[ex.attacker]
    return (
        ex.mode not in ("missile", "trample")
        and a.prof.mounted
        and not state.combatants[ex.defender].prof.mounted
        and F.attack_item(a)[1].reach < LONG_WEAPON_REACH
    )


def _dice_left(item: Weapon, chosen: list[str]) -> bool:
    """Maximise damage and Impale each set one of the weapon's own dice to its maximum (§4.2, A20): both only
    while a die is left (a 1d8 sword cannot max two dice; a 2d6+2 great axe can)."""
    used = sum(1 for v in chosen if v in ("maximise_damage", "impale"))
    return used < sum(n for n, _ in item.dice)


def reachable_locations(state: MRQState, ex: Exchange) -> tuple[int, ...]:
    """Locations *Choose location* may name: "tant que la localisation est à portée de son arme" (§4.2).
    A rider striking down without a long weapon reaches the upper body only (§13, 1d10+10); [HOUSE] a fighter
    on foot without a long weapon cannot reach a rider's head. Otherwise every location."""
    if _from_above(state, ex):
        return UPPER_BODY
    a, d = state.combatants[ex.attacker], state.combatants[ex.defender]
    if d.prof.mounted and not a.prof.mounted and F.attack_item(a)[1].reach < LONG_WEAPON_REACH:
        return tuple(i for i in range(7) if i != HEAD)
    return tuple(range(7))


def legal_effects(state: MRQState, ex: Exchange) -> list[int]:
    """Effect entries the winner may still pick (§4.2 restrictions, A19, A20: no effect twice). A missile
    cannot Disarm, Bash or Entangle, and its target's effects are only those about the damage (Deflect the
    blow, Attacker misses): the others need contact with the shooter [HOUSE]."""
    opts = state.options
    dp_table = bool(opts["deflection_points"])
    chosen = ex.effects
    out: list[int] = []
    add = out.append
    missile = ex.mode == "missile"
    if ex.winner == 0 and missile:
        a, d = state.combatants[ex.attacker], state.combatants[ex.defender]
        item = F.strike_item(a, True)
        spare = _dice_left(item, chosen)
        if spare:
            add(EFFECT_IDX["maximise_damage"][0])
        if "choose_location" not in chosen:
            out.extend(EFFECT_IDX["choose_location"])
        if any(d.armour) or any(d.prof.natural):
            add(EFFECT_IDX["bypass_armour"][0])
        add(EFFECT_IDX["damage_weapon"][0])
        if item.thrusting and spare:
            add(EFFECT_IDX["impale"][0])
        if dp_table and ex.defence in DEFENDED and ex.def_level <= FAILURE and ex.margin <= 1:
            add(EFFECT_IDX["expose_defender"][0])
    elif ex.winner == 0:
        a, d = state.combatants[ex.attacker], state.combatants[ex.defender]
        _, item = F.attack_item(a)
        spare = _dice_left(item, chosen)
        if spare:
            add(EFFECT_IDX["maximise_damage"][0])
        if "choose_location" not in chosen:
            locs = EFFECT_IDX["choose_location"]
            out.extend(locs[i] for i in reachable_locations(state, ex))
        if any(d.armour) or any(d.prof.natural):
            add(EFFECT_IDX["bypass_armour"][0])
        if F.disarmable_item(d) is not None:
            add(EFFECT_IDX["disarm"][0])
        if item.kind == "two_handed" or (
            F.off_usable(a) and a.prof.offhand is not None and a.prof.offhand.kind == "shield"
        ):
            add(EFFECT_IDX["bash"][0])
        add(EFFECT_IDX["damage_weapon"][0])
        if item.entangling and d.entangled_by < 0:
            add(EFFECT_IDX["entangle"][0])
        if item.thrusting and spare:
            add(EFFECT_IDX["impale"][0])
        if dp_table and ex.defence in DEFENDED and ex.def_level <= FAILURE and ex.margin <= 1 and F.has_dp(d):
            add(EFFECT_IDX["expose_defender"][0])
    elif ex.winner == 1:
        a, d = state.combatants[ex.attacker], state.combatants[ex.defender]
        if damage_passes(state, ex):
            if F.has_dp(d) and F.parry_item(d)[1].kind != "shield":
                add(EFFECT_IDX["maximum_parry"][0])
            if "deflect_blow" not in chosen:
                out.extend(EFFECT_IDX["deflect_blow"])
            add(EFFECT_IDX["attacker_misses"][0])
        if not missile:
            if not a.prone:
                add(EFFECT_IDX["trip"][0])
            if F.disarmable_item(a) is not None:
                add(EFFECT_IDX["disarm"][0])
            if F.can_move(d) and "change_distance" not in chosen:
                cur = state.distance(ex.attacker, ex.defender)
                house = opts["reach_rule"] == "house"  # under the source rule only disengaging changes anything
                out.extend(i for k, i in enumerate(EFFECT_IDX["change_distance"]) if k != cur and (house or k == APART))
            add(EFFECT_IDX["damage_weapon"][0])
            add(EFFECT_IDX["attacker_vulnerable"][0])
            if (
                ex.mode != "riposte"
                and "change_distance" not in chosen
                and F.can_strike(state, ex.defender, ex.attacker)
            ):
                add(EFFECT_IDX["riposte"][0])  # a riposte is a blow: the reach rule applies to it too
    if chosen:
        out = [i for i in out if VERB[i] not in chosen]
    return out


def _ensure_damage_roll(state: MRQState, sink: EventSink, ex: Exchange) -> int:
    if ex.damage_roll < 0:
        a = state.combatants[ex.attacker]
        missile = ex.mode == "missile"
        item = F.TRAMPLE if ex.mode == "trample" else F.strike_item(a, missile)
        n_max = ex.effects.count("maximise_damage") + ex.effects.count("impale")
        w = roll_weapon(sink, item, ex.attacker, "damage", n_max)
        dm = M.missile_dm(a) if missile else a.prof.dm if ex.dm is None else ex.dm
        ex.damage_roll = max(0, w + roll_dm(sink, dm, ex.attacker))
    return ex.damage_roll


def _apply_effect(state: MRQState, sink: EventSink, ex: Exchange, verb: str) -> None:
    """Effects that act beyond the damage roll (§4.2, house defaults A6)."""
    auto = bool(state.options["automatic_success_failure"])
    user, target = (ex.attacker, ex.defender) if ex.winner == 0 else (ex.defender, ex.attacker)
    u, t = state.combatants[user], state.combatants[target]
    if verb == "disarm":
        slot = F.disarmable_item(t)
        if slot is None:
            return
        _, uitem = F.attack_item(u)
        bonus = DISARM_BONUS if (uitem.disarm_bonus or uitem.entangling) else 0
        tskill = F.base_skill(t) - F.penalty(t)
        if opposed_test(
            sink,
            user,
            F.base_skill(u) - F.penalty(u) + bonus,
            target,
            tskill,
            "disarm",
            auto,
            f"{R} §4.2 Disarm",
            lower_wins=state.options["opposed_both_fail"] == "lower_roll_wins",
        ):
            sink.die(4, "metres the weapon lands away", target)
            if slot == F.MAIN:
                t.weapon_state = DROPPED
            else:
                t.off_state = DROPPED
            sink.emit("disarmed", user, target, rule=f"{R} §4.2", result="dropped")
    elif verb == "bash":
        roll = _ensure_damage_roll(state, sink, ex)
        if t.prof.siz >= ENORMOUS_SIZ_RATIO * u.prof.siz:
            sink.emit("bash", user, target, rule=f"{R} §4.2 A6", result="unaffected")
            return
        metres = roll // 3
        if metres >= 1 and state.distance(user, target) == 2:
            state.set_distance(user, target, LONG)
        fell = not simple_test(sink, target, F.acrobatics(t), "keep footing after bash", auto, f"{R} A6")
        if fell:
            t.prone = True
        sink.emit(
            "bash",
            user,
            target,
            rule=f"{R} §4.2 A6",
            result="fell" if fell else "pushed",
            metres=metres,
        )
    elif verb == "damage_weapon":
        if ex.winner == 0:
            amount = _ensure_damage_roll(state, sink, ex)
            slot = F.parry_item(t)[0] if ex.defence in DEFENDED else F.attack_item(t)[0]
        else:
            _, uitem = F.attack_item(u)
            amount = max(0, roll_weapon(sink, uitem, user, "damage weapon") + roll_dm(sink, u.prof.dm, user))
            slot = F.attack_item(t)[0]
        damage_item(state, sink, user, target, slot, amount, f"{R} §4.2 Damage weapon")
    elif verb == "entangle":
        t.entangled_by, t.entangled_loc = user, ex.location
        sink.emit(
            "entangled",
            user,
            target,
            rule=f"{R} §4.2 Entangle",
            result="entangled",
            location=loc_name(t, ex.location),
        )
    elif verb == "trip":
        if opposed_test(
            sink,
            user,
            F.base_skill(u) - F.penalty(u),
            target,
            F.acrobatics(t),
            "trip",
            auto,
            f"{R} §4.2 Trip",
            lower_wins=state.options["opposed_both_fail"] == "lower_roll_wins",
        ):
            t.prone = True
            sink.emit("tripped", user, target, rule=f"{R} §4.2 A6", result="prone")
    elif verb == "attacker_vulnerable":
        t.lost_ca += 1
    elif verb == "riposte":
        state.queue.insert(0, (user, target, "riposte", None))
