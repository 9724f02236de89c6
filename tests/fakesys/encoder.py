"""The fake system's observation: the round, then presence, health, activity and guard of each slot."""

from __future__ import annotations

from typing import Any

from npc_tactics.encoders.base import Encoder
from npc_tactics.rules.base import Decision, Status
from tests.fakesys.engine import MAX_ROUNDS


class FakeEncoder(Encoder):
    CONTEXT_FIELDS = (("round", f"round / {MAX_ROUNDS}"),)
    COMBATANT_FIELDS = (
        ("present", "1 if the slot holds a combatant"),
        ("hp", "hp / max_hp"),
        ("active", "1 if active"),
        ("defending", "1 if defending"),
    )

    def context(self, state: Any, decision: Decision) -> list[float]:
        return [state.round / MAX_ROUNDS]

    def combatant(self, state: Any, decision: Decision, index: int) -> list[float]:
        c = state.combatants[index]
        return [1.0, c.hp / c.max_hp, float(c.status == Status.ACTIVE), float(c.defending)]
