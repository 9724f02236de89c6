"""Starting an attack and the defender's Reaction (mrq-opposed.md §2 step 1, §14, §20.2, A3, A12).

start → REACT decision of the defender (when it has a Reaction left) → the opposed roll (``roll``). A missile
(§11) can only be met with a shield or evaded with Acrobatics; a charge is received or evaded (§14).
"""

from __future__ import annotations

from npc_tactics.rules.base import Decision, DecisionKind, EventSink, Status
from npc_tactics.systems.mrq.rules import fighters as F
from npc_tactics.systems.mrq.rules import mounts
from npc_tactics.systems.mrq.rules.actions import IDX
from npc_tactics.systems.mrq.rules.opposed import opposed_test
from npc_tactics.systems.mrq.rules.roll import roll_exchange
from npc_tactics.systems.mrq.rules.state import Exchange, MRQState
from npc_tactics.systems.mrq.rules.tables import LONG, LONG_WEAPON_REACH

R = "mrq-opposed.md"


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
    ex = Exchange(att, dfd, mode=mode, halvings=halvings, dm=dm, manoeuvre=manoeuvre, disengage=disengage)
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
    if mounts.ridden(state, dfd) and d.status == Status.ACTIVE:
        if state.combatants[d.rider].reactions > 0:  # the rider may defend its mount (§13)
            ex.phase = "react"
            _react_decision(state, ex, {"attacker": att, "charge": False, "mode": mode, "mount": True})
            return
        ex.defence = "none"
        if d.reactions > 0 and ex.mode != "missile":
            ex.defence = "defend"  # the mount defends itself ([HOUSE]: an animal always does)
            d.reactions -= 1
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
    missile = ex.mode == "missile"
    ctx["missile"] = missile
    item = F.TRAMPLE if ex.mode == "trample" else F.strike_item(state.combatants[ex.attacker], missile)
    ctx["weapon"] = item.name
    who = mounts.controller(state, ex.defender)  # a ridden mount's rider decides for it (§13)
    state.decision = Decision(who, d.side, DecisionKind.REACT, state.round, ctx)


def react_options(state: MRQState) -> list[int]:
    """Legal Reactions (§20.2): defend, precise defence, evade (Acrobatics, A12) or none; against a charge,
    receive it or try to evade it (§14); against a missile, evade, block with a usable shield, or none (§11)."""
    ex = state.exchange
    assert ex is not None  # noqa: S101 - engine invariant, never user input
    d = state.combatants[ex.defender]
    if ex.phase == "charge":
        out = [IDX["receive_charge"]]
        if d.reactions > 0 and F.can_move(d):
            out.append(IDX["evade_charge"])
        return out
    if mounts.ridden(state, ex.defender):  # the rider defends its mount, or leaves it to itself (§13)
        return [IDX["defend"], IDX["precise_defence"], IDX["no_reaction"]]
    if ex.mode == "missile" and not F.shield_ready(d):
        out = [IDX["no_reaction"]]
    else:
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
    ex.defence = {"defend": "defend", "precise_defence": "precise", "evade": "evade"}.get(verb, "none")
    if mounts.ridden(state, ex.defender):
        _answer_for_mount(state, ex)
    elif ex.defence != "none":
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


def _answer_for_mount(state: MRQState, ex: Exchange) -> None:
    """§13: the rider spends its own Reaction to defend its mount with its own skill (``ex.guard``), or the
    mount defends itself while it has a Reaction left ([HOUSE]), else the blow is undefended."""
    m = state.combatants[ex.defender]
    if ex.defence != "none":
        ex.guard = m.rider
        state.combatants[m.rider].reactions -= 1
        if ex.defence == "precise":
            ex.def_halvings = 1
    elif m.reactions > 0 and ex.mode != "missile":
        ex.defence = "defend"
        m.reactions -= 1


def _answer_charge(state: MRQState, sink: EventSink, ex: Exchange, verb: str) -> None:
    """Receive a charge (a longer weapon strikes first, a spear with the charger's damage modifier) or evade
    it: Acrobatics vs the charger's Riding or Athletics; a failed evasion takes the charge undefended (§14)."""
    a, d = state.combatants[ex.attacker], state.combatants[ex.defender]
    state.exchange = None
    state.set_distance(ex.attacker, ex.defender, LONG)
    charger_dm = a.prof.mount_dm if a.prof.mounted else a.prof.dm
    charge_dm = a.prof.mount_dm if a.prof.mounted and F.attack_item(a)[1].reach >= LONG_WEAPON_REACH else None
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
            bool(state.options["automatic_success_failure"]),
            f"{R} §14",
            lower_wins=state.options["opposed_both_fail"] == "lower_roll_wins",
        )
        sink.emit("charge", ex.attacker, ex.defender, rule=f"{R} §14", result="evaded" if ok else "caught")
        if not ok:
            state.queue.insert(0, (ex.attacker, ex.defender, "charge_undefended", charge_dm))
        return
    sink.emit("charge", ex.attacker, ex.defender, rule=f"{R} §14", result="received")
    # §14: "elle aura l'opportunité de porter un coup à l'adversaire lui chargeant dessus" (the receiver always
    # gets its blow) and "c'est le combattant avec l'arme dont la portée est la plus longue qui attaque en
    # premier" (reach only decides the order; equal reach: the charger, who acts, goes first).
    _, dw = F.attack_item(d)
    strike = (ex.defender, ex.attacker, "free_strike", charger_dm if dw.set_vs_charge else None)
    charge = (ex.attacker, ex.defender, "charge_attack", charge_dm)
    first, second = (strike, charge) if dw.reach > F.attack_item(a)[1].reach else (charge, strike)
    state.queue[0:0] = [first, second]
    if a.prof.mounted and state.options["mount_tramples"]:
        # §14: "Si l'adversaire est monté, la cible risque aussi d'être blessée par la monture, voire d'être
        # piétinée !" [HOUSE] mechanics: the rider's Riding against the target's defence, the mount's damage
        # modifier as damage, no special effects (the mount is not a combatant: no stat block of its own).
        state.queue.insert(2, (ex.attacker, ex.defender, "trample", a.prof.mount_dm))
