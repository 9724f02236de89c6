"""Typed readers for YAML content, shared by every rules system's bestiary, scenario and situation loaders.

Each reader takes the raw ``value``, the ``file`` it came from and the ``field`` path inside that file
(build paths with :func:`join`: ``join("sides", 0, "combatants", 2, "hp")`` is
``"sides[0].combatants[2].hp"``). It returns the value, checked and typed, or raises a one-line
:class:`~npc_tactics.errors.ConfigError` ``file: field: what was expected``.

Defaults belong to the caller: read ``integer(d.get("max_rounds", 20), file, "max_rounds", low=1)``.
Lists of valid names in messages keep the caller's order for tuples and lists (a schema's order reads
best) and are sorted for sets and mappings (which have no meaningful order).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Set
from pathlib import Path
from typing import Any, Literal, overload

from npc_tactics.configs import load_yaml
from npc_tactics.dice import parse
from npc_tactics.errors import ConfigError, shown
from npc_tactics.limits import MAX_DICE_TERMS, MAX_DICE_TOTAL

__all__ = [
    "TOP_LEVEL",
    "boolean",
    "choice",
    "control_character",
    "dice",
    "document",
    "integer",
    "join",
    "listing",
    "mapping",
    "number",
    "sequence",
    "string",
    "two_sides",
]

#: the field named in an error about the whole document (its path is empty)
TOP_LEVEL = "(top level)"


def join(path: str, *parts: str | int) -> str:
    """Extend a field path: strings become ``.key`` (no dot at the start), ints become ``[index]``."""
    out = path
    for part in parts:
        if isinstance(part, int) and not isinstance(part, bool):
            out = f"{out}[{part}]"
        else:
            out = f"{out}.{part}" if out else str(part)
    return out


def listing(names: Iterable[Any]) -> str:
    """``"a, b, c"`` for a "valid: ..." message; sets and mappings are sorted, sequences keep their order."""
    items = sorted(map(str, names)) if isinstance(names, Set | Mapping) else [str(n) for n in names]
    return ", ".join(items) or "(none)"


def document(source: str | Path | Mapping[str, Any], label: str = "<situation>") -> tuple[str, Any]:
    """``(file, data)`` for a YAML path (loaded) or an in-memory mapping (named ``label`` in errors)."""
    if isinstance(source, Mapping):
        return label, source
    return str(source), load_yaml(source)


def _kind(value: Any) -> str:
    return "nothing" if value is None else type(value).__name__


def mapping(
    value: Any,
    file: str,
    field: str,
    allowed: Iterable[str] | None = None,
    required: Iterable[str] = (),
) -> dict[str, Any]:
    """A mapping (returned as a new dict) whose keys are all in ``allowed`` (None: any key) and include
    every ``required`` one. An unknown key is reported at its own path with the valid keys listed."""
    if not isinstance(value, Mapping):
        raise ConfigError(file, field or TOP_LEVEL, f"expected a mapping, got {_kind(value)}")
    if allowed is not None:
        valid = allowed if isinstance(allowed, Set | Mapping) else tuple(allowed)
        for key in value:
            if key not in valid:
                raise ConfigError(
                    file, join(field, str(key)[:60]), f"unknown key {shown(key)}; valid keys: {listing(valid)}"
                )
    for key in required:
        if key not in value:
            raise ConfigError(file, join(field, key), "missing required key")
    return dict(value)


def _bounds(value: float, file: str, field: str, low: float | None, high: float | None) -> None:
    if (low is None or value >= low) and (high is None or value <= high):
        return
    if low is not None and high is not None:
        expected = f"{low}..{high}"
    elif low is not None:
        expected = f"at least {low}"
    else:
        expected = f"at most {high}"
    text = str(value) if len(str(value)) <= 20 else f"{value:.3g}"  # not all 309 digits of a huge integer
    raise ConfigError(file, field, f"{text} is out of range: expected {expected}")


def integer(value: Any, file: str, field: str, low: int | None = None, high: int | None = None) -> int:
    """An integer (not a bool) within ``low..high`` (either bound may be None: unbounded)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConfigError(file, field, f"expected an integer, got {shown(value)}")
    _bounds(value, file, field, low, high)
    return value


#: Bound on a position or distance in metres (a battlefield 20 km across): any real fight fits, and a larger
#: number would only overflow the encoders' float32 features.
MAX_METRES = 10_000.0


def number(value: Any, file: str, field: str, low: float | None = None, high: float | None = None) -> float:
    """An int or float (not a bool) within ``low..high``, returned as a float."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ConfigError(file, field, f"expected a number, got {shown(value)}")
    if not math.isfinite(value):
        raise ConfigError(file, field, f"expected a finite number, got {value!r}")
    _bounds(value, file, field, low, high)
    return float(value)


def boolean(value: Any, file: str, field: str) -> bool:
    """``true`` or ``false`` (YAML's ``yes``/``no`` arrive as strings and are rejected)."""
    if not isinstance(value, bool):
        raise ConfigError(file, field, f"expected true or false, got {shown(value)}")
    return value


#: Characters no text of a config may hold: C0 controls but tab and newline, DEL, C1 controls, and the bidi
#: embeddings, overrides and isolates (U+202A-202E, U+2066-2069) that make a terminal or a report show text
#: in another order than it is read ("Trojan source").
_FORBIDDEN = frozenset(
    [chr(c) for c in range(0x20) if chr(c) not in "\t\n"]
    + [chr(c) for c in range(0x7F, 0xA0)]
    + [chr(c) for c in range(0x202A, 0x202F)]
    + [chr(c) for c in range(0x2066, 0x206A)]
)


def control_character(text: str) -> str | None:
    """What is wrong with ``text`` as a config's free text (a name, a description), or None: the first
    control character or bidi override it holds, named by code point and position."""
    for i, ch in enumerate(text):
        if ch in _FORBIDDEN:
            return (f"control character U+{ord(ch):04X} at position {i}; a text may hold newlines and tabs, "
                    "no other control character nor bidi override")
    return None


def string(value: Any, file: str, field: str, non_empty: bool = False) -> str:
    """A string without control characters (see :func:`control_character`); ``non_empty`` also rejects ``""``."""
    if not isinstance(value, str) or (non_empty and not value):
        what = "a non-empty string" if non_empty else "a string"
        raise ConfigError(file, field, f"expected {what}, got {shown(value)}")
    problem = control_character(value)
    if problem:
        raise ConfigError(file, field, problem)
    return value


def choice(value: Any, file: str, field: str, choices: Iterable[str], what: str = "value") -> str:
    """One of ``choices`` (names of templates, weapons, postures...): ``unknown <what> 'x'; valid: ...``."""
    valid = choices if isinstance(choices, Set | Mapping) else tuple(choices)
    if not isinstance(value, str) or value not in valid:
        raise ConfigError(file, field, f"unknown {what} {shown(value)}; valid: {listing(valid)}")
    return value


@overload
def dice(value: Any, file: str, field: str, allow_int: Literal[False] = False) -> str: ...
@overload
def dice(value: Any, file: str, field: str, allow_int: bool) -> str | int: ...
def dice(value: Any, file: str, field: str, allow_int: bool = False) -> str | int:
    """A dice expression such as ``"1d8+1"`` (checked with :func:`npc_tactics.dice.parse`), returned
    unchanged; with ``allow_int`` a plain integer (a fixed amount) is accepted and returned as an int.

    Bounded like everything a file says (:data:`~npc_tactics.limits.MAX_DICE_TOTAL`, the cap of a situation's
    hit points): ``hp: 1d1000000000000000000000000000000`` would otherwise give a combatant 6e29 HP. The
    count, sides and modifier of every term and the expression's extremes must stay within it."""
    if isinstance(value, int) and not isinstance(value, bool) and allow_int:
        return integer(value, file, field, -MAX_DICE_TOTAL, MAX_DICE_TOTAL)
    if not isinstance(value, str):
        what = "an integer or a dice expression" if allow_int else "a dice expression"
        raise ConfigError(file, field, f"expected {what} such as 1d8+1, got {shown(value)}")
    if len(value) > 100 or not value.isascii():
        raise ConfigError(file, field, f"expected a dice expression such as 1d8+1 (ASCII, at most 100 "
                                       f"characters), got {shown(value)}")
    try:
        expr = parse(value)
    except ValueError as exc:
        raise ConfigError(file, field, str(exc)) from None
    _dice_bounds(expr, value, file, field)
    return value


def _dice_bounds(expr: Any, value: str, file: str, field: str) -> None:
    """Refuse a parsed expression whose terms or extremes exceed :data:`MAX_DICE_TOTAL`, naming the part."""
    if len(expr.dice) > MAX_DICE_TERMS:
        raise ConfigError(file, field, f"{shown(value)} has {len(expr.dice)} dice terms; expected at most "
                                       f"{MAX_DICE_TERMS}")
    for count, sides, _sign in expr.dice:
        if count > MAX_DICE_TOTAL or sides > MAX_DICE_TOTAL:
            raise ConfigError(file, field, f"{shown(value)}: {count}d{sides} is out of range: expected at most "
                                           f"{MAX_DICE_TOTAL} dice of at most {MAX_DICE_TOTAL} sides")
    if abs(expr.bonus) > MAX_DICE_TOTAL:
        raise ConfigError(file, field, f"{shown(value)}: the modifier {expr.bonus} is out of range: expected "
                                       f"-{MAX_DICE_TOTAL}..{MAX_DICE_TOTAL}")
    if expr.maximum > MAX_DICE_TOTAL or expr.minimum < -MAX_DICE_TOTAL:
        raise ConfigError(file, field, f"{shown(value)} rolls {expr.minimum} to {expr.maximum}; expected "
                                       f"totals within -{MAX_DICE_TOTAL}..{MAX_DICE_TOTAL}")


def _count(min_len: int, max_len: int | None, what: str) -> str:
    if max_len is None:
        return f"at least {min_len} {what}" if min_len else what
    if min_len == max_len:
        return f"exactly {min_len} {what}"
    return f"{min_len} to {max_len} {what}"


def sequence(
    value: Any,
    file: str,
    field: str,
    min_len: int = 0,
    max_len: int | None = None,
    what: str = "entries",
) -> list[Any]:
    """A YAML list of ``min_len..max_len`` entries: ``expected a list of 1 to 6 combatants, got 7``."""
    if not isinstance(value, list):
        got = _kind(value)
    elif len(value) < min_len or (max_len is not None and len(value) > max_len):
        got = str(len(value))
    else:
        return value
    raise ConfigError(file, field, f"expected a list of {_count(min_len, max_len, what)}, got {got}")


def two_sides(value: Any, file: str, field: str = "sides") -> list[Any]:
    """A scenario's or situation's ``sides``: exactly two entries, side 0 being the NPCs (contract §4)."""
    return sequence(value, file, field, 2, 2, "sides (side 0 = the NPCs)")
