"""The dice of ``npc-tactics play --dice manual``: a person rolls physical dice and types each face.

:class:`TypedDiceRoller` is a :class:`~npc_tactics.dice.Roller` whose faces are forced by what the person types.
The rules engines announce every roll before making it (``EventSink`` calls ``roller.announce(why, expr, actor,
target)``), so the prompt says which die is asked for, what it is for and who rolls it ("d20 for attack,
Snikkit"). A face the die cannot show is refused and asked again; the engine never sees it.

A dice-pool tie-break (dice-pool.md §3.1: same rank, same COORDINATION, one die each, equal faces roll again) is
also announced as a whole (``roller.announce_tie(members, rank, rerolls, face)``): its prompts say who it is
against and at which rank, a re-roll says it is one and on which face they tied, so a pair tied at ranks 7 and 5,
or typing equal faces, never sees the same prompt twice with nothing said. :func:`tie_words` gives those words
to the tracker's prompts too (:mod:`.fight_dice`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from npc_tactics.dice import Roller, parse

__all__ = ["TIE_WHY", "Tie", "TypedDiceRoller", "and_list", "tie_words"]

TIE_WHY = "tie_break"  #: what the dice-pool rules roll a tie-break die for (the roll event's ``why``)


@dataclass(frozen=True, slots=True)
class Tie:
    """A round of tie-break dice the rules announced: who rolls (combatant indices), at which rank, how many
    rounds of equal faces came before (0: the first roll) and the face of the last tie."""

    members: tuple[int, ...]
    rank: int
    rerolls: int = 0
    face: int = 0


def _name(names: Sequence[str], k: int) -> str:
    return names[k] if 0 <= k < len(names) else f"#{k}"


def and_list(_: Callable[[str], str], names: Sequence[str]) -> str:
    """"Kesh", "Kesh and Varo", "Kesh, Varo and Gorak" in the language of ``_``."""
    if len(names) < 2:
        return "".join(names)
    return _("{first} and {last}").format(first=", ".join(names[:-1]), last=names[-1])


def tie_words(_: Callable[[str], str], tie: Tie, who: int | None, names: Sequence[str]) -> tuple[str, str]:
    """What a tie-break die of ``who`` is for ("tie-break", "tie-break re-roll") and the words after the roller's
    name ("(against Varo, rank 7)", "(tied with Varo on 3, rank 7)"), in the language of ``_``."""
    others = and_list(_, [_name(names, m) for m in tie.members if m != who])
    if not tie.rerolls:
        return _("tie-break"), _("(against {others}, rank {rank})").format(others=others, rank=tie.rank)
    return _("tie-break re-roll"), _("(tied with {others} on {face}, rank {rank})").format(
        others=others, face=tie.face, rank=tie.rank)


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
        self._tie: Tie | None = None  #: the tie-break the next tie-break dice settle
        self.typed: list[tuple[int, int]] = []  #: (sides, face) of every accepted face, in order

    def announce(self, why: str, expr: str, actor: int | None = None, target: int | None = None) -> None:
        """Called by the rules just before a roll: remember what the next dice are for."""
        try:
            count = sum(n for n, _sides, _sign in parse(expr).dice)
        except ValueError:
            count = 1
        self._why, self._who, self._left, self._count = why, actor, count, count
        if why != TIE_WHY:
            self._tie = None

    def announce_tie(self, members: Sequence[int], rank: int, rerolls: int, face: int) -> None:
        """Called by the dice-pool rules before each round of tie-break dice (dice-pool.md §3.1): say who is tied
        (at the first roll) or that they tied again on ``face`` and roll again (a re-roll)."""
        _ = self._
        tie = Tie(tuple(int(m) for m in members), int(rank), int(rerolls), int(face))
        self._tie = tie
        who = and_list(_, [_name(self.names, m) for m in tie.members])
        if tie.rerolls:
            self.say(_("{names} tied on {face}: each rolls again.").format(names=who, face=tie.face))
        else:
            self.say(_("{names} are tied at rank {rank} with the same COORDINATION: one die each, the highest acts "
                       "first.").format(names=who, rank=tie.rank))

    def _label(self, sides: int) -> str:
        _ = self._
        if self._left <= 0:
            return _("Roll a d{sides}").format(sides=sides)
        tie = self._tie if self._why == TIE_WHY else None
        if tie is not None and self._who in tie.members:
            why, against = tie_words(_, tie, self._who, self.names)
        else:
            why, against = self.why_words(self._why), ""
        parts = [_("Roll a d{sides} for {why}").format(sides=sides, why=why)]
        if self._who is not None and 0 <= self._who < len(self.names):
            parts.append(_("by {name}").format(name=self.names[self._who]))
        if against:
            parts.append(against)
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
