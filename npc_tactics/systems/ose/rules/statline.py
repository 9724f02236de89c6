"""An OSE monster stat line, read exactly as the books print it, into a frozen :class:`MonsterStats`.

``AC 6 [13], HD 2* (9hp), Att 2 × claw (1d3 + paralysis), 1 × bite (1d3 + paralysis), THAC0 18 [+1],
MV 90' (30'), SV D12 W13 P14 B15 S16 (2), ML 9, AL Chaotic, XP 25`` — also ``x`` for ``×``, curly quotes,
en dashes, the SRD's long labels (``Armour Class 6 [13]``) one per line, descending-only (``AC 6``) or
ascending-only (``AC [13]``) AC, ``HD ½``/``1/2``/``1-1``/``4+1``/``3**``, ``MV 120' (40') / 360' (120')
flying``. THAC0 and SV default to the OSE tables by Hit Dice; NA, TT, XP and AL are optional.

This module reads the notation only. Whether the engine can play what it says (one attack a round, no
attack effects yet) is decided by :mod:`.bestiary_files`. Every mistake is a :class:`StatLineError` naming
the field and the token: ``Att: '1 × bit (1d3)': unknown attack form 'bit'; did you mean 'bite'? ...``.
The printer is :mod:`.statline_print`; ``parse -> print -> parse`` gives the same :class:`MonsterStats`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from npc_tactics.i18n import Said
from npc_tactics.systems.ose.rules import statline_fields as F
from npc_tactics.systems.ose.rules import statline_words as W
from npc_tactics.systems.ose.rules import tables as T
from npc_tactics.systems.ose.rules.statline_fields import (
    Attack,
    StatLineError,
    canonical_dice,
    missile_forms,
    saves_of,
    weapon_forms,
)

__all__ = ["Attack", "MonsterStats", "StatLineError", "canonical_dice", "missile_forms", "parse_stat_line",
           "read_field", "saves_of", "weapon_forms"]

MAX_LINE = 2000  #: characters of a stat line (a published one is under 300)

_SPELLINGS = {"’": "'", "‘": "'", "′": "'", "`": "'", "´": "'", "“": '"', "”": '"', "″": '"', "−": "-",
              "–": "-", "—": "-", "‐": "-", "\u00a0": " ", "\u2009": " ", "\u202f": " ", "\t": " ", "\r": "\n"}


@dataclass(frozen=True, slots=True)
class MonsterStats:
    """Everything a stat line says; THAC0 and saves resolved from the OSE tables when the line omits them."""

    ac: int  #: descending (the ascending AC is 19 − ac)
    hd: int
    hd_plus: int  #: ``4+1`` -> 1, ``1-1`` -> -1
    half_hd: bool  #: ``HD ½``
    asterisks: int  #: special abilities, ``HD 3**`` -> 2
    hp: int | None  #: ``(9hp)``: the books' average hit points, if given
    attacks: tuple[Attack, ...]
    thac0: int
    movement: tuple[tuple[str, int], ...]  #: (mode, base feet) in printed order; mode "" = on foot
    saves: tuple[int, int, int, int, int]  #: death, wands, paralysis, breath, spells
    save_as: str | None  #: the bracket after the saves as written: "NH", "2", "F2"; None: numbers only
    morale: int
    morale_note: str = ""  #: ``ML 7 (9 with king)`` -> "9 with king"
    alignment: str | None = None
    xp: int | None = None
    xp_note: str = ""
    number_appearing: str | None = None
    treasure: str | None = None

    @property
    def hd_text(self) -> str:
        """``½``, ``2``, ``4+1``, ``1-1`` (without asterisks)."""
        if self.half_hd:
            return "½"
        return f"{self.hd}{self.hd_plus:+d}" if self.hd_plus else str(self.hd)

    @property
    def base_movement(self) -> int:
        """Feet per turn on foot, or of the first rate given when the creature has none on foot."""
        return next((feet for mode, feet in self.movement if not mode), self.movement[0][1])

    def rate(self, mode: str) -> int | None:
        """The base rate of ``mode`` (``flying``, ``swimming`` ...), None if not given."""
        return next((feet for m, feet in self.movement if m == mode), None)

    @property
    def fly(self) -> int | None:
        return self.rate("flying")

    @property
    def swim(self) -> int | None:
        return self.rate("swimming")



def _normalise(text: str) -> str:
    out = "".join(_SPELLINGS.get(ch, ch) for ch in text)
    bad = next((ch for ch in out if ord(ch) < 32 and ch != "\n"), None)
    if bad is not None:
        raise StatLineError("", None, Said("control character {char} in the stat line", char=repr(bad)))
    return out



def _label(chunk: str) -> tuple[str, str] | None:
    low = chunk.lower()
    for name in sorted(W.LABELS, key=len, reverse=True):
        if low.startswith(name) and (len(low) == len(name) or not low[len(name)].isalpha()):
            return W.LABELS[name], chunk[len(name):].strip(" :")
    return None


def _fields(text: str) -> dict[str, str]:
    fields: dict[str, str] = {}
    last = ""
    for chunk in F.split_outside(text, ",;\n", ""):
        if not chunk:
            continue
        found = _label(chunk)
        if found is None:
            if last == "Att" or last in W.TEXT_FIELDS:  # the next attack of the routine, or a comma inside free text
                fields[last] += ", " + chunk
                continue
            raise StatLineError("", chunk, Said("not a stat line field; fields: {fields}",
                                                fields=", ".join(W.FIELD_ORDER)))
        label, value = found
        if label in fields:
            raise StatLineError(label, chunk, Said("given twice"))
        if not value:
            raise StatLineError(label, chunk, Said("no value; expected e.g. {example}", example=W.EXAMPLES[label]))
        fields[label] = value
        last = label
    return fields



def read_field(label: str, text: str) -> Any:
    """One field's value in the stat line's notation (``"6 [13]"``, ``"90' (30')"``): AC and THAC0 -> int, HD ->
    (hd, bonus, half, asterisks, hp), Att -> attacks, MV -> rates, SV -> (saves, code)."""
    value = " ".join(_normalise(text).split())
    readers = {"AC": F.read_ac, "THAC0": F.read_thac0, "HD": F.read_hd, "Att": F.read_attacks,
               "MV": F.read_movement, "SV": F.read_saves}
    return readers[label](value)


def parse_stat_line(text: str) -> MonsterStats:
    """Read one stat line (see the module docstring); a :class:`StatLineError` names the field and token."""
    if not isinstance(text, str) or not text.strip():
        raise StatLineError("", None, Said("expected a stat line such as {example}",
                                           example=", ".join(W.EXAMPLES.values())))
    if len(text) > MAX_LINE:
        raise StatLineError("", None, Said("a stat line of {n} characters; expected at most {most}", n=len(text),
                                           most=MAX_LINE))
    f = _fields(_normalise(text))
    for label in W.REQUIRED:
        if label not in f:
            raise StatLineError(label, None, Said("missing; expected e.g. {example}", example=W.EXAMPLES[label]))
    hd, plus, half, stars, hp = F.read_hd(f["HD"])
    thac0 = F.read_thac0(f["THAC0"]) if "THAC0" in f else T.monster_thac0(hd, plus)
    saves, save_as = F.read_saves(f["SV"] if "SV" in f else F.default_save_as(hd, plus, half))
    morale, morale_note = F.read_number_note("ML", f["ML"], 2, 12)
    xp, xp_note = F.read_number_note("XP", f["XP"], 0, 10_000_000) if "XP" in f else (None, "")
    return MonsterStats(
        ac=F.read_ac(f["AC"]), hd=hd, hd_plus=plus, half_hd=half, asterisks=stars, hp=hp,
        attacks=F.read_attacks(f["Att"]),
        thac0=thac0, movement=F.read_movement(f["MV"]), saves=saves, save_as=save_as, morale=morale,
        morale_note=morale_note, alignment=F.read_alignment(f["AL"]) if "AL" in f else None, xp=xp, xp_note=xp_note,
        number_appearing=" ".join(f["NA"].split()) if "NA" in f else None,
        treasure=" ".join(f["TT"].split()) if "TT" in f else None,
    )
