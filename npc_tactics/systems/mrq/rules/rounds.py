"""The MRQ round loop (mrq-opposed.md §1, A14, A18): Combat Actions by DEX, Reactions, Strike Rank order.

Round: every ACTIVE combatant gets Combat Actions by DEX (+1 free attack, the last one, for a two-weapon
stylist with both weapons), as many Reactions as CAs (+1 free for a usable shield), and a Strike Rank
(DEX+INT)/2 + 1D10 (rounded down; ties: higher DEX, then scenario order). Everyone's first CA goes in SR
order, then everyone's second, and so on. Lost CAs carry over to the next round (A14).
"""

from __future__ import annotations

from npc_tactics.rules.base import (
    MAX_ROUNDS,
    Decision,
    DecisionKind,
    EventSink,
    Outcome,
    SideResult,
    Status,
    side_outcome,
)
from npc_tactics.systems.mrq.rules import exchange as X
from npc_tactics.systems.mrq.rules import fighters as F
from npc_tactics.systems.mrq.rules import mounts
from npc_tactics.systems.mrq.rules.opposed import simple_test
from npc_tactics.systems.mrq.rules.state import MRQState

R = "mrq-opposed.md"
MAX_CYCLES = 6


def new_round(state: MRQState, sink: EventSink) -> None:
    state.round += 1
    sink.round = state.round
    if state.round > state.max_rounds:
        state.round = state.max_rounds
        state.result = Outcome((SideResult.DRAW, SideResult.DRAW), None, state.max_rounds, MAX_ROUNDS)
        return
    sink.emit("round_start", rule=f"{R} §1")
    for i, c in enumerate(state.combatants):
        if c.status != Status.ACTIVE:
            continue
        p = c.prof
        two = p.style == "two_weapons" and F.main_usable(c) and F.off_usable(c)
        c.cas = 0 if c.rider >= 0 else p.cas + (1 if two else 0)  # a mount takes no CA of its own (§13)
        c.free_attack = two and c.rider < 0
        shield = p.offhand is not None and p.offhand.kind == "shield" and F.off_usable(c)
        c.reactions = p.base_reactions + (1 if shield else 0)
        c.sr = 0 if c.rider >= 0 else (p.dex + p.int_) // 2 + sink.die(10, "strike rank", i)  # a mount never acts
        c.ca_done = 0
        c.attacks = c.strike = 0  # several attacks: the main weapon first again (fighters.next_strike)
    state.order = sorted(
        range(state.n),
        key=lambda i: (-state.combatants[i].sr, -state.combatants[i].prof.dex, i),
    )
    state.cycle = state.pos = 0


def next_actor(state: MRQState) -> int:
    order = state.order
    cs = state.combatants
    while state.cycle < MAX_CYCLES:
        while state.pos < len(order):
            i = order[state.pos]
            state.pos += 1
            c = cs[i]
            if c.status == Status.ACTIVE and c.ca_done == state.cycle and state.cycle < c.cas:
                return i
        state.cycle += 1
        state.pos = 0
    return -1


def check_end(state: MRQState) -> bool:
    if state.result is not None:
        return True
    # mounts do not count for the end of the fight (§13, mounts.py): a side with only a horse left has lost
    state.result = side_outcome([c for c in state.combatants if c.rider < 0], 2, state.round)
    return state.result is not None


def advance(state: MRQState, sink: EventSink) -> None:
    """Run the rules until someone must decide or the fight is over."""
    while True:
        mounts.update(state, sink)
        if check_end(state):
            state.decision = None
            state.exchange = None
            return
        if state.queue:
            att, dfd, mode, dm = state.queue.pop(0)
            if F.active(state, att) and F.active(state, dfd) and (mode != "riposte" or F.can_strike(state, att, dfd)):
                X.start_attack(state, sink, att, dfd, mode, dm)
                if state.decision is not None:
                    return
            continue
        i = next_actor(state)
        if i < 0:
            new_round(state, sink)
            continue
        c = state.combatants[i]
        if c.lost_ca > 0:
            c.lost_ca -= 1
            c.ca_done += 1
            sink.emit("lost_action", i, rule=f"{R} §6 A14", result="lost")
            continue
        if c.prone_cas > 0:
            c.prone_cas -= 1
            c.ca_done += 1
            if c.prone_cas == 0 and F.can_stand(c):
                c.prone = False
            sink.emit("lost_action", i, rule=f"{R} §6 A14", result="prone")
            continue
        if c.numb_loc >= 0:
            if c.numb_wait > 0:
                c.numb_wait -= 1
            elif simple_test(sink, i, c.prof.resilience, "Endurance: numb limb", True, f"{R} §6.2"):
                c.numb_loc = -1
        free = c.free_attack and c.ca_done == c.cas - 1
        F.next_strike(c)
        state.decision = Decision(
            i,
            c.side,
            DecisionKind.ACT,
            state.round,
            {"ca": c.ca_done + 1, "cas": c.cas, "free_attack": free},
        )
        return
