"""The words of ``npc-tactics play``: events told in plain words and what a roll is for, through gm-words'
narration (:mod:`npc_tactics.gm.words.narrate`: a sentence per event kind of each system, English or French)."""

from __future__ import annotations

from collections.abc import Sequence

from npc_tactics.gm.words.narrate import echoes, narrate_event, roll_why, teller
from npc_tactics.plugin import System
from npc_tactics.rules.base import Event

__all__ = ["Narrator"]


class Narrator:
    """``tell(event) -> str`` and ``why(roll purpose) -> str`` for one fight, in one language."""

    def __init__(self, system: System, names: Sequence[str], lang: str, sides: Sequence[str] = (),
                 bodies: Sequence[str] = ()) -> None:
        self.plugin = system
        # sides: their names, where the GM gave them; bodies: the combatants' body plans (narrate.bodies_of)
        self.teller = teller(list(names), lang, sides, bodies)
        #: event kinds that only repeat what was just told (``play`` does not tell them)
        self.echoes = echoes(self.plugin)

    def why(self, why: str) -> str:
        """What a roll is for, in the GM's language ("initiative side 0" -> "initiative (side 0)")."""
        return roll_why(why, self.teller)

    def tell(self, event: Event) -> str:
        """One event as a line a person reads (its raw kind and data if the system has no sentence for it)."""
        text, _raw = narrate_event(self.plugin, event, self.teller)
        return text
