"""OSE facts the tactics report adds to every watched decision (the registry's ``decision_facts``)."""

from __future__ import annotations

from typing import Any

from npc_tactics.systems.ose.rules.movement import engaged

__all__ = ["decision_facts"]


def decision_facts(state: Any, decision: Any) -> dict[str, Any]:
    """Whether the deciding combatant is in melee (an active enemy within reach, ose-bx.md §5.2)."""
    return {"engaged": engaged(state, decision.actor)}
