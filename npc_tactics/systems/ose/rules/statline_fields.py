"""The fields of an OSE stat line, one reader each (AC, HD, Att, THAC0, MV, SV, ML, AL, XP), for :mod:`.statline`.

Each reader takes the field's value as written (``"6 [13]"``, ``"2 × claw (1d3 + paralysis)"``) and returns
numbers, or raises :class:`StatLineError` naming the field, the token and what was expected: a
:class:`~npc_tactics.i18n.Said` sentence, English as a str and said in the GM's language where it is shown.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from npc_tactics.configs import load_yaml, system_dir
from npc_tactics.errors import shown
from npc_tactics.i18n import Said
from npc_tactics.systems.ose.rules import statline_words as W
from npc_tactics.systems.ose.rules import tables as T

__all__ = ["Attack", "StatLineError", "at_token", "canonical_dice", "default_save_as", "missile_forms", "read_ac",
           "read_alignment", "read_attacks", "read_hd", "read_movement", "read_number_note", "read_saves",
           "read_thac0", "saves_of", "split_outside", "weapon_forms"]

MAX_HD = 40
MAX_COUNT = 20  #: attacks of one form a round
_EFFECTS = W.lookup(W.EFFECTS)
_MODES = W.lookup(W.MOVEMENT_MODES)
_DICE = r"(?:[0-9]*\s*d\s*[0-9]+|[0-9]+)"
_DAMAGE = re.compile(rf"{_DICE}(?:\s*[+-]\s*{_DICE})*", re.I)
_WEAPON_ALT = re.compile(r"\s*\bor\s+(?:by\s+)?weapon(?:\s*([+-])\s*([0-9]+))?\s*$", re.I)
_AC = re.compile(r"(-?[0-9]+)\s*(?:\[\s*(-?[0-9]+)\s*\])?|\[\s*(-?[0-9]+)\s*\]")
_HD = re.compile(r"(½|1/2|[0-9]+)\s*(?:([+-])\s*([0-9]+))?\s*(\**)\s*(?:\(\s*([0-9]+)\s*hp\s*\))?", re.I)
_ATTACK = re.compile(r"([0-9]+)\s*(?:×|x|\*)\s*([a-z][a-z' -]*?)\s*(?:\(([^()]*)\))?", re.I | re.S)
_THAC0 = re.compile(r"([0-9]+)\s*(?:\[\s*([+-]?[0-9]+)\s*\])?|\[\s*([+-]?[0-9]+)\s*\]")
_RATE = re.compile(r"([0-9]+)\s*(?:'|ft\.?|feet)?\s*(?:\(\s*([0-9]+)\s*(?:'|ft\.?|feet)?\s*\))?\s*([a-z][a-z ]*)?",
                   re.I)
_SV = re.compile(r"D\s*([0-9]+)\s+W\s*([0-9]+)\s+P\s*([0-9]+)\s+B\s*([0-9]+)\s+S\s*([0-9]+)"
                 r"\s*(?:\(\s*([^()]*?)\s*\))?", re.I)
_SV_CODE = re.compile(r"NH|[0-9]+|(?:MU|[A-Z])\s*[0-9]+", re.I)
_NUMBER_NOTE = re.compile(r"([0-9][0-9,]*)\s*(?:\((.*)\))?", re.S)
_ALIGNMENT = re.compile(r"([a-z]+)((?:\s*(?:/|\bor\b)\s*[a-z]+)*)\s*(?:\((.*)\))?", re.I | re.S)


def at_token(label: str, token: str | None, detail: str) -> str:
    """``label: 'token': detail`` (the label or the token left out when there is none) as one sentence said in
    the GM's language (``detail`` a :class:`~npc_tactics.i18n.Said`)."""
    if token is None:
        return Said("{field}: {what}", field=label, what=detail) if label else detail
    if label:
        return Said("{field}: {token}: {what}", field=label, token=shown(token), what=detail)
    return Said("{token}: {what}", token=shown(token), what=detail)


class StatLineError(ValueError):
    """A stat line that does not read: ``label`` (``Att``), the ``token`` at fault and what was expected
    (``detail``); ``message`` is the whole line as a :class:`~npc_tactics.i18n.Said` (``str(exc)`` its English)."""

    def __init__(self, label: str, token: str | None, detail: str) -> None:
        self.label, self.token, self.detail = label, token, detail
        self.message: str = at_token(label, token, detail)
        super().__init__(str(self.message))


@dataclass(frozen=True, slots=True)
class Attack:
    """One attack form of the routine: ``count × form (damage + effects or by weapon ±N)``."""

    count: int
    form: str  #: a natural form (claw, bite, weapon ...) or a weapon of weapons.yaml with spaces (short sword)
    damage: str | None  #: dice such as ``1d3`` or ``2d4+1``; None when the attack only carries effects
    effects: tuple[str, ...] = ()  #: named effects (paralysis, poison ...), vocabulary of statline_words
    flavour: tuple[str, ...] = ()  #: words marked ``~``: kept in the line, ignored by the engine
    weapon_bonus: int | None = None  #: ``or by weapon +1`` -> 1, ``or by weapon`` -> 0, None: not written



@lru_cache(maxsize=1)
def _weapons() -> dict[str, Any]:
    return dict(load_yaml(system_dir("ose") / "weapons.yaml"))


def weapon_forms() -> dict[str, str]:
    """``{"short sword": "short_sword", ...}``: the weapons of weapons.yaml as attack forms."""
    return {str(name).replace("_", " "): str(name) for name in _weapons()}


def missile_forms() -> frozenset[str]:
    """The attack forms that are missile weapons (a stat line's attack is a melee attack)."""
    return frozenset(str(n).replace("_", " ") for n, w in _weapons().items()
                     if isinstance(w, dict) and w.get("missile"))


def saves_of(code: str) -> tuple[int, int, int, int, int] | None:
    """The saves of a bracket code: ``NH``, a monster level ``2`` (the fighter row, as OSE's monster table),
    ``F2``/``C3``/``M1``/``MU1``/``T2``; None for a level the tables do not cover (above 14)."""
    c = code.upper().replace(" ", "").replace("MU", "M")
    if not c.isascii():  # "²".isdigit() is True but int() refuses it; int("٣") is 3
        return None
    if c.isdigit():
        c = f"F{c}"
    if c != "NH" and not (c[1:].isdigit() and int(c[1:]) <= 14):
        return None
    try:
        return T.save_row(c)
    except ValueError:
        return None



def split_outside(text: str, separators: str, what: str) -> list[str]:
    """Split at ``separators`` outside brackets; a comma between two digits (1,000) does not split."""
    parts, depth, start, opened = [], 0, 0, 0
    for i, ch in enumerate(text):
        if ch in "([":
            depth += 1
            opened = start if depth == 1 else opened
        elif ch in ")]":
            depth -= 1
            if depth < 0:
                raise StatLineError(what, text.strip(), Said("a closing bracket without its opening one"))
        elif depth == 0 and ch in separators:
            if ch == "," and 0 < i < len(text) - 1 and text[i - 1].isdigit() and text[i + 1].isdigit():
                continue
            parts.append(text[start:i])
            start = i + 1
    if depth:
        raise StatLineError(what, text[opened:].strip(), Said("an opening bracket is never closed"))
    parts.append(text[start:])
    return [p.strip() for p in parts]



def read_ac(v: str) -> int:
    m = _AC.fullmatch(v)
    if m is None:
        raise StatLineError("AC", v, Said("expected descending [ascending] armour class, e.g. 6 [13], 6 or [13]"))
    desc, asc, only_asc = m.groups()
    ac = 19 - int(only_asc) if only_asc is not None else int(desc)
    if not -10 <= ac <= 10:
        raise StatLineError("AC", v, Said("armour class {ac} is out of range: expected -10..10 [9..29]", ac=ac))
    if asc is not None and int(asc) != 19 - ac:
        raise StatLineError("AC", v, Said("the ascending AC [{asc}] does not match AC {ac} (19 - {ac} = {aac})",
                                          asc=asc, ac=ac, aac=19 - ac))
    return ac


def read_hd(v: str) -> tuple[int, int, bool, int, int | None]:
    m = _HD.fullmatch(v)
    if m is None:
        raise StatLineError("HD", v, Said("expected Hit Dice such as 2, ½, 1-1, 4+1, 3** or 2* (9hp)"))
    n, sign, plus, stars, hp = m.groups()
    half = n in ("½", "1/2")
    if half and sign:
        raise StatLineError("HD", v, Said("½ Hit Die takes no bonus"))
    hd = 1 if half else int(n)
    bonus = (int(plus) if sign == "+" else -int(plus)) if sign else 0
    if not 1 <= hd <= MAX_HD or not -7 <= bonus <= MAX_HD:
        raise StatLineError("HD", v, Said("expected 1 to {most} Hit Dice and a bonus of -7 to +{most}", most=MAX_HD))
    if hp is not None:
        low, high = (1, 4) if half else (max(1, hd + bonus), hd * 8 + bonus)
        if not low <= int(hp) <= high:
            written = n + (sign or "") + (plus or "")
            raise StatLineError("HD", v, Said("{hp} hp is not possible for HD {hd} ({low} to {high})", hp=hp,
                                              hd=written, low=low, high=high))
    return hd, bonus, half, len(stars), int(hp) if hp is not None else None


def _form(word: str, whole: str) -> str:
    form = " ".join(word.lower().replace("-", " ").replace("_", " ").split())
    form = W.FORM_ALIASES.get(form, form)
    known = (*W.NATURAL_FORMS, *W.SAVE_FORMS, *W.SPECIAL_FORMS, *weapon_forms())
    if form not in known and form.endswith("s") and form[:-1] in known:
        form = form[:-1]
    if form not in known:
        near = difflib.get_close_matches(form, known, 1)
        forms = ", ".join(W.NATURAL_FORMS)
        if near:
            raise StatLineError("Att", whole, Said("unknown attack form {form}; did you mean {near}? (forms: {forms}, "
                                                   "or a weapon of weapons.yaml)", form=repr(form),
                                                   near=repr(near[0]), forms=forms))
        raise StatLineError("Att", whole, Said("unknown attack form {form} (forms: {forms}, or a weapon of "
                                               "weapons.yaml)", form=repr(form), forms=forms))
    return form


def canonical_dice(text: str, whole: str = "") -> str:
    """Canonical dice: ``1D6 + 1`` -> ``1d6+1``, ``d6`` -> ``1d6``; at most 100 dice of at most 100 sides."""
    out: list[str] = []
    for sign, term in re.findall(rf"([+-]?)\s*({_DICE})", text.replace(" ", "").lower()):
        count, _, sides = term.lower().partition("d")
        if sides:
            c, s = int(count or 1), int(sides)
            if not (1 <= c <= 100 and 2 <= s <= 100):
                raise StatLineError("Att", whole, Said("damage {dice}: expected up to 100 dice of 2 to 100 sides",
                                                       dice=repr(text)))
            term = f"{c}d{s}"
        elif int(term) > 1000:
            raise StatLineError("Att", whole, Said("damage {dice}: a bonus above 1000", dice=repr(text)))
        out.append(f"{sign or ('+' if out else '')}{term}")
    return "".join(out)


def _effect(word: str, whole: str) -> tuple[str, bool]:
    """(effect, is_flavour) of one ``+ word``."""
    if word.startswith(W.FLAVOUR):
        text = " ".join(word[1:].split())
        if not text:
            raise StatLineError("Att", whole, Said("{mark} marks a word as flavour but no word follows",
                                                   mark=W.FLAVOUR))
        return text, True
    key = " ".join(word.lower().split())
    if key in _EFFECTS:
        return _EFFECTS[key], False
    near = difflib.get_close_matches(key, list(_EFFECTS), 1)
    effects = ", ".join(W.EFFECTS)
    if near:
        raise StatLineError("Att", whole, Said("unknown effect {effect}; did you mean {near}? write {mark}{word} to "
                                               "keep it as flavour the engine ignores (effects: {effects})",
                                               effect=repr(key), near=repr(_EFFECTS[near[0]]), mark=W.FLAVOUR,
                                               word=key, effects=effects))
    raise StatLineError("Att", whole, Said("unknown effect {effect}; write {mark}{word} to keep it as flavour the "
                                           "engine ignores (effects: {effects})", effect=repr(key), mark=W.FLAVOUR,
                                           word=key, effects=effects))


def _attack(text: str) -> Attack:
    m = _ATTACK.fullmatch(text)
    if m is None:
        raise StatLineError("Att", text, Said("expected count × form (damage), e.g. 1 × claw (1d3) or "
                                              "1 × weapon (1d8 or by weapon)"))
    count, word, inner = int(m.group(1)), m.group(2), (m.group(3) or "").strip()
    if not 1 <= count <= MAX_COUNT:
        raise StatLineError("Att", text, Said("expected 1 to {most} attacks of a form, got {count}", most=MAX_COUNT,
                                              count=count))
    form = _form(word, text)
    bonus = None
    alt = _WEAPON_ALT.search(inner)
    if alt is not None:
        bonus = (int(alt.group(2)) * (-1 if alt.group(1) == "-" else 1)) if alt.group(1) else 0
        inner = inner[: alt.start()].strip()
    damage = None
    dm = _DAMAGE.match(inner)
    if dm is not None and (dm.end() == len(inner) or inner[dm.end():].lstrip().startswith("+")):
        damage = canonical_dice(dm.group(0), text)
        inner = inner[dm.end():].strip()
        if inner:
            inner = inner[1:]
            if not inner.strip():
                raise StatLineError("Att", text, Said("a '+' with nothing after it"))
    elif inner and not re.match(r"[~a-z]", inner, re.I):
        raise StatLineError("Att", text, Said("damage {dice}: expected dice such as 1d6, 2d4+1 or a number",
                                              dice=repr(inner)))
    effects: list[str] = []
    flavour: list[str] = []
    for word in (split_outside(inner, "+", "Att") if inner else []):
        if not word:
            raise StatLineError("Att", text, Said("a '+' with nothing after it"))
        name, is_flavour = _effect(word, text)
        (flavour if is_flavour else effects).append(name)
    if alt is not None and damage is None:
        raise StatLineError("Att", text, Said("'or by weapon' follows no damage, e.g. 1d6 or by weapon"))
    return Attack(count, form, damage, tuple(effects), tuple(flavour), bonus)


def read_attacks(v: str) -> tuple[Attack, ...]:
    if re.search(r"\bor\b", re.sub(r"\([^()]*\)", "", v), re.I):
        raise StatLineError("Att", v, Said("alternative attack routines ('... or ...') are not supported yet; "
                                           "give the routine the monster uses"))
    parts = split_outside(v, ",", "Att")
    if not all(parts):
        raise StatLineError("Att", v, Said("an empty attack between two commas"))
    return tuple(_attack(a) for a in parts)


def read_thac0(v: str) -> int:
    m = _THAC0.fullmatch(v)
    if m is None:
        raise StatLineError("THAC0", v, Said("expected THAC0 [attack bonus], e.g. 18 [+1], 18 or [+1]"))
    value, ab, only_ab = m.groups()
    thac0 = 19 - int(only_ab) if only_ab is not None else int(value)
    if not 1 <= thac0 <= 25:
        raise StatLineError("THAC0", v, Said("THAC0 {thac0} is out of range: expected 1..25", thac0=thac0))
    if ab is not None and int(ab) != 19 - thac0:
        bonus = format(19 - thac0, "+d")
        raise StatLineError("THAC0", v, Said("the attack bonus [{ab}] does not match THAC0 {thac0} "
                                             "(19 - {thac0} = {bonus})", ab=ab, thac0=thac0, bonus=bonus))
    return thac0


def read_movement(v: str) -> tuple[tuple[str, int], ...]:
    out: list[tuple[str, int]] = []
    for seg in split_outside(v, "/", "MV"):
        m = _RATE.fullmatch(seg)
        if m is None:
            raise StatLineError("MV", seg, Said("expected base (encounter) feet and a mode, e.g. 90' (30') or "
                                                "360' (120') flying"))
        base, enc, word = int(m.group(1)), m.group(2), (m.group(3) or "").strip().lower()
        mode = _MODES.get(" ".join(word.split()), None) if word else ""
        if mode is None:
            raise StatLineError("MV", seg, Said("unknown movement mode {mode}; modes: {modes}", mode=repr(word),
                                                modes=", ".join(W.MOVEMENT_MODES)))
        if base > 999:
            raise StatLineError("MV", seg, Said("{feet}' is out of range: expected at most 999'", feet=base))
        if enc is not None and int(enc) != base // T.ENCOUNTER_FRACTION:
            raise StatLineError("MV", seg, Said("the encounter rate ({rate}') is not a third of {feet}' ({third}')",
                                                rate=enc, feet=base, third=base // T.ENCOUNTER_FRACTION))
        if any(mode == m for m, _ in out):
            raise StatLineError("MV", seg, Said("a second {mode} rate", mode=mode) if mode
                                else Said("a second on foot rate"))
        out.append((mode, base))
    return tuple(out)


def read_saves(v: str) -> tuple[tuple[int, int, int, int, int], str | None]:
    """(the five saves, the bracket code as written or None) of ``D12 W13 P14 B15 S16 (2)`` or a bare code."""
    m = _SV.fullmatch(v)
    code = m.group(6) if m is not None else v.strip("() ")
    if code is not None and not _SV_CODE.fullmatch(code):
        if m is None:
            raise StatLineError("SV", v, Said("expected D W P B S saves and the level saved as, e.g. "
                                              "D12 W13 P14 B15 S16 (2), or only the level: NH, 2, F2"))
        raise StatLineError("SV", v, Said("unknown save level {code}: expected NH, a level (2) or F/C/M/T + level",
                                          code=repr(code)))
    code = code.upper().replace(" ", "") if code else None
    row = saves_of(code) if code else None
    if code and row is None and not ((code.isascii() and code.isdigit()) or code[:1] == "F"):
        raise StatLineError("SV", v, Said("unknown save level {code}: expected NH, a level (2) or a class letter "
                                          "and level (F2, C3, M1, T2, D1, E1, H1)", code=repr(code)))
    if m is None:
        if row is None:
            raise StatLineError("SV", v, Said("give the five saves for a level above 14 (D W P B S)"))
        return row, code
    d, w, p, b, s = (int(x) for x in m.groups()[:5])
    if not all(1 <= x <= 20 for x in (d, w, p, b, s)):
        raise StatLineError("SV", v, Said("a save is out of range: expected 1..20"))
    if row is not None and (d, w, p, b, s) != row:
        saves = " ".join(f"{k}{x}" for k, x in zip("DWPBS", row, strict=True))
        raise StatLineError("SV", v, Said("the saves of level {code} are {saves}", code=code, saves=saves))
    return (d, w, p, b, s), code


def default_save_as(hd: int, plus: int, half: bool) -> str:
    """OSE monsters save by Hit Dice; under one Hit Die (½, 1-1) as a normal human."""
    return "NH" if half or plus < 0 else str(hd)


def read_number_note(label: str, v: str, low: int, high: int) -> tuple[int, str]:
    m = _NUMBER_NOTE.fullmatch(v)
    if m is None:
        raise StatLineError(label, v, Said("expected a number and an optional note, e.g. {example}",
                                           example=W.EXAMPLES[label]))
    n = int(m.group(1).replace(",", ""))
    if not low <= n <= high:
        raise StatLineError(label, v, Said("{n} is out of range: expected {low}..{high}", n=n, low=low, high=high))
    return n, " ".join((m.group(2) or "").split())


def read_alignment(v: str) -> str:
    m = _ALIGNMENT.fullmatch(v)
    words = re.findall(r"[a-z]+", (m.group(1) + m.group(2)) if m else "", re.I)
    names = [w.capitalize() for w in words if w.lower() != "or"]
    if m is None or m.group(3) is not None or not names or any(n not in W.ALIGNMENTS for n in names):
        raise StatLineError("AL", v, Said("expected {alignments} (or two joined by 'or')",
                                          alignments=", ".join(W.ALIGNMENTS)))
    return " or ".join(names)

