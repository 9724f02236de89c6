"""The order RuneQuest's rules give this melee round, for the combat tracker (§1, §3): once every statement of
intent is made, the engine's schedule (``state.schedule``: each step by strike rank, then higher DEX first),
each step with its strike rank and whether it has resolved (``sched_pos``); while the round is being declared,
the strike ranks of what was declared so far and who still declares (``declare_queue``, in the engine's order).

Read off the engine state only: the tracker never computes a strike rank itself.
"""

from __future__ import annotations

from typing import Any

from npc_tactics.rules.base import Status
from npc_tactics.systems.runequest.rules.state import RQState

__all__ = ["order"]


def order(state: RQState) -> dict[str, Any]:
    """``{"phase", "first", "rows"}``: rows in strike-rank order, each ``{index, number, measure, group, done}``."""
    rows: list[dict[str, Any]] = []
    if state.schedule:
        current = state.sched_pos - 1 if state.phase == "react" else state.sched_pos
        for k, (sr, _negdex, idx, _seq, _step) in enumerate(state.schedule):
            rows.append({"index": int(idx), "number": int(sr), "measure": "strike_rank", "group": int(sr),
                         "done": k < current, "now": k == current})
    else:  # declaring: what each has declared (its steps' SRs), then who declares next, in the engine's queue
        waiting = list(state.declare_queue)
        for i, c in enumerate(state.combatants):
            if c.status != Status.ACTIVE or i in waiting or c.intent is None:
                continue
            srs: list[int | None] = [int(st.sr) for st in c.intent.steps] or [None]
            rows += [{"index": i, "number": sr, "measure": "strike_rank", "group": 0, "done": False, "now": False}
                     for sr in srs]
        rows += [{"index": int(i), "number": None, "measure": "strike_rank", "group": 0, "done": False,
                  "now": k == 0} for k, i in enumerate(waiting)]
    return {"phase": str(state.phase), "first": [], "rows": rows}
