"""Initiative (ose-bx.md §3): 1d6 per side each round, or the optional individual d6 + DEX modifier.

Ties are re-rolled (``tie_mode="reroll"``) or resolved simultaneously (``"simultaneous"``, the default, A3):
tied sides form one group whose deaths wait for the end of each step. The result is ``state.groups``: the
combatant indices of each initiative group, in acting order (declaration order inside a group, A16).
"""

from __future__ import annotations

from npc_tactics.rules.base import EventSink, Status
from npc_tactics.rules.ose.state import OSEState

MAX_REROLLS = 50  #: a re-roll loop that never separates the sides falls back to simultaneous


def roll_initiative(state: OSEState, sink: EventSink) -> None:
    """Roll this round's initiative and set ``state.groups`` and each combatant's ``group``."""
    if state.options["individual_initiative"]:
        _individual(state, sink)
    else:
        _sides(state, sink)
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
