"""Is this combatant losing? The cheap test shared by the retreat measurement and distillation.

``benchmarks/retreat_report.py`` plays out only the decisions this test passes (a way out is legal and the actor is
hurt or its side well behind), and ``npc-tactics distill --losing-teacher`` lets a retreat specialist label the
base's decisions it passes. One test for both, so the student is taught on the states the report then measures.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from npc_tactics.agents.search import leave_plan
from npc_tactics.evaluation.tactics.observe import hp_fraction
from npc_tactics.evaluation.tactics.tables import LOSING_HP
from npc_tactics.rules.base import Status

__all__ = ["SHARE_RATIO", "is_losing", "leave_actions", "side_share"]

#: the side's standing HP share at most this fraction of the enemy's counts as well behind
SHARE_RATIO = 0.5


def leave_actions(system: str, engine: Any) -> frozenset[int]:
    """Catalogue indices of the system's leave moves (its tactics hook's ``leave_verbs``; none without a hook)."""
    if engine.spec.name != system:
        raise ValueError(f"a {engine.spec.name} engine for the {system} system's leave moves")
    return frozenset(leave_plan(engine))


def side_share(state: Any, side: int, *, enemy: bool = False) -> float:
    """Standing HP over maximum HP of ``side`` (or of every other side): the balance of forces."""
    top = hp = 0.0
    for c in state.combatants:
        if (int(c.side) == side) != enemy:
            most = float(getattr(c, "max_hp", 0) or 0)
            top += most
            hp += hp_fraction(c) * most if int(c.status) == Status.ACTIVE else 0.0
    return hp / top if top > 0 else 0.0


def is_losing(state: Any, actor: int, mask: np.ndarray, leave: frozenset[int]) -> bool:
    """A leave move is legal and the actor is at most half its HP, or its side's standing HP share is at most
    :data:`SHARE_RATIO` of the enemy's."""
    if not any(int(a) in leave for a in np.flatnonzero(mask)):
        return False
    side = int(state.combatants[actor].side)
    return (hp_fraction(state.combatants[actor]) <= LOSING_HP
            or side_share(state, side) <= SHARE_RATIO * side_share(state, side, enemy=True))
