"""What the end of a fight is worth to a side: the one measure the GM's odds rank moves by and the search agent
plays for (:mod:`npc_tactics.gm.advice.odds`, :mod:`npc_tactics.agents.search`).

The win rate alone says nothing when every move wins about 0% (a retreat that saves the band and a last stand
that loses it look alike), so a result is valued ``win 1, draw 1/2, fled 1/4, loss 0`` (a side that flees keeps
its lives) and the acting NPC's survival adds :data:`SURVIVAL_WEIGHT` (an NPC that lives can fight another day).
"""

from __future__ import annotations

from typing import Final

__all__ = ["OUTCOME_VALUE", "SURVIVAL_WEIGHT", "outcome_value"]

#: What each result of the NPC's side is worth to it.
OUTCOME_VALUE: Final = {"win": 1.0, "draw": 0.5, "fled": 0.25, "loss": 0.0}
#: Added when the acting NPC is alive at the end.
SURVIVAL_WEIGHT: Final = 0.25


def outcome_value(result: str, actor_alive: bool) -> float:
    """The worth of one fight's end: its ``result`` for the side (``win`` ...) plus survival when the actor lives."""
    return OUTCOME_VALUE.get(result, 0.0) + SURVIVAL_WEIGHT * actor_alive
