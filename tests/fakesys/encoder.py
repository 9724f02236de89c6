"""The fake system's observation: the round, then presence, health, activity and guard of each slot."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from npc_tactics.encoders.base import Encoder, Field, flag
from npc_tactics.rules.base import Decision, Status
from tests.fakesys.engine import MAX_ROUNDS


class FakeEncoder(Encoder[Any, Any, Any]):
    """Views are the state (context) and the combatant itself (slots)."""

    CONTEXT: ClassVar[Sequence[Field[Any]]] = (
        Field("round", "round", "rounds", float(MAX_ROUNDS), lambda st: st.round),
    )
    COMBATANT: ClassVar[Sequence[Field[Any]]] = (
        flag("present", "1 if the slot holds a combatant", lambda c: 1.0),
        Field("hp", "hp / max_hp", "fraction", 1.0, lambda c: c.hp / c.max_hp),
        flag("active", "1 if active", lambda c: c.status == Status.ACTIVE),
        flag("defending", "1 if defending", lambda c: c.defending),
    )

    def context_view(self, state: Any, decision: Decision) -> Any:
        return state

    def combatant_view(self, state: Any, decision: Decision, index: int, ctx: Any) -> Any:
        return state.combatants[index]
