"""The order the dice-pool rules give this game turn, for the combat tracker (§3): the engine's slot queue
(``state.queue``: each slot's global action rank, from the highest down; a combatant with several successes
holds several slots) and the slot now (``state.slot``); with several Action Turns, each slot's turn (``n_ta``, §3.2).

Read off the engine state only: the tracker never rolls or sorts a pool itself.
"""

from __future__ import annotations

from typing import Any

from npc_tactics.systems.dicepool.rules.pool import ta_and_local_rank
from npc_tactics.systems.dicepool.rules.state import DicePoolState

__all__ = ["order"]


def order(state: DicePoolState) -> dict[str, Any]:
    """``{"phase", "first", "rows"}``: one row per slot in queue order, each ``{index, number, measure, done}``."""
    rows = []
    for k, (rank, c) in enumerate(state.queue):
        turn = ta_and_local_rank(rank, state.n_ta)[0]
        rows.append({"index": int(c), "number": int(rank), "measure": "action_rank", "group": turn,
                     "also": [["action_turn", turn]] if state.n_ta > 1 else [], "done": k < state.slot,
                     "now": k == state.slot})
    return {"phase": None, "first": [], "rows": rows}
