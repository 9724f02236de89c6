"""Typed readers for YAML content, shared by every rules system's bestiary, scenario and situation loaders.

Each reader takes the raw ``value``, the ``file`` it came from and the ``field`` path inside that file
(build paths with :func:`join`: ``join("sides", 0, "combatants", 2, "hp")`` is
``"sides[0].combatants[2].hp"``). It returns the value, checked and typed, or raises a one-line
:class:`~npc_tactics.errors.ConfigError` ``file: field: what was expected``.

Defaults belong to the caller: read ``integer(d.get("max_rounds", 20), file, "max_rounds", low=1)``.
Lists of valid names in messages keep the caller's order for tuples and lists (a schema's order reads
best) and are sorted for sets and mappings (which have no meaningful order).

Every message is a :class:`~npc_tactics.i18n.Said` sentence (issue 29): its ``str`` is the English a file's
author has always read, and the tracker says it in the GM's language. What a message quotes (the user's value,
the lists of valid names) is an argument, said as written; the ``what`` a loader passes to :func:`choice` and
:func:`sequence` is translated when it is one of the loaders' words listed below (:data:`_UNKNOWN`,
:data:`_ENTRIES`), else quoted as written.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Set
from pathlib import Path
from typing import Any, Literal, overload

from npc_tactics.configs import load_yaml
from npc_tactics.dice import parse
from npc_tactics.errors import ConfigError, shown
from npc_tactics.i18n import N_, Said
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
    "unknown",
]

#: the field named in an error about the whole document (its path is empty)
TOP_LEVEL = "(top level)"

#: The loaders' ``what`` of :func:`choice`, each as its whole "unknown ..." phrase so that a language with genders
#: agrees the adjective with the noun ("arme inconnue", "modèle inconnu"); another ``what`` is said through
#: ``unknown {what}``. Marked for the catalogue (``make catalogues`` extracts ``N_``).
_UNKNOWN: dict[str, str] = {m.removeprefix("unknown "): m for m in (
    N_("unknown value"), N_("unknown HP column"), N_("unknown armour"), N_("unknown attack"),
    N_("unknown attack form"), N_("unknown body"), N_("unknown body plan"), N_("unknown breath kind"),
    N_("unknown breath shape"), N_("unknown class"), N_("unknown combatant"), N_("unknown concealment"),
    N_("unknown condition"), N_("unknown cover"), N_("unknown creature kind"), N_("unknown damage type"),
    N_("unknown declaration"), N_("unknown distance"), N_("unknown effect"), N_("unknown gaze effect"),
    N_("unknown halved"), N_("unknown hit-location table"), N_("unknown immunity"), N_("unknown kind"),
    N_("unknown location"), N_("unknown location kind"), N_("unknown measure"), N_("unknown morale check"),
    N_("unknown name"), N_("unknown paralysis spares"), N_("unknown phase"), N_("unknown posture"),
    N_("unknown rate of fire"), N_("unknown reach"), N_("unknown reaction"), N_("unknown regenerate not"),
    N_("unknown rules option"), N_("unknown saving throw"), N_("unknown scenario"), N_("unknown shield size"),
    N_("unknown size"), N_("unknown skill"), N_("unknown spell list"), N_("unknown status"), N_("unknown style"),
    N_("unknown system"), N_("unknown template"), N_("unknown trait"), N_("unknown weapon"),
    N_("unknown weapon class"), N_("unknown weapon kind"), N_("unknown weapon state"),
)}
#: The loaders' ``what`` of :func:`sequence` (what the list holds), said in the GM's language; another is quoted
#: as written. Braces are doubled in the msgid (a Said formats it): ``{{at, level}} entries`` reads
#: ``{at, level} entries``.
_ENTRIES: dict[str, str] = {m.replace("{{", "{").replace("}}", "}"): m for m in (
    N_("entries"), N_("D20 numbers (low, high)"), N_("[short, medium, long] ranges in feet"), N_("agents"),
    N_("armour pieces"), N_("checks (first_death, half_down)"), N_("combatant names"), N_("combatants"),
    N_("continuations"), N_("distances"), N_("effects"), N_("encounters"), N_("halved"), N_("immunities"),
    N_("labels (English, French, others)"), N_("locations"), N_("paralysis spares"), N_("probes"),
    N_("range bands"), N_("regenerate not"), N_("rolls"), N_("saves (D W P B S)"), N_("saves D W P B S"),
    N_("scenarios"), N_("sections"), N_("sides (side 0 = the NPCs)"), N_("spell levels"), N_("traits"),
    N_("variants"), N_("weapon names"), N_("weapons"), N_("{{at, level}} entries"),
    N_("{{value, weight}} entries"),
)}
#: What :func:`_kind` says of a value of the wrong type: YAML's types in words (another type by its name).
_TYPES: dict[str, str] = {m: m for m in (N_("nothing"), N_("str"), N_("int"), N_("float"), N_("bool"),
                                          N_("list"), N_("dict"))}


def _word(what: str, table: Mapping[str, str]) -> str:
    """``what`` as a sentence of the catalogue when ``table`` lists it (or it already is one), else as written."""
    if isinstance(what, Said):
        return what
    msgid = table.get(what)
    return what if msgid is None else Said(msgid)


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
    return ", ".join(items) or Said("(none)")


def document(source: str | Path | Mapping[str, Any], label: str = "<situation>") -> tuple[str, Any]:
    """``(file, data)`` for a YAML path (loaded) or an in-memory mapping (named ``label`` in errors)."""
    if isinstance(source, Mapping):
        return label, source
    return str(source), load_yaml(source)


def _kind(value: Any) -> str:
    return _word("nothing" if value is None else type(value).__name__, _TYPES)


def unknown(what: str, value: str, valid: str) -> str:
    """``unknown <what> <value>; valid: <valid>`` as a sentence said in the GM's language (``value`` as quoted,
    e.g. by :func:`~npc_tactics.errors.shown`; ``valid`` the names listed, e.g. by :func:`listing`)."""
    name = _UNKNOWN.get(what) if not isinstance(what, Said) else None
    head = Said(name) if name is not None else Said("unknown {what}", what=what)
    return Said("{unknown} {value}; valid: {valid}", unknown=head, value=value, valid=valid)


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
        raise ConfigError(file, field or TOP_LEVEL, Said("expected a mapping, got {got}", got=_kind(value)))
    if allowed is not None:
        valid = allowed if isinstance(allowed, Set | Mapping) else tuple(allowed)
        for key in value:
            if key not in valid:
                raise ConfigError(file, join(field, str(key)[:60]), Said("unknown key {key}; valid keys: {valid}",
                                                                         key=shown(key), valid=listing(valid)))
    for key in required:
        if key not in value:
            raise ConfigError(file, join(field, key), Said("missing required key"))
    return dict(value)


def _bounds(value: float, file: str, field: str, low: float | None, high: float | None) -> None:
    if (low is None or value >= low) and (high is None or value <= high):
        return
    expected: str
    if low is not None and high is not None:
        expected = f"{low}..{high}"
    elif low is not None:
        expected = Said("at least {low}", low=low)
    else:
        expected = Said("at most {high}", high=high)
    text = str(value) if len(str(value)) <= 20 else f"{value:.3g}"  # not all 309 digits of a huge integer
    raise ConfigError(file, field, Said("{value} is out of range: expected {expected}", value=text,
                                        expected=expected))


def integer(value: Any, file: str, field: str, low: int | None = None, high: int | None = None) -> int:
    """An integer (not a bool) within ``low..high`` (either bound may be None: unbounded)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConfigError(file, field, Said("expected an integer, got {got}", got=shown(value)))
    _bounds(value, file, field, low, high)
    return value


#: Bound on a position or distance in metres (a battlefield 20 km across): any real fight fits, and a larger
#: number would only overflow the encoders' float32 features.
MAX_METRES = 10_000.0


def number(value: Any, file: str, field: str, low: float | None = None, high: float | None = None) -> float:
    """An int or float (not a bool) within ``low..high``, returned as a float."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ConfigError(file, field, Said("expected a number, got {got}", got=shown(value)))
    if not math.isfinite(value):
        raise ConfigError(file, field, Said("expected a finite number, got {got}", got=repr(value)))
    _bounds(value, file, field, low, high)
    return float(value)


def boolean(value: Any, file: str, field: str) -> bool:
    """``true`` or ``false`` (YAML's ``yes``/``no`` arrive as strings and are rejected)."""
    if not isinstance(value, bool):
        raise ConfigError(file, field, Said("expected true or false, got {got}", got=shown(value)))
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
            return Said("control character U+{code} at position {position}; a text may hold newlines and tabs, "
                        "no other control character nor bidi override", code=format(ord(ch), "04X"), position=i)
    return None


def string(value: Any, file: str, field: str, non_empty: bool = False) -> str:
    """A string without control characters (see :func:`control_character`); ``non_empty`` also rejects ``""``."""
    if not isinstance(value, str) or (non_empty and not value):
        what = Said("a non-empty string") if non_empty else Said("a string")
        raise ConfigError(file, field, Said("expected {what}, got {got}", what=what, got=shown(value)))
    problem = control_character(value)
    if problem:
        raise ConfigError(file, field, problem)
    return value


def choice(value: Any, file: str, field: str, choices: Iterable[str], what: str = "value") -> str:
    """One of ``choices`` (names of templates, weapons, postures...): ``unknown <what> 'x'; valid: ...``."""
    valid = choices if isinstance(choices, Set | Mapping) else tuple(choices)
    if not isinstance(value, str) or value not in valid:
        raise ConfigError(file, field, unknown(what, shown(value), listing(valid)))
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
        what = Said("an integer or a dice expression") if allow_int else Said("a dice expression")
        raise ConfigError(file, field, Said("expected {what} such as 1d8+1, got {got}", what=what, got=shown(value)))
    if len(value) > 100 or not value.isascii():
        raise ConfigError(file, field, Said("expected a dice expression such as 1d8+1 (ASCII, at most {most} "
                                            "characters), got {got}", most=100, got=shown(value)))
    try:
        expr = parse(value)
    except ValueError as exc:
        raise ConfigError(file, field, str(exc)) from None
    _dice_bounds(expr, value, file, field)
    return value


def _dice_bounds(expr: Any, value: str, file: str, field: str) -> None:
    """Refuse a parsed expression whose terms or extremes exceed :data:`MAX_DICE_TOTAL`, naming the part."""
    if len(expr.dice) > MAX_DICE_TERMS:
        raise ConfigError(file, field, Said("{value} has {n} dice terms; expected at most {most}", value=shown(value),
                                            n=len(expr.dice), most=MAX_DICE_TERMS))
    for count, sides, _sign in expr.dice:
        if count > MAX_DICE_TOTAL or sides > MAX_DICE_TOTAL:
            raise ConfigError(file, field, Said("{value}: {count}d{sides} is out of range: expected at most {most} "
                                                "dice of at most {most} sides", value=shown(value), count=count,
                                                sides=sides, most=MAX_DICE_TOTAL))
    if abs(expr.bonus) > MAX_DICE_TOTAL:
        raise ConfigError(file, field, Said("{value}: the modifier {bonus} is out of range: expected -{most}..{most}",
                                            value=shown(value), bonus=expr.bonus, most=MAX_DICE_TOTAL))
    if expr.maximum > MAX_DICE_TOTAL or expr.minimum < -MAX_DICE_TOTAL:
        raise ConfigError(file, field, Said("{value} rolls {low} to {high}; expected totals within -{most}..{most}",
                                            value=shown(value), low=expr.minimum, high=expr.maximum,
                                            most=MAX_DICE_TOTAL))


def _list_of(min_len: int, max_len: int | None, what: str, got: str) -> str:
    """``expected a list of <count> <what>, got <got>``: one sentence per way of counting (a language elides or
    agrees differently before "at least", "exactly" and a number)."""
    entries = _word(what, _ENTRIES)
    if max_len is None:
        if min_len == 1:  # not "at least 1 probes"
            return Said("expected a non-empty list of {what}, got {got}", what=entries, got=got)
        if min_len:
            return Said("expected a list of at least {n} {what}, got {got}", n=min_len, what=entries, got=got)
        return Said("expected a list of {what}, got {got}", what=entries, got=got)
    if min_len == max_len:
        return Said("expected a list of exactly {n} {what}, got {got}", n=min_len, what=entries, got=got)
    return Said("expected a list of {low} to {high} {what}, got {got}", low=min_len, high=max_len, what=entries,
                got=got)


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
    raise ConfigError(file, field, _list_of(min_len, max_len, what, got))


def two_sides(value: Any, file: str, field: str = "sides") -> list[Any]:
    """A scenario's or situation's ``sides``: exactly two entries, side 0 being the NPCs (contract §4)."""
    return sequence(value, file, field, 2, 2, "sides (side 0 = the NPCs)")
