"""What a GM types for an encounter, read strictly: groups (``"goblin x4, goblin_archer x2"``) and targets
(``"win=0.7,pc_death<0.1,rounds=4-8"``).

Every mistake is one :class:`~npc_tactics.errors.UserError` line naming the option (or request field) and what
was expected; an unknown template lists the valid ones (or the nearest). The parsers know nothing of the rules:
the caller passes the template ids a system accepts, or its
:class:`~npc_tactics.gm.encounter.template_words.TemplateWords` to take names in the GM's language too.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from npc_tactics.errors import UnknownNameError, UserError, shown
from npc_tactics.gm.encounter.template_words import TemplateWords
from npc_tactics.i18n import translator

__all__ = ["MAX_GROUP", "MAX_PER_TEMPLATE", "TARGET_KEYS", "Bound", "Target", "parse_group", "parse_target"]

#: Most combatants on one side (npc_tactics.encounters.MAX_PER_SIDE: the action catalogues hold six per side).
MAX_GROUP = 6
#: Most copies of one template in a group.
MAX_PER_TEMPLATE = 6
#: What a target may constrain: three rates (probabilities) and the fight's length in rounds.
TARGET_KEYS: tuple[str, ...] = ("win", "rout", "pc_death", "rounds")
#: Most characters of a template's name as a GM types it.
MAX_NAME = 64
#: One item of a group: a name (words, spaces between) and an optional count: ``xN`` as a word of its own
#: (``goblin x4``, ``goblin x 4``, ``goblin X4``), or ``×N`` / ``*N`` (``goblin×4``).
_ITEM = re.compile(r"(?P<name>.*?)(?:(?:\s+[xX]|\s*[×*])\s*(?P<count>[0-9]+))?", re.DOTALL)
#: What a name may hold: letters (any script), digits, ``_ . - ' ’ ( )`` and spaces, a letter or digit first.
_NAME = re.compile(r"\w[\w\s.'\u2019()-]*")
_TERM = re.compile(r"^\s*([a-z_]+)\s*(<=|>=|=|<|>)\s*(.+?)\s*$")


def parse_group(text: str, choices: Iterable[str] | TemplateWords, what: str = "--foes"
                ) -> tuple[tuple[str, int], ...]:
    """``"goblin x4, goblin_archer x2"`` -> ``(("goblin", 4), ("goblin_archer", 2))``; a name without a count
    counts once, a repeated name adds up.

    ``choices``: the template ids the system accepts (then a name is its id, in any case), or its
    :class:`TemplateWords` (then also its name in the GM's language or in English, ``"archer gobelin x2"``, and the
    errors of an unknown or ambiguous name are in that language). A name may hold spaces; the count follows it as
    ``xN`` (a separate word), ``×N`` or ``*N``, so a trailing bare number belongs to the name (``guerrier 2``)."""
    words = choices if isinstance(choices, TemplateWords) else TemplateWords.ids(choices)
    _ = translator(words.lang, "odds")
    counts: dict[str, int] = {}
    if not text.strip():
        raise UserError(f"{what}: " + _("expected template names with counts such as 'goblin x4, goblin_archer x2', "
                                        "got nothing"))
    for item in text.split(","):
        raw = item.strip()
        m = _ITEM.fullmatch(raw) if len(raw) <= MAX_NAME + 8 else None
        if m is None or not _NAME.fullmatch(m["name"]) or len(m["name"]) > MAX_NAME:
            raise UserError(f"{what}: " + _("expected NAME or NAME xN such as 'goblin x4', got {item}")
                            .format(item=shown(raw)))
        token, digits = m["name"], m["count"] or "1"
        found = words.matches(token)
        if not found:
            _not_a_count(raw, token, words, what)
        if len(found) != 1:
            raise UserError(f"{what}: {words.ambiguous(token, found) if found else words.unknown(token)}")
        name, count = found[0], int(digits) if len(digits) <= 3 else MAX_PER_TEMPLATE + 1
        if not 1 <= count <= MAX_PER_TEMPLATE:
            raise UserError(f"{what}: " + _("expected a count from 1 to {n} for {name}, got {count}")
                            .format(n=MAX_PER_TEMPLATE, name=token, count=digits))
        counts[name] = counts.get(name, 0) + count
    total = sum(counts.values())
    if total > MAX_GROUP:
        raise UserError(f"{what}: " + _("at most {n} combatants on a side, got {m}").format(n=MAX_GROUP, m=total))
    return tuple(counts.items())


def _not_a_count(item: str, token: str, words: TemplateWords, what: str) -> None:
    """An unknown ``token`` whose first words name a template (``goblin four``, ``goblin 4``): a count written
    wrong, said as such rather than as an unknown template."""
    parts = token.split()
    for cut in range(len(parts) - 1, 0, -1):
        head = " ".join(parts[:cut])
        if len(words.matches(head)) == 1:
            _ = translator(words.lang, "odds")
            raise UserError(f"{what}: " + _("expected NAME or NAME xN such as 'goblin x4', got {item}")
                            .format(item=shown(item)) + " ("
                            + _("{head} is a template; a count is written xN after it").format(head=shown(head)) + ")")


def group_text(group: Sequence[tuple[str, int]]) -> str:
    """The inverse of :func:`parse_group`: ``"goblin x4, goblin_archer x2"``."""
    return ", ".join(name if count == 1 else f"{name} x{count}" for name, count in group)


@dataclass(frozen=True, slots=True)
class Bound:
    """One constraint: ``low <= value <= high`` (``low == high`` for ``=``; an open side is +-inf)."""

    key: str
    low: float
    high: float

    @property
    def exact(self) -> bool:
        return self.low == self.high

    def text(self) -> str:
        fmt = "{:g}".format
        if self.exact:
            return f"{self.key}={fmt(self.low)}"
        if math.isinf(self.low):
            return f"{self.key}<={fmt(self.high)}"
        if math.isinf(self.high):
            return f"{self.key}>={fmt(self.low)}"
        return f"{self.key}={fmt(self.low)}-{fmt(self.high)}"


@dataclass(frozen=True, slots=True)
class Target:
    """A GM's target: at most one bound per key of :data:`TARGET_KEYS`."""

    bounds: tuple[Bound, ...]

    def get(self, key: str) -> Bound | None:
        return next((b for b in self.bounds if b.key == key), None)

    def text(self) -> str:
        return ",".join(b.text() for b in self.bounds)


def _number(key: str, raw: str, what: str) -> float:
    raw = raw.strip()
    percent = raw.endswith("%")
    try:
        value = float(raw[:-1] if percent else raw)
    except ValueError:
        raise UserError(f"{what}: {key}: expected a number, got {shown(raw)}") from None
    if not math.isfinite(value):
        raise UserError(f"{what}: {key}: expected a finite number, got {shown(raw)}")
    if key == "rounds":
        if percent or not 1 <= value <= 100:
            raise UserError(f"{what}: rounds: expected a number of rounds from 1 to 100, got {shown(raw)}")
        return value
    if percent:
        value /= 100
    if not 0 <= value <= 1:
        raise UserError(f"{what}: {key}: expected a rate from 0 to 1 (or 0% to 100%), got {shown(raw)}")
    return value


def parse_target(text: str, what: str = "--target") -> Target:
    """``"win=0.7,pc_death<0.1,rounds=4-8"``: comma-separated ``KEY OP VALUE`` with OP one of ``= < <= > >=``
    and VALUE a number, a percentage (``70%``) or a range ``A-B``. ``<`` and ``<=`` mean the same thing (a
    measured rate is compared by its estimate), as do ``>`` and ``>=``."""
    bounds: list[Bound] = []
    if not text.strip():
        raise UserError(f"{what}: expected terms such as 'win=0.7,pc_death<0.1,rounds=4-8', got nothing")
    for term in text.split(","):
        m = _TERM.match(term)
        if m is None:
            raise UserError(f"{what}: expected KEY=VALUE, KEY<VALUE, KEY>VALUE or KEY=A-B such as 'win=0.7', "
                            f"got {shown(term.strip())}")
        key, op, raw = m.groups()
        if key not in TARGET_KEYS:
            raise UserError(f"{what}: {UnknownNameError('target key', key, TARGET_KEYS)}")
        if any(b.key == key for b in bounds):
            raise UserError(f"{what}: {key} is given twice")
        lo_hi = re.match(r"^([0-9.]+%?)\s*-\s*([0-9.]+%?)$", raw)
        if lo_hi is not None:
            if op != "=":
                raise UserError(f"{what}: {key}: a range A-B goes with '=', got {shown(term.strip())}")
            low, high = _number(key, lo_hi.group(1), what), _number(key, lo_hi.group(2), what)
            if low > high:
                raise UserError(f"{what}: {key}: the range {shown(raw)} runs backwards")
        else:
            value = _number(key, raw, what)
            low, high = {"=": (value, value), "<": (-math.inf, value), "<=": (-math.inf, value),
                         ">": (value, math.inf), ">=": (value, math.inf)}[op]
        bounds.append(Bound(key, low, high))
    return Target(tuple(bounds))
