"""The dice of a tracked fight: the engine's seeded dice, the faces the GM types, or both, for one step at a time.

A tracked fight is driven by requests (a web page, the JSON API), so a die the GM must type cannot block the
engine until it is typed, as ``play --dice manual``'s :class:`~npc_tactics.gm.table.dice.TypedDiceRoller` does.
Instead :class:`StepRoller` raises :class:`NeedDie` at the first die with no face typed yet; the tracker keeps
the state from before the step, and once the face is typed it replays the step with every face typed so far.
The engines are deterministic given the dice, so the replayed step is exactly the one the table played.

Seeded dice come from one stream per step (``default_rng([seed, step])``): a step replayed after an undo, or
after a typed face, rolls the same engine dice again, and a saved fight needs only its seed and typed faces.
The prompt's words are those of ``play --dice manual`` (gettext domain ``play``): one wording at the table.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from npc_tactics.dice import RngRoller, Roller, parse
from npc_tactics.gm.table.dice import TIE_WHY, Tie, tie_words
from npc_tactics.i18n import translator

__all__ = ["DICE_MODES", "DiePrompt", "NeedDie", "StepRoller", "prompt_text"]

#: auto: the engine rolls everything; manual: the GM types every face; pcs: the players type their PCs' rolls
DICE_MODES = ("auto", "manual", "pcs")


@dataclass(frozen=True)
class DiePrompt:
    """The die the fight waits for: its faces, what it is for and who rolls it (a combatant index or None)."""

    sides: int
    why: str
    actor: int | None
    target: int | None
    k: int  #: which die of the announced roll (1-based)
    n: int  #: dice in the announced roll
    tie: Tie | None = None  #: the dice-pool tie-break this die settles: against whom, at which rank, which re-roll

    def to_dict(self) -> dict[str, Any]:
        return {"sides": self.sides, "why": self.why, "actor": self.actor, "target": self.target, "k": self.k,
                "n": self.n}


class NeedDie(Exception):  # noqa: N818 - a request for input, not an error
    """The step needs a face the GM has not typed yet."""

    def __init__(self, prompt: DiePrompt) -> None:
        super().__init__(f"waiting for a d{prompt.sides} ({prompt.why})")
        self.prompt = prompt


class StepRoller(Roller):
    """One step's dice: ``typed`` faces, in order, for the rolls ``typed_for(actor)`` says the table makes; the
    seeded stream for the others. ``used`` lists ``(sides, face, typed)`` of every die of the step."""

    def __init__(self, seed: int, step: int, typed: Sequence[int], typed_for: Callable[[int | None], bool]) -> None:
        self.rng = RngRoller(np.random.default_rng([int(seed), int(step)]))
        self.typed = list(typed)
        self.typed_for = typed_for
        self.next_typed = 0
        self.used: list[tuple[int, int, bool]] = []
        self._why, self._left, self._count = "", 0, 0
        self._who: int | None = None
        self._target: int | None = None
        self._tie: Tie | None = None

    def announce(self, why: str, expr: str, actor: int | None = None, target: int | None = None) -> None:
        """Called by the rules just before a roll (``EventSink``): what the next dice are for."""
        try:
            count = sum(n for n, _sides, _sign in parse(expr).dice)
        except ValueError:
            count = 1
        self._why, self._who, self._target, self._left, self._count = why, actor, target, count, count
        if why != TIE_WHY:
            self._tie = None

    def announce_tie(self, members: Sequence[int], rank: int, rerolls: int, face: int) -> None:
        """Called by the dice-pool rules before each round of tie-break dice (dice-pool.md §3.1): who is tied, at
        which rank, and whether these dice re-roll a tie on ``face`` (the prompt says so)."""
        self._tie = Tie(tuple(int(m) for m in members), int(rank), int(rerolls), int(face))

    def die(self, sides: int) -> int:
        within = self._left > 0  # a die of the announced roll, or one the rules roll unannounced
        k, n = (self._count - self._left + 1, self._count) if within else (1, 1)
        who, why = (self._who, self._why) if within else (None, "")
        self._left -= 1
        if not self.typed_for(who):
            face = self.rng.die(sides)
            self.used.append((sides, face, False))
            return face
        if self.next_typed >= len(self.typed):
            tie = self._tie if within and why == TIE_WHY and self._tie is not None and who in self._tie.members \
                else None
            raise NeedDie(DiePrompt(sides, why, who, self._target if within else None, k, n, tie))
        face = int(self.typed[self.next_typed])
        if not 1 <= face <= sides:
            raise ImpossibleFace(self.next_typed + 1, face, sides)
        self.next_typed += 1
        self.used.append((sides, face, True))
        return face


class ImpossibleFace(ValueError):
    """Typed face number ``n`` is ``face``, which a d``sides`` cannot roll (the tracker says it in the GM's
    language: :func:`npc_tactics.gm.table.tracker._face_said`)."""

    def __init__(self, n: int, face: int, sides: int) -> None:
        super().__init__(f"typed face #{n} is {face}, impossible on a d{sides}")
        self.n, self.face, self.sides = n, face, sides


def prompt_text(prompt: DiePrompt, names: Sequence[str], why_words: Callable[[str], str], lang: str) -> str:
    """"Roll a d20 for attack by Snikkit": the words of ``play --dice manual``'s prompt, in ``lang``."""
    _ = translator(lang, "play")
    if not prompt.why:
        return _("Roll a d{sides}").format(sides=prompt.sides)
    if prompt.tie is not None:
        why, against = tie_words(_, prompt.tie, prompt.actor, names)
    else:
        why, against = why_words(prompt.why), ""
    parts = [_("Roll a d{sides} for {why}").format(sides=prompt.sides, why=why)]
    if prompt.actor is not None and 0 <= prompt.actor < len(names):
        parts.append(_("by {name}").format(name=names[prompt.actor]))
    if against:
        parts.append(against)
    if prompt.n > 1:
        parts.append(_("(die {k} of {n})").format(k=prompt.k, n=prompt.n))
    return " ".join(parts)
