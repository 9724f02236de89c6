"""Initiative (ose-bx.md §3): 1d6 per side each round, or the optional individual d6 + DEX modifier.

Ties are re-rolled (``tie_mode="reroll"``) or resolved simultaneously (``"simultaneous"``, the default, A3):
tied sides form one group whose deaths wait for the end of each step. The result is ``state.groups``: the
combatant indices of each initiative group, in acting order (declaration order inside a group, A16).
"""

from __future__ import annotations

from npc_tactics.rules.base import EventSink, Status
from npc_tactics.systems.ose.rules.state import PHASE_MOVE, OSEState

MAX_REROLLS = 50  #: a re-roll loop that never separates the sides falls back to simultaneous


def roll_initiative(state: OSEState, sink: EventSink) -> None:
    """Roll this round's initiative and set ``state.groups`` and each combatant's ``group``."""
    if state.options["individual_initiative"]:
        _individual(state, sink)
    else:
        _sides(state, sink)
    if any(state.surprised):  # a surprised side does nothing in round 1 (OSE "Surprise")
        cs = state.combatants
        kept = [[i for i in g if not state.surprised[cs[i].side]] for g in state.groups]
        state.groups = [g for g in kept if g] or [[]]
    for g, members in enumerate(state.groups):
        for i in members:
            state.combatants[i].group = g


def side_order(rolls: list[int]) -> list[list[int]]:
    """Sides grouped by initiative roll, highest first; tied sides share a group (§3, test vector 2)."""
    by_roll: dict[int, list[int]] = {}
    for side, r in enumerate(rolls):
        by_roll.setdefault(r, []).append(side)
    return [by_roll[r] for r in sorted(by_roll, reverse=True)]


def _sides(state: OSEState, sink: EventSink) -> None:
    cs = state.combatants
    reroll = state.options["tie_mode"] == "reroll"
    r0 = sink.die(6, "initiative side 0")
    r1 = sink.die(6, "initiative side 1")
    tries = 0
    while r0 == r1 and reroll and tries < MAX_REROLLS:
        tries += 1
        r0 = sink.die(6, "initiative side 0")
        r1 = sink.die(6, "initiative side 1")
    state.initiative = [r0, r1]
    members = [
        [i for i, c in enumerate(cs) if c.side == s and c.status == Status.ACTIVE] for s in (0, 1)
    ]
    order = side_order([r0, r1])
    state.groups = [[i for s in g for i in members[s]] for g in order]
    result = "tie" if len(order) == 1 else f"side_{order[0][0]}"
    sink.emit("initiative", rule="ose-bx.md §3", result=result, rolls=[r0, r1])


def _individual(state: OSEState, sink: EventSink) -> None:
    """Each combatant rolls d6 + its initiative modifier; equal scores tie (A4, A5)."""
    cs = state.combatants
    reroll = state.options["tie_mode"] == "reroll"
    scores: dict[int, list[int]] = {}
    order = [i for i, c in enumerate(cs) if c.status == Status.ACTIVE]
    state.initiative = [0] * len(cs)
    for i in order:
        score = sink.die(6, "initiative", i) + cs[i].prof.init_mod
        state.initiative[i] = score
        scores[i] = [score]
    if reroll:  # break ties between different sides with extra d6 rolls
        for _ in range(MAX_REROLLS):
            keys: dict[tuple[int, ...], set[int]] = {}
            for i in order:
                keys.setdefault(tuple(scores[i]), set()).add(cs[i].side)
            tied = [i for i in order if len(keys[tuple(scores[i])]) > 1]
            if not tied:
                break
            for i in tied:
                scores[i].append(sink.die(6, "initiative tie", i))
            for i in order:
                if i not in tied:
                    scores[i].append(
                        7
                    )  # already separated: keep its place relative to the re-rollers
    groups: dict[tuple[int, ...], list[int]] = {}
    for i in order:
        groups.setdefault(tuple(scores[i]), []).append(i)
    state.groups = [groups[k] for k in sorted(groups, reverse=True)]
    sink.emit("initiative", rule="ose-bx.md §3", result="individual", rolls=list(state.initiative))


def tied_move_order(state: OSEState, sink: EventSink, queue: list[int]) -> list[int]:
    """The move step of a tied (simultaneous) group, by a fair rule (A3b): the tied sides roll 1d6 each
    (ties re-rolled) and then move one combatant at a time, alternating sides, the winner's first mover
    first. Each mover sees where the earlier ones went; nobody is favoured by its side's index."""
    from npc_tactics.systems.ose.rules import legal  # local import: legal -> combat -> movement

    per_side: dict[int, list[int]] = {}
    for i in queue:
        per_side.setdefault(state.combatants[i].side, []).append(i)
    movers = {state.combatants[i].side for i in queue if legal.act(state, i, PHASE_MOVE)}
    if len(movers) < 2:  # only one side moves: the order cannot matter, no roll
        return queue
    sides = sorted(per_side)
    rolls = [sink.die(6, f"move order side {s}") for s in sides]
    for _ in range(MAX_REROLLS):
        if len(set(rolls)) == len(rolls):
            break
        rolls = [sink.die(6, f"move order side {s}") for s in sides]
    order = [s for _, s in sorted(zip(rolls, sides, strict=True), key=lambda rs: -rs[0])]
    sink.emit("move_order", rule="ose-bx.md §3 (A3b)", result=f"side_{order[0]}", rolls=rolls)
    out: list[int] = []
    for k in range(max(len(v) for v in per_side.values())):
        out += [per_side[s][k] for s in order if k < len(per_side[s])]
    return out
