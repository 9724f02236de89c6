"""The order MRQ's rules give this round, for the combat tracker (§1): the engine's Strike Rank order
(``state.order``, highest first), each combatant with its Strike Rank and its Combat Actions left
(``cas - ca_done``); the combatants go round that order once per Combat Action (``state.cycle``), so a row is
done for this cycle once its combatant has spent its action of the cycle.

Read off the engine state only: the tracker never rolls or sorts a Strike Rank itself.
"""

from __future__ import annotations

from typing import Any

from npc_tactics.rules.base import Status
from npc_tactics.systems.mrq.rules.state import MRQState

__all__ = ["order"]


def order(state: MRQState) -> dict[str, Any]:
    """``{"phase", "first", "rows"}``: rows in Strike Rank order, each ``{index, number, measure, also, done}``
    (``also``: the Combat Actions left)."""
    rows: list[dict[str, Any]] = []
    # whose Combat Action is being spent: the attacker of the exchange in progress, else the one deciding
    mover = state.exchange.attacker if state.exchange is not None else (
        state.decision.actor if state.decision is not None else -1)
    for i in state.order:
        c = state.combatants[i]
        if c.status != Status.ACTIVE or c.cas <= 0:
            continue  # out of the fight, or a mount (it takes no Combat Action of its own, §13)
        left = max(0, int(c.cas) - int(c.ca_done))
        rows.append({"index": int(i), "number": int(c.sr), "measure": "strike_rank", "group": 0,
                     "also": [["actions_left", left]], "done": c.ca_done > state.cycle or left == 0,
                     "now": i == mover})
    return {"phase": None, "first": [], "rows": rows, "cycle": int(state.cycle) + 1}
