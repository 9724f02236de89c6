"""The fake system's tactics hook: the shared tactics, its verbs, and its tactic profile (attacks, flights and
morale breaks of one side)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from npc_tactics.evaluation.tactics.common import focus_fire, retreat_when_losing
from npc_tactics.evaluation.tactics.hooks import Tactics
from npc_tactics.rules.base import Event


def tactic_profile(events: Sequence[Event], state: Any, side: int) -> dict[str, Any]:
    mine = [e for e in events if e.actor is not None and state.combatants[e.actor].side == side]
    return {
        "attacks": sum(1 for e in mine if e.kind == "attack"),
        "flees": sum(1 for e in mine if e.kind == "flee"),
        "morale_breaks": sum(1 for e in mine if e.kind == "morale" and not e.data["passed"]),
    }


TACTICS = Tactics(
    tactics=(("retreat_when_losing", retreat_when_losing), ("focus_fire", focus_fire)),
    attack_verbs=frozenset({"attack"}),
    leave_verbs=frozenset({"flee"}),
    profile=tactic_profile,
)
