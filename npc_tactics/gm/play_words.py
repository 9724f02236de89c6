"""The words of ``npc-tactics play``: events told in plain words, and what a roll is for.

gm-words' narration (:mod:`npc_tactics.gm.narrate`: a sentence per event kind of each system, en/fr) is used when
it is installed; until it is, a plain fallback tells each event by its kind, who did it to whom and its data.
The lead removes the fallback once gm-words is merged (``narrate`` is then always there).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from npc_tactics.rules.base import Event

__all__ = ["ECHOES", "Narrator"]

#: Events that only repeat a choice the play loop has just printed (same list as gm-words' replay).
ECHOES = {"ose": {"declare"}, "runequest": {"declare", "defence"}, "mrq": {"special_effect"},
          "dicepool": {"action", "split"}}


class Narrator:
    """``tell(event) -> str`` and ``why(roll purpose) -> str`` for one fight, in one language."""

    def __init__(self, system: str, names: Sequence[str], lang: str, _: Callable[[str], str]) -> None:
        self.system = system
        self.names = list(names)
        self._ = _
        self.fallback = True
        self._teller: Any = None
        try:  # gm-words' narration (issue 11 §2); the plain fallback below until it is merged
            from npc_tactics.gm import narrate  # type: ignore[attr-defined,unused-ignore]

            self._teller = narrate.teller(self.names, lang)
            self._narrate = narrate.narrate_event
            self._roll_why = narrate.roll_why
            self.fallback = False
        except ImportError:
            pass

    def name(self, index: int | None) -> str:
        if index is not None and 0 <= index < len(self.names):
            return self.names[index]
        return self._("someone")

    def why(self, why: str) -> str:
        """What a roll is for, in the GM's language."""
        if not self.fallback:
            return str(self._roll_why(why, self._teller))
        return why

    def tell(self, event: Event) -> str:
        """One event as a line a person reads."""
        if not self.fallback:
            text, _raw = self._narrate(self.system, event, self._teller)
            return str(text)
        _ = self._
        data = event.data
        if event.kind == "roll":
            faces = ", ".join(str(f) for f in data.get("faces", []))
            return _("{actor} rolls {expr} for {why}: {faces} = {total}.").format(
                actor=self.name(event.actor), expr=data.get("expr", "?"), why=self.why(str(data.get("why", ""))),
                faces=faces, total=data.get("total", "?"))
        details = ", ".join(f"{k}={v}" for k, v in data.items())
        who = self.name(event.actor) if event.actor is not None else ""
        if event.target is not None:
            who = _("{actor} -> {target}").format(actor=who or self._("someone"), target=self.name(event.target))
        parts = [p for p in (who, event.kind.replace("_", " "), f"({details})" if details else "") if p]
        return " ".join(parts)
