"""Combat Actions (mrq-opposed.md §20.1): which are legal for a combatant, and what each does."""

from __future__ import annotations

from npc_tactics.rules.base import EventSink, Status
from npc_tactics.systems.mrq.rules import exchange as X
from npc_tactics.systems.mrq.rules import fighters as F
from npc_tactics.systems.mrq.rules import missiles as M
from npc_tactics.systems.mrq.rules.actions import IDX, MAX_PER_SIDE, TARGETED
from npc_tactics.systems.mrq.rules.damage import set_status
from npc_tactics.systems.mrq.rules.opposed import opposed_test
from npc_tactics.systems.mrq.rules.state import DROPPED, READY, STUCK, MRQState
from npc_tactics.systems.mrq.rules.tables import APART, CLOSE, LONG

R = "mrq-opposed.md"
_ATTACK_VERBS = frozenset(("attack", "precise_attack", "double_precise_attack"))


def act_options(state: MRQState, a: int, free_attack: bool = False) -> list[int]:
    """Legal Combat Actions of ``a`` (§20.1); the two-weapon free attack allows attacks only (§7)."""
    cs = state.combatants
    me = cs[a]
    out = [IDX["hold"]]
    move = F.can_move(me)
    shooter = me.prof.missile is not None and not free_attack and M.can_shoot(state, a)
    engaged = False
    halving = state.options["skill_halving_rule"] and F.base_skill(me) > 100
    my_reach = F.reach(me)
    house = state.options["reach_rule"] == "house"
    n = state.n
    row = a * n
    for k, e in enumerate(state.sides[1 - me.side][:MAX_PER_SIDE]):
        o = cs[e]
        if o.status != Status.ACTIVE:
            continue
        d = state.dist[row + e]
        if d:
            engaged = True
            o_reach = F.reach(o)
            if not F.reach_blocks(house, d, my_reach, o_reach):  # F.can_strike
                out.append(TARGETED["attack"][k])
                out.append(TARGETED["precise_attack"][k])
                if halving:
                    out.append(TARGETED["double_precise_attack"][k])
        if free_attack:
            continue
        if o.entangled_by == a:
            out.append(TARGETED["entangle_trip"][k])
        if shooter and M.in_range(state, a, e):
            out.append(TARGETED["shoot"][k])
        if not move:
            continue
        if d == APART:
            out.append(TARGETED["advance"][k])
            if M.charge_reach(state, a, e):
                out.append(TARGETED["charge"][k])
        elif house and d == LONG and my_reach < o_reach:
            out.append(TARGETED["close"][k])
        elif house and d == CLOSE and my_reach > o_reach:
            out.append(TARGETED["step_back"][k])
    if free_attack:
        return out
    if move:
        if engaged:
            out.append(IDX["disengage"])
        else:
            out.append(IDX["withdraw"])
            out.append(IDX["fall_back"])
    if me.prone and me.prone_cas == 0 and F.can_stand(me):
        out.append(IDX["stand_up"])
    if me.entangled_by >= 0:
        out.append(IDX["free_self"])
    if (
        me.weapon_state == DROPPED
        or me.off_state == DROPPED
        or me.missile_state == DROPPED
        or (me.weapon_state == STUCK and not F.active(state, me.stuck_in))
    ):
        out.append(IDX["ready_weapon"])
    if me.weapon_state == STUCK and F.active(state, me.stuck_in):
        out.append(IDX["pull_free"])
    if me.embedded:
        out.append(IDX["extract_missile"])
    return out


def closing_test(state: MRQState, a: int, e: int) -> bool:
    """Under the source reach rule, stepping into reach of a longer weapon is the Acrobatics manoeuvre of §11:
    "lorsque un personnage tente de se rapprocher d'un ennemi muni d'une arme à portée plus grande" (the
    combat table decides, A13). The house rule engages at long distance instead and closes in later."""
    return (
        state.options["reach_rule"] == "source"
        and state.metres(a, e) <= state.combatants[a].prof.move
        and F.reach(state.combatants[e]) > F.reach(state.combatants[a])
    )


def do_act(state: MRQState, sink: EventSink, a: int, verb: str, slot: int) -> None:
    me = state.combatants[a]
    me.ca_done += 1
    state.decision = None
    auto = bool(state.options["automatic_success_failure"])
    e = state.sides[1 - me.side][slot] if slot >= 0 else -1
    if me.prof.other_attacks and (verb in _ATTACK_VERBS or verb == "charge"):
        me.attacks += 1  # several attacks: the next attack Combat Action strikes with the next weapon
        if F.other_usable(me):
            sink.emit(
                "natural_attack",
                a,
                e,
                rule=f"{R} §1 A18 (several attacks)",
                weapon=F.attack_item(me)[1].name,
                skill=F.strike_skill(me),
            )
    if verb in _ATTACK_VERBS:
        mode = {"attack": "normal", "precise_attack": "precise"}.get(verb, "double_precise")
        X.start_attack(state, sink, a, e, mode)
    elif verb == "charge":
        state.set_distance(a, e, LONG)
        X.start_attack(state, sink, a, e, "charge")
    elif verb == "advance":
        if closing_test(state, a, e):
            X.start_attack(state, sink, e, a, "manoeuvre", manoeuvre=CLOSE)
        else:
            M.advance(state, sink, a, e)
    elif verb == "shoot":
        me.ammo -= 1
        X.start_attack(state, sink, a, e, "missile")
    elif verb == "fall_back":
        M.fall_back(state, sink, a)
    elif verb == "extract_missile":
        M.extract(state, sink, a)
    elif verb == "close":
        X.start_attack(state, sink, e, a, "manoeuvre", manoeuvre=CLOSE)
    elif verb == "step_back":
        X.start_attack(state, sink, e, a, "manoeuvre", manoeuvre=LONG)
    elif verb == "disengage":
        foes = [j for j in state.sides[1 - me.side] if F.active(state, j) and state.distance(a, j)]
        best = max(foes, key=lambda j: (F.base_skill(state.combatants[j]), -j))
        X.start_attack(state, sink, best, a, "manoeuvre", manoeuvre=APART, disengage=True)
    elif verb == "withdraw":
        set_status(state, sink, a, Status.FLED, f"{R} A6 (withdraw when not engaged)")
    elif verb == "stand_up":
        me.prone = False
        sink.emit("stand_up", a, rule=f"{R} A6", result="standing")
    elif verb == "free_self":
        ent = me.entangled_by
        if opposed_test(
            sink,
            a,
            me.prof.brute_force,
            ent,
            F.base_skill(state.combatants[ent]),
            "free from entanglement",
            auto,
            f"{R} A6",
            lower_wins=state.options["opposed_both_fail"] == "lower_roll_wins",
        ):
            me.entangled_by = me.entangled_loc = -1
    elif verb == "ready_weapon":
        if me.weapon_state == STUCK:
            state.combatants[me.stuck_in].impaled = max(0, state.combatants[me.stuck_in].impaled - 1)
            me.stuck_in = me.stuck_loc = -1
        if me.weapon_state in (DROPPED, STUCK):
            me.weapon_state = READY
        elif me.off_state == DROPPED:
            me.off_state = READY
        elif me.missile_state == DROPPED:
            me.missile_state = READY
        sink.emit("ready_weapon", a, rule=f"{R} §20.1", result="ready")
    elif verb == "pull_free":
        X.pull_free(state, sink, a, me.stuck_in, me.stuck_loc, free=False)
    elif verb == "entangle_trip":
        t = state.combatants[e]
        if opposed_test(
            sink,
            a,
            F.base_skill(me) - F.penalty(me),
            e,
            F.acrobatics(t),
            "entangle trip",
            auto,
            f"{R} §4.2 Entangle",
            lower_wins=state.options["opposed_both_fail"] == "lower_roll_wins",
        ):
            t.prone = True
            sink.emit("tripped", a, e, rule=f"{R} §4.2 A6", result="prone")
