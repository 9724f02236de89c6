"""One attack exchange, from the blow to the last special effect (mrq-opposed.md §2 resolution procedure).

start → (REACT decision of the defender) → both roll D100 → winner and margin → (EFFECT decisions of the
winner, one per effect granted) → damage (weapon roll, Deflection Points, location, armour) → the other
effects in the order chosen → (OPTION: impale leave/pull) → fumbles → done. Acrobatics manoeuvres (A13)
and charges (§14) reuse it.
"""

from __future__ import annotations

import numpy as np

from npc_tactics.rules.base import Decision, DecisionKind, EventSink, Status
from npc_tactics.rules.mrq import fighters as F
from npc_tactics.rules.mrq.actions import IDX, N_ACTIONS
from npc_tactics.rules.mrq.damage import (
    apply_location_damage,
    loc_name,
    roll_location,
    roll_weapon,
)
from npc_tactics.rules.mrq.effects import (  # noqa: F401 - re-exported
    _apply_effect,
    _ensure_damage_roll,
    _from_above,
    damage_passes,
    legal_effects,
)
from npc_tactics.rules.mrq.fumbles import apply_fumble
from npc_tactics.rules.mrq.opposed import (
    compare,
    effects_granted,
    halve,
    halve_down,
    opposed_test,
    simple_test,
    success_level,
)
from npc_tactics.rules.mrq.state import READY, STUCK, Exchange, MRQState
from npc_tactics.rules.mrq.tables import (
    APART,
    DISTANCE_NAMES,
    FAILURE,
    FUMBLE,
    LOCATIONS,
    LONG,
    LONG_WEAPON_REACH,
    MARGIN_NAMES,
)

R = "mrq-opposed.md"
DEFENDED = ("defend", "precise")


# ----- starting -------------------------------------------------------------------------------------
def start_attack(
    state: MRQState,
    sink: EventSink,
    att: int,
    dfd: int,
    mode: str,
    dm: str | None = None,
    manoeuvre: int = -1,
    disengage: bool = False,
) -> None:
    """Begin an exchange; stop at the defender's REACT decision when it has a Reaction left."""
    halvings = {"precise": 1, "double_precise": 2}.get(mode, 0)
    ex = Exchange(
        att, dfd, mode=mode, halvings=halvings, dm=dm, manoeuvre=manoeuvre, disengage=disengage
    )
    state.exchange = ex
    d = state.combatants[dfd]
    if mode == "charge":
        ex.phase = "charge"
        _react_decision(state, ex, {"attacker": att, "charge": True})
        return
    if manoeuvre >= 0 or mode == "charge_undefended":
        ex.defence = "evade" if manoeuvre >= 0 else "none"
        roll_exchange(state, sink)
        return
    if d.status == Status.ACTIVE and d.reactions > 0:
        ex.phase = "react"
        _react_decision(state, ex, {"attacker": att, "charge": False, "mode": mode})
        return
    ex.defence = "none"
    roll_exchange(state, sink)


def _react_decision(state: MRQState, ex: Exchange, ctx: dict[str, object]) -> None:
    d = state.combatants[ex.defender]
    ctx["weapon"] = F.attack_item(state.combatants[ex.attacker])[1].name
    state.decision = Decision(ex.defender, d.side, DecisionKind.REACT, state.round, ctx)


def react_options(state: MRQState) -> list[int]:
    """Legal Reactions (§20.2): defend, precise defence, evade (Acrobatics, A12) or none; against a charge,
    receive it or try to evade it (§14)."""
    ex = state.exchange
    assert ex is not None  # noqa: S101 - engine invariant, never user input
    d = state.combatants[ex.defender]
    if ex.phase == "charge":
        out = [IDX["receive_charge"]]
        if d.reactions > 0 and F.can_move(d):
            out.append(IDX["evade_charge"])
        return out
    out = [IDX["defend"], IDX["precise_defence"], IDX["no_reaction"]]
    if F.can_move(d):
        out.append(IDX["evade"])
    return out


def answer_react(state: MRQState, sink: EventSink, verb: str) -> None:
    ex = state.exchange
    assert ex is not None  # noqa: S101
    d = state.combatants[ex.defender]
    state.decision = None
    if verb in ("receive_charge", "evade_charge"):
        _answer_charge(state, sink, ex, verb)
        return
    ex.defence = {"defend": "defend", "precise_defence": "precise", "evade": "evade"}.get(
        verb, "none"
    )
    if ex.defence != "none":
        d.reactions -= 1
        if ex.defence == "precise":
            ex.def_halvings = 1
    sink.emit(
        "reaction",
        ex.defender,
        ex.attacker,
        rule=f"{R} §20.2",
        result=ex.defence,
        reactions_left=d.reactions,
    )
    roll_exchange(state, sink)


def _answer_charge(state: MRQState, sink: EventSink, ex: Exchange, verb: str) -> None:
    """Receive a charge (a longer weapon strikes first, a spear with the charger's damage modifier) or evade
    it: Acrobatics vs the charger's Riding or Athletics; a failed evasion takes the charge undefended (§14)."""
    a, d = state.combatants[ex.attacker], state.combatants[ex.defender]
    state.exchange = None
    state.set_distance(ex.attacker, ex.defender, LONG)
    charger_dm = a.prof.mount_dm if a.prof.mounted else a.prof.dm
    charge_dm = (
        a.prof.mount_dm
        if a.prof.mounted and F.attack_item(a)[1].reach >= LONG_WEAPON_REACH
        else None
    )
    if verb == "evade_charge":
        d.reactions -= 1
        skill = a.prof.riding if a.prof.mounted else a.prof.athletics
        ok = opposed_test(
            sink,
            ex.defender,
            F.acrobatics(d),
            ex.attacker,
            skill,
            "evade charge",
            bool(state.opts["automatic_success_failure"]),
            f"{R} §14",
        )
        sink.emit(
            "charge", ex.attacker, ex.defender, rule=f"{R} §14", result="evaded" if ok else "caught"
        )
        if not ok:
            state.queue.insert(0, (ex.attacker, ex.defender, "charge_undefended", charge_dm))
        return
    sink.emit("charge", ex.attacker, ex.defender, rule=f"{R} §14", result="received")
    state.queue.insert(0, (ex.attacker, ex.defender, "charge_attack", charge_dm))
    _, dw = F.attack_item(d)
    if dw.reach > F.attack_item(a)[1].reach:
        state.queue.insert(
            0, (ex.defender, ex.attacker, "free_strike", charger_dm if dw.set_vs_charge else None)
        )


# ----- the opposed roll -------------------------------------------------------------------------------
def roll_exchange(state: MRQState, sink: EventSink) -> None:
    """Both roll D100; find the winner and margin; grant effects (§2, §3)."""
    ex = state.exchange
    assert ex is not None  # noqa: S101
    opts = state.opts
    auto = bool(opts["automatic_success_failure"])
    d = state.combatants[ex.defender]
    skill = F.attack_skill(state, ex.attacker, ex.defender)
    for _ in range(ex.halvings):
        skill = halve_down(skill)
    ex.att_skill = skill
    ex.att_roll = sink.die(100, "attack", ex.attacker, ex.defender)
    ex.att_level = success_level(ex.att_roll, skill, auto)
    if ex.defence == "none":
        ex.def_level, ex.def_roll = FAILURE, 0  # A3: an undefended defender counts as a failure
    else:
        dskill = F.acrobatics(d) if ex.defence == "evade" else F.defence_skill(d)
        for _ in range(ex.def_halvings):
            dskill = halve_down(dskill)
        ex.def_skill = dskill
        ex.def_roll = sink.die(100, "defence", ex.defender, ex.attacker)
        ex.def_level = success_level(ex.def_roll, dskill, auto)
    ex.winner, ex.margin = compare(
        ex.att_level, ex.att_roll, ex.def_level, ex.def_roll, bool(opts["margins_among_failures"])
    )
    extra = ex.halvings if ex.winner == 0 else ex.def_halvings if ex.winner == 1 else 0
    n = effects_granted(opts, ex.winner, ex.margin, extra)
    if ex.defence == "none" and not opts["undefended_effects"] and ex.winner == 0:
        n = 0
    ex.effects_left = n
    result = (
        "miss"
        if ex.winner < 0
        else ("attacker_" if ex.winner == 0 else "defender_") + MARGIN_NAMES[ex.margin]
    )
    sink.emit(
        "attack",
        ex.attacker,
        ex.defender,
        rule=f"{R} §2",
        result=result,
        mode=ex.mode,
        defence=ex.defence,
        att_skill=skill,
        att_roll=ex.att_roll,
        def_skill=ex.def_skill,
        def_roll=ex.def_roll,
        margin=ex.margin,
        effects=n,
    )
    ex.phase = "effects"
    next_effect(state, sink)


# ----- special effects -------------------------------------------------------------------------------
def next_effect(state: MRQState, sink: EventSink) -> None:
    """Issue the next EFFECT decision, or resolve the exchange when none is left (or none is legal)."""
    ex = state.exchange
    assert ex is not None  # noqa: S101
    legal = legal_effects(state, ex) if ex.effects_left > 0 else None
    if legal:
        actor = ex.attacker if ex.winner == 0 else ex.defender
        state.decision = Decision(
            actor,
            state.combatants[actor].side,
            DecisionKind.EFFECT,
            state.round,
            {
                "remaining": ex.effects_left,
                "margin": ex.margin,
                "role": "attacker" if ex.winner == 0 else "defender",
                "opponent": ex.defender if ex.winner == 0 else ex.attacker,
            },
        )
        mask = np.zeros(N_ACTIONS, dtype=np.bool_)
        mask[legal] = True
        state.mask_cache = (state.decision, mask)
        return
    state.decision = None
    resolve(state, sink)


def answer_effect(state: MRQState, sink: EventSink, verb: str, option: object) -> None:
    ex = state.exchange
    assert ex is not None  # noqa: S101
    ex.effects.append(verb)
    ex.effects_left -= 1
    actor = ex.attacker if ex.winner == 0 else ex.defender
    target = ex.defender if ex.winner == 0 else ex.attacker
    _, item = F.attack_item(state.combatants[actor])
    if verb in ("choose_location", "deflect_blow"):
        ex.location = LOCATIONS.index(str(option))
    sink.emit(
        "special_effect",
        actor,
        target,
        rule=f"{R} §4",
        result=verb,
        option=option,
        margin=ex.margin,
        role="attacker" if ex.winner == 0 else "defender",
        weapon=item.name,
        weapon_kind=item.kind,
    )
    state.decision = None
    if verb == "change_distance":
        state.set_distance(ex.attacker, ex.defender, DISTANCE_NAMES.index(str(option)))
    next_effect(state, sink)


# ----- resolution ------------------------------------------------------------------------------------
def resolve(state: MRQState, sink: EventSink) -> None:
    """Damage (§3.1 pipeline), then the remaining effects in the order chosen, then the impale choice."""
    ex = state.exchange
    assert ex is not None  # noqa: S101
    opts = state.opts
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
            ex.location = roll_location(sink, ex.attacker, ex.defender, _from_above(state, ex))
        if body:
            net = max(0, dmg - dp)
            armour = 0 if "bypass_armour" in eff else d.armour[ex.location]
            lost = apply_location_damage(
                state,
                sink,
                ex.attacker,
                ex.defender,
                ex.location,
                net - armour,
                F.attack_skill(state, ex.attacker, ex.defender),
                f"{R} §3",
                rolled=dmg,
                dp=dp,
                armour=armour,
            )
            ex.wounded = lost > 0
    for verb in eff:
        _apply_effect(state, sink, ex, verb)
    if "impale" in eff and ex.wounded and F.attack_item(a)[0] == F.MAIN:
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
        bool(state.opts["automatic_success_failure"]),
        f"{R} §4.2 A22",
    )
    if ok:
        if a.weapon_state == STUCK:
            d.impaled = max(0, d.impaled - 1)
        a.weapon_state, a.stuck_in, a.stuck_loc = READY, -1, -1
        extra = roll_weapon(sink, a.prof.weapon, att, "pull-free damage")
        sink.emit("impaled", att, dfd, rule=f"{R} §4.2 Impale", result="pulled_free", extra=extra)
        apply_location_damage(
            state, sink, att, dfd, loc, extra, F.base_skill(a), f"{R} §4.2 Impale", pulled=True
        )
    elif free:
        a.weapon_state, a.stuck_in, a.stuck_loc = STUCK, dfd, loc
        d.impaled += 1
        sink.emit(
            "impaled", att, dfd, rule=f"{R} §4.2 Impale", result="stuck", location=loc_name(d, loc)
        )
    return ok


def finish(state: MRQState, sink: EventSink) -> None:
    """Fumbles of either side (§6), then the exchange is over."""
    ex = state.exchange
    assert ex is not None  # noqa: S101
    state.exchange = None
    ex.phase = "done"
    if ex.att_level == FUMBLE and state.combatants[ex.attacker].status == Status.ACTIVE:
        apply_fumble(state, sink, ex.attacker, ex.defender)
    if (
        ex.defence != "none"
        and ex.def_level == FUMBLE
        and state.combatants[ex.defender].status == Status.ACTIVE
    ):
        apply_fumble(state, sink, ex.defender, ex.attacker)
