"""Resolving an exchange after the effect picks (mrq-opposed.md §3.1 damage pipeline, §4.2, §6, A13, A22).

Damage (weapon roll, Deflection Points, location, armour) → the other effects in the order chosen → (OPTION:
impale leave/pull) → fumbles → done.
"""

from __future__ import annotations

from npc_tactics.rules.base import Decision, DecisionKind, EventSink, Status
from npc_tactics.systems.mrq.rules import fighters as F
from npc_tactics.systems.mrq.rules import missiles as M
from npc_tactics.systems.mrq.rules.damage import (
    apply_location_damage,
    hit_table,
    loc_name,
    roll_location,
    roll_weapon,
)
from npc_tactics.systems.mrq.rules.effects import (
    _apply_effect,
    _ensure_damage_roll,
    _from_above,
    damage_passes,
)
from npc_tactics.systems.mrq.rules.fumbles import apply_fumble
from npc_tactics.systems.mrq.rules.opposed import halve, simple_test
from npc_tactics.systems.mrq.rules.state import READY, STUCK, Exchange, MRQState
from npc_tactics.systems.mrq.rules.tables import APART, CLOSE, FUMBLE, KNOCKBACK_METRES_PER, LONG

R = "mrq-opposed.md"
DEFENDED = ("defend", "precise")


def resolve(state: MRQState, sink: EventSink) -> None:
    """Damage (§3.1 pipeline), then the remaining effects in the order chosen, then the impale choice."""
    ex = state.exchange
    assert ex is not None  # noqa: S101
    opts = state.options
    a, d = state.combatants[ex.attacker], state.combatants[ex.defender]
    ex.damage_roll = -1
    eff = ex.effects
    if ex.manoeuvre >= 0 and ex.winner == 1:
        _manoeuvre_succeeds(state, sink, ex)
    elif ex.manoeuvre >= 0:
        sink.emit("manoeuvre", ex.defender, ex.attacker, rule=f"{R} §11 A13", result="failure")
    body = (
        damage_passes(state, ex)
        and "attacker_misses" not in eff
        and not ("damage_weapon" in eff and ex.winner == 0 and not opts["damage_weapon_also_body"])
    )
    if ex.winner == 0 or body:
        dmg = _ensure_damage_roll(state, sink, ex)
        halved = ex.winner == 1
        if halved:
            dmg = halve(dmg, bool(opts["round_half_up"]))
        dp = 0
        dp_mode = "full" if ex.winner == 1 else ("half" if ex.margin <= 1 else "none")
        if (
            opts["deflection_points"]
            and ex.defence in DEFENDED
            and dp_mode != "none"
            and F.has_dp(d)
            and "expose_defender" not in eff
        ):
            _, pitem = F.parry_item(d)
            dp = (
                pitem.ap
                if pitem.kind == "shield"
                else roll_weapon(
                    sink,
                    pitem,
                    ex.defender,
                    "deflection points",
                    1 if "maximum_parry" in eff else 0,
                )
            )
            if dp_mode == "half":
                dp = halve(dp, bool(opts["round_half_up"]))
        ex.dp = dp
        if ex.location < 0:
            ex.location = roll_location(
                sink, ex.attacker, ex.defender, _from_above(state, ex), hit_table(state, ex.defender)
            )
        if body:
            net = max(0, dmg - dp)
            armour = F.armour_at(d, ex.location)
            extra: dict[str, object] = {}
            if "bypass_armour" in eff:
                layer, ignored = F.bypassed_layer(d, ex.location)
                armour -= ignored
                extra["bypassed"] = layer
            lost = apply_location_damage(
                state,
                sink,
                ex.attacker,
                ex.defender,
                ex.location,
                net - armour,
                _strike_skill(state, ex),
                f"{R} §3",
                rolled=dmg,
                dp=dp,
                armour=armour,
                **extra,
            )
            ex.wounded = lost > 0
            if opts["knockback"]:
                knockback(state, sink, ex, dmg)
    for verb in eff:
        _apply_effect(state, sink, ex, verb)
    if "impale" in eff and ex.wounded and ex.mode == "missile":
        M.embed(state, sink, ex.attacker, ex.defender, ex.location)
    elif "impale" in eff and ex.wounded and F.attack_item(a)[0] == F.MAIN:
        if ex.mode.startswith("charge") and a.prof.mounted:
            _leave_weapon(state, sink, ex)  # a couched lance stays in the target and is lost (§13)
        elif a.status == Status.ACTIVE:
            ex.phase = "impale"
            state.decision = Decision(
                ex.attacker,
                a.side,
                DecisionKind.OPTION,
                state.round,
                {"impale": ex.defender, "location": loc_name(d, ex.location)},
            )
            return
    finish(state, sink)


def _strike_skill(state: MRQState, ex: Exchange) -> int:
    """The attacker's weapon skill the wound tests oppose (§17): its missile skill for a shot."""
    if ex.mode == "missile":
        return M.missile_skill(state, ex.attacker, ex.defender)
    if ex.mode == "trample":
        return state.combatants[ex.attacker].prof.riding
    return F.attack_skill(state, ex.attacker, ex.defender)


def knockback(state: MRQState, sink: EventSink, ex: Exchange, dmg: int) -> None:
    """Knockback (§15, option ``knockback``; the source's rule is cut, this is the house default built on
    §13, §15 and A6): a blow whose damage roll (after a defender-win halving, before Deflection Points and
    armour) exceeds the target's SIZ pushes it back 1 m per full 5 points over (at least 1 m; out of close
    distance) and it must pass Acrobatics (Athletics for quadrupeds) or fall prone. A rider adds its mount's
    SIZ if it passes a simple Riding test (§13). Unlike Bash (A6), it depends on SIZ (§15)."""
    d = state.combatants[ex.defender]
    if d.status != Status.ACTIVE or dmg <= d.prof.siz:
        return
    auto = bool(state.options["automatic_success_failure"])
    rule = f"{R} §15"
    siz = d.prof.siz
    if d.prof.mount_siz and simple_test(
        sink, ex.defender, d.prof.riding, "Riding: brace against knockback", auto, f"{R} §13"
    ):
        siz += d.prof.mount_siz
        if dmg <= siz:
            sink.emit("knockback", ex.attacker, ex.defender, rule=rule, result="braced", metres=0)
            return
    metres = max(1, (dmg - siz) // KNOCKBACK_METRES_PER)
    dist = state.distance(ex.attacker, ex.defender)
    if dist == CLOSE:
        state.set_distance(ex.attacker, ex.defender, LONG)
    elif dist == APART:
        state.set_metres(ex.attacker, ex.defender, state.metres(ex.attacker, ex.defender) + metres)
    fell = not simple_test(sink, ex.defender, F.acrobatics(d), "keep footing after knockback", auto, rule)
    if fell:
        d.prone = True
    sink.emit(
        "knockback",
        ex.attacker,
        ex.defender,
        rule=rule,
        result="fell" if fell else "pushed",
        metres=metres,
    )


def _manoeuvre_succeeds(state: MRQState, sink: EventSink, ex: Exchange) -> None:
    me = ex.defender
    if ex.disengage:
        for e in range(state.n):
            if state.combatants[e].side != state.combatants[me].side:
                state.set_distance(me, e, APART)
    else:
        state.set_distance(me, ex.attacker, ex.manoeuvre)
    sink.emit(
        "manoeuvre",
        me,
        ex.attacker,
        rule=f"{R} §11 A13",
        result="success",
        to="disengaged" if ex.disengage else ex.manoeuvre,
    )


def answer_impale(state: MRQState, sink: EventSink, verb: str) -> None:
    """Leave the weapon in (target −20%, attacker without it) or pull it free now: Brute Force first (A22);
    on success the weapon's normal damage, no modifier, armour ignored, to the same location."""
    ex = state.exchange
    assert ex is not None  # noqa: S101
    state.decision = None
    if verb == "impale_pull":
        pull_free(state, sink, ex.attacker, ex.defender, ex.location, free=True)
    else:
        _leave_weapon(state, sink, ex)
    finish(state, sink)


def _leave_weapon(state: MRQState, sink: EventSink, ex: Exchange) -> None:
    a, d = state.combatants[ex.attacker], state.combatants[ex.defender]
    a.weapon_state, a.stuck_in, a.stuck_loc = STUCK, ex.defender, ex.location
    d.impaled += 1
    sink.emit(
        "impaled",
        ex.attacker,
        ex.defender,
        rule=f"{R} §4.2 Impale",
        result="left_in",
        location=loc_name(d, ex.location),
    )


def pull_free(state: MRQState, sink: EventSink, att: int, dfd: int, loc: int, free: bool) -> bool:
    """Brute Force test to pull an impaling weapon out (A22); on failure it stays (or is left) in."""
    a, d = state.combatants[att], state.combatants[dfd]
    ok = simple_test(
        sink,
        att,
        a.prof.brute_force,
        "Brute Force: pull the weapon free",
        bool(state.options["automatic_success_failure"]),
        f"{R} §4.2 A22",
    )
    if ok:
        if a.weapon_state == STUCK:
            d.impaled = max(0, d.impaled - 1)
        a.weapon_state, a.stuck_in, a.stuck_loc = READY, -1, -1
        extra = roll_weapon(sink, a.prof.weapon, att, "pull-free damage")
        sink.emit("impaled", att, dfd, rule=f"{R} §4.2 Impale", result="pulled_free", extra=extra)
        apply_location_damage(state, sink, att, dfd, loc, extra, F.base_skill(a), f"{R} §4.2 Impale", pulled=True)
    elif free:
        a.weapon_state, a.stuck_in, a.stuck_loc = STUCK, dfd, loc
        d.impaled += 1
        sink.emit("impaled", att, dfd, rule=f"{R} §4.2 Impale", result="stuck", location=loc_name(d, loc))
    return ok


def finish(state: MRQState, sink: EventSink) -> None:
    """Fumbles of either side (§6), then the exchange is over."""
    ex = state.exchange
    assert ex is not None  # noqa: S101
    state.exchange = None
    ex.phase = "done"
    if ex.att_level == FUMBLE and ex.mode != "trample" and state.combatants[ex.attacker].status == Status.ACTIVE:
        table = "missile" if ex.mode == "missile" else None
        apply_fumble(state, sink, ex.attacker, ex.defender, table)
    if ex.defence != "none" and ex.def_level == FUMBLE and state.combatants[ex.defender].status == Status.ACTIVE:
        apply_fumble(state, sink, ex.defender, ex.attacker)
