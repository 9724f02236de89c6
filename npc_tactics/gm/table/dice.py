"""The dice of ``npc-tactics play --dice manual``: a person rolls physical dice and types each face.

:class:`TypedDiceRoller` is a :class:`~npc_tactics.dice.Roller` whose faces are forced by what the person types.
The rules engines announce every roll before making it (``EventSink`` calls ``roller.announce(why, expr, actor,
target)``), so the prompt says which die is asked for, what it is for and who rolls it ("d20 for attack,
Snikkit"). A face the die cannot show is refused and asked again; the engine never sees it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from npc_tactics.dice import Roller, parse

__all__ = ["TypedDiceRoller"]


class TypedDiceRoller(Roller):
    """Faces typed by a person. ``ask(prompt) -> str`` reads one answer (raising ``EOFError`` at the end of
    input); ``say(line)`` prints a line; ``why_words(why)`` translates what a roll is for."""

    def __init__(self, ask: Callable[[str], str], say: Callable[[str], None], _: Callable[[str], str],
                 why_words: Callable[[str], str] | None = None) -> None:
        self.ask = ask
        self.say = say
        self._ = _
        self.why_words = why_words or (lambda why: why)
        self.names: Sequence[str] = ()
        self._why = ""
        self._who: int | None = None
        self._left = 0  # dice of the announced expression still to roll
        self._count = 0
        self.typed: list[tuple[int, int]] = []  #: (sides, face) of every accepted face, in order

    def announce(self, why: str, expr: str, actor: int | None = None, target: int | None = None) -> None:
        """Called by the rules just before a roll: remember what the next dice are for."""
        try:
            count = sum(n for n, _sides, _sign in parse(expr).dice)
        except ValueError:
            count = 1
        self._why, self._who, self._left, self._count = why, actor, count, count

    def _label(self, sides: int) -> str:
        _ = self._
        if self._left <= 0:
            return _("Roll a d{sides}").format(sides=sides)
        parts = [_("Roll a d{sides} for {why}").format(sides=sides, why=self.why_words(self._why))]
        if self._who is not None and 0 <= self._who < len(self.names):
            parts.append(_("by {name}").format(name=self.names[self._who]))
        if self._count > 1:
            parts.append(_("(die {k} of {n})").format(k=self._count - self._left + 1, n=self._count))
        return " ".join(parts)

    def die(self, sides: int) -> int:
        _ = self._
        prompt = _("{label} [1-{sides}]: ").format(label=self._label(sides), sides=sides)
        self._left -= 1
        while True:
            answer = self.ask(prompt).strip()
            try:
                face = int(answer)
            except ValueError:
                self.say(_("'{answer}' is not a number: type the face you rolled, from 1 to {sides}.").format(
                    answer=answer[:20], sides=sides))
                continue
            if 1 <= face <= sides:
                self.typed.append((sides, face))
                return face
            self.say(_("{face} is impossible on a d{sides}: type a face from 1 to {sides}.").format(
                face=face, sides=sides))
