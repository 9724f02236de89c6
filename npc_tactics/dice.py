"""Dice expressions and the rollers that roll them.

All randomness in npc-tactics flows through a :class:`Roller` handed in by the caller:

* :class:`RngRoller` rolls from an explicit ``numpy.random.Generator`` (never global state);
* :class:`ScriptedRoller` returns forced rolls, to replay a rulebook example or a GM's physical dice.

An expression is a sum of dice terms and constants: ``d20``, ``2d6+1``, ``1d8+1d4-1``, ``d100``.
A malformed expression raises ``ValueError`` quoting it.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from mypy_extensions import mypyc_attr

__all__ = [
    "DiceExpr",
    "Roll",
    "Roller",
    "RngRoller",
    "ScriptedRoller",
    "ScriptExhaustedError",
    "parse",
]

_TERM = re.compile(r"([+-])?\s*(?:([0-9]*)\s*[dD]\s*([0-9]+)|([0-9]+))\s*")


@dataclass(frozen=True, slots=True)
class DiceExpr:
    """A parsed dice expression: ``dice`` are ``(count, sides, sign)`` terms, ``bonus`` the constant."""

    text: str
    dice: tuple[tuple[int, int, int], ...]
    bonus: int

    @property
    def minimum(self) -> int:
        return self.bonus + sum(sign * (count if sign > 0 else count * sides) for count, sides, sign in self.dice)

    @property
    def maximum(self) -> int:
        return self.bonus + sum(sign * (count * sides if sign > 0 else count) for count, sides, sign in self.dice)

    @property
    def mean(self) -> float:
        # a float accumulator, not ``bonus + sum(...)``: mypyc types that sum as an int and raises on the halves
        # (tests/compiled caught it); the terms are exact halves, so the value is the same in any order
        total = float(self.bonus)
        for count, sides, sign in self.dice:
            total += sign * count * (sides + 1) / 2
        return total

    def __str__(self) -> str:
        return self.text


@lru_cache(maxsize=1024)
def parse(expr: str) -> DiceExpr:
    """Parse ``expr`` (e.g. ``"1d8+1d4-1"``); raise ``ValueError`` quoting it when malformed."""
    if not isinstance(expr, str):
        raise ValueError(f"dice expression must be a string, got {expr!r}")
    text = expr.strip()
    if not text:
        raise ValueError(f"malformed dice expression {expr!r}: empty")
    pos = 0
    dice: list[tuple[int, int, int]] = []
    bonus = 0
    first = True
    while pos < len(text):
        m = _TERM.match(text, pos)
        if m is None or m.end() == pos or (not first and m.group(1) is None):
            raise ValueError(f"malformed dice expression {expr!r} at position {pos}")
        sign = -1 if m.group(1) == "-" else 1
        if m.group(3) is not None:
            count = int(m.group(2)) if m.group(2) else 1
            sides = int(m.group(3))
            if count < 1 or sides < 1 or count > 1000:
                raise ValueError(f"malformed dice expression {expr!r}: bad term {m.group(0).strip()!r}")
            dice.append((count, sides, sign))
        else:
            bonus += sign * int(m.group(4))
        pos = m.end()
        first = False
    return DiceExpr(text=text.replace(" ", ""), dice=tuple(dice), bonus=bonus)


@dataclass(frozen=True, slots=True)
class Roll:
    """One rolled expression: the faces of every die (negative terms keep their own faces) and the total."""

    expr: str
    faces: tuple[int, ...]
    total: int


@mypyc_attr(native_class=False)  # mypyc cannot make a native subclass of RuntimeError
class ScriptExhaustedError(RuntimeError):
    """A :class:`ScriptedRoller` was asked for more dice than it was given."""


@mypyc_attr(allow_interpreted_subclasses=True)  # the GM's typed-dice roller subclasses it
class Roller:
    """Rolls dice. Subclasses implement :meth:`die`; everything else builds on it."""

    def die(self, sides: int) -> int:  # pragma: no cover - abstract
        raise NotImplementedError

    def dice(self, count: int, sides: int) -> list[int]:
        """Roll ``count`` dice of ``sides`` faces and return each face."""
        return [self.die(sides) for _ in range(count)]

    def roll(self, expr: str | DiceExpr) -> Roll:
        """Roll a whole expression such as ``"2d6+1"``."""
        parsed = parse(expr) if isinstance(expr, str) else expr
        faces: list[int] = []
        total = parsed.bonus
        for count, sides, sign in parsed.dice:
            for _ in range(count):
                face = self.die(sides)
                faces.append(face)
                total += sign * face
        return Roll(parsed.text, tuple(faces), total)

    def d(self, sides: int) -> int:
        """Shorthand for one die, e.g. ``roller.d(20)``."""
        return self.die(sides)


class RngRoller(Roller):
    """Rolls from an explicit ``numpy.random.Generator``.

    Uniform floats are drawn from the generator in blocks (one numpy call per block, not per die) and
    turned into faces with ``floor(u * sides) + 1``: the same generator state always gives the same dice.
    """

    __slots__ = ("rng", "_buffer", "_next", "_block")

    def __init__(self, rng: np.random.Generator | int | None = None, block: int = 1024) -> None:
        if not isinstance(rng, np.random.Generator):
            rng = np.random.default_rng(rng)
        self.rng = rng
        self._block = block
        self._buffer: list[float] = []
        self._next = 0

    def die(self, sides: int) -> int:
        if sides < 1:
            raise ValueError(f"a die needs at least one side, got {sides}")
        if self._next >= len(self._buffer):
            self._buffer = self.rng.random(self._block).tolist()
            self._next = 0
        u = self._buffer[self._next]
        self._next += 1
        return int(u * sides) + 1


class ScriptedRoller(Roller):
    """Returns forced faces in order: a rulebook example's dice, or a GM's physical dice.

    Each forced face must fit the die asked for, so a script that drifts out of step with the rules fails
    loudly. ``then`` is an optional roller used once the script is spent (otherwise
    :class:`ScriptExhaustedError` is raised).
    """

    def __init__(self, faces: Iterable[int], then: Roller | None = None) -> None:
        self.faces = list(faces)
        self.used = 0
        self.then = then
        self.asked: list[int] = []

    def __deepcopy__(self, memo: dict[int, object]) -> ScriptedRoller:
        """A copy at the same point of the script, going on alone (the pending-decision loader reads a situation
        once on a copy). Written out: a compiled class cannot be rebuilt without its ``faces``, as deepcopy would."""
        twin = ScriptedRoller(list(self.faces), copy.deepcopy(self.then, memo))
        twin.used = self.used
        twin.asked = list(self.asked)
        return twin

    @property
    def remaining(self) -> int:
        return len(self.faces) - self.used

    def die(self, sides: int) -> int:
        self.asked.append(sides)
        if self.used >= len(self.faces):
            if self.then is not None:
                return self.then.die(sides)
            raise ScriptExhaustedError(
                f"scripted dice exhausted after {self.used} rolls (asked for a d{sides})"
            )
        face = self.faces[self.used]
        if not 1 <= face <= sides:
            raise ValueError(
                f"scripted roll #{self.used + 1} is {face}, impossible on a d{sides}"
            )
        self.used += 1
        return face
