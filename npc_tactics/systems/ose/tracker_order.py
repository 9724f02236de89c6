"""The order OSE's rules give this round, for the combat tracker (ose-bx.md §1, §3): the initiative groups as
the engine rolled them (``state.groups``, highest first; tied sides share a group), each combatant with its
side's roll (or its own d6 + DEX score under individual initiative), and the phase the round stands at.

Read off the engine state only: the tracker never re-sorts or re-rolls anything (see
:mod:`npc_tactics.gm.table.fight_view`, which puts these rows in the GM's words).
"""

from __future__ import annotations

from typing import Any

from npc_tactics.rules.base import Status
from npc_tactics.systems.ose.rules.state import (
    PHASE_NAMES,
    STAGE_DECLARE,
    STAGE_GROUP,
    STAGE_OVER,
    STAGE_SLOW,
    OSEState,
)

__all__ = ["order"]


def order(state: OSEState) -> dict[str, Any]:
    """``{"phase", "first", "rows"}``: rows in acting order, each ``{index, number, measure, group, done}``."""
    individual = bool(state.options.get("individual_initiative", False))
    measure = "initiative" if individual else "side_initiative"
    rolled = state.stage != STAGE_DECLARE and bool(state.initiative)
    rows: list[dict[str, Any]] = []
    if rolled:
        for g, members in enumerate(state.groups):
            for i in members:
                c = state.combatants[i]
                key = i if individual else int(c.side)
                number = int(state.initiative[key]) if key < len(state.initiative) else None
                done = state.stage in (STAGE_SLOW, STAGE_OVER) or (state.stage == STAGE_GROUP and g < state.group_idx)
                rows.append({"index": i, "number": number, "measure": measure, "group": g, "done": done,
                             "now": state.stage == STAGE_GROUP and g == state.group_idx})
    else:  # declarations come before this round's initiative roll (§1): no order yet, everyone declares
        rows = [{"index": i, "number": None, "measure": measure, "group": 0, "done": False, "now": True}
                for i, c in enumerate(state.combatants) if c.status == Status.ACTIVE]
    if state.stage == STAGE_DECLARE:
        phase = "declare"
    elif state.stage == STAGE_GROUP:
        phase = PHASE_NAMES[state.phase]
    elif state.stage == STAGE_SLOW:
        phase = "slow"
    else:
        phase = "over"
    first: list[int] = []
    if rolled and not individual and state.groups and state.groups[0]:
        first = sorted({int(state.combatants[i].side) for i in state.groups[0]})
    return {"phase": phase, "first": first, "rows": rows}
