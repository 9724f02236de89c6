"""A Mongoose RuneQuest stat block pasted in the book's usual layout, read into bestiary template fields.

The layout (one item a line; labels case-insensitive, ``:`` after a label optional; blank lines ignored)::

    Broo chief                                   <- a first line without a label is the title (ignored)
    STR 3D6+3  CON 14  SIZ 13  INT 11  POW 10  DEX 12  CHA 5   (fixed numbers or dice; "3D6+3 (13)" too)
    Combat Actions 2  Strike Rank +11  Damage Modifier +1D2  Movement 4m
    D20 Hit Location AP/HP                       <- the location table: one row per location
    1-3 Right Leg 2/5
    ...
    Weapons                                      <- the weapon table: name, skill %, damage [, AP/HP] [, x ammo]
    Type Weapon skill Damage AP/HP
    Great axe 55% 2D6+2 4/10
    Skills: Acrobatics 30%, Athletics 40%, Resilience 35%, Unarmed 40%
    Traits: Formidable Natural Weapons
    Natural Armour 2          Style two-handed     Mount warhorse (STR 28, SIZ 26)
    Kind beast   Faction chaos   Player character no   Description: ...

What is derived by the rules is checked, not copied: Combat Actions, Damage Modifier and location HP are
kept only where they differ from the tables (a creature's own figures, §1, §17.1); a Strike Rank must be
(DEX+INT)/2 or less (armour penalty, not played). Every mistake is a :class:`StatBlockError` naming the line
and the token: ``line 3: 'Strike Rank +40': ...``, its ``message`` a :class:`~npc_tactics.i18n.Said` sentence
(English as a str, said in the GM's language where it is shown).
"""

from __future__ import annotations

import re
from typing import Any

from npc_tactics.dice import parse
from npc_tactics.i18n import Said
from npc_tactics.systems.mrq.rules import statblock_words as W
from npc_tactics.systems.mrq.rules.tables import (
    HIT_TABLES,
    LOCATION_NAMES,
    combat_actions,
    damage_modifier,
    location_hp,
)

__all__ = ["StatBlockError", "parse_stat_block"]

MAX_TEXT = 8000  #: characters of a pasted stat block


class StatBlockError(ValueError):
    """A mistake in a pasted stat block: the line number (1-based), the token and what was expected (``detail``);
    ``message`` is the whole line as a :class:`~npc_tactics.i18n.Said` (``str(exc)`` its English)."""

    def __init__(self, line: int, token: str, detail: str) -> None:
        self.line, self.token, self.detail = line, token, detail
        self.message: str = Said("line {line}: {token}: {what}", line=line, token=repr(token), what=detail)
        super().__init__(str(self.message))


_DICE = r"[0-9]*[dD][0-9]+(?:\s*[+-]\s*[0-9]+)?|[0-9]+"
_CHAR = re.compile(rf"\b(STR|CON|SIZ|INT|POW|DEX|CHA)\s*:?\s*({_DICE})(?:\s*\(\s*[0-9]+\s*\))?", re.IGNORECASE)
_CHAR_START = re.compile(r"(STR|CON|SIZ|INT|POW|DEX|CHA)\b", re.IGNORECASE)
_ROW = re.compile(r"^([0-9]+)\s*(?:-\s*([0-9]+))?\s+(.+?)\s+([0-9]+|-)\s*/\s*(-?[0-9]+)$")
_WEAPON = re.compile(
    r"^(?P<name>.+?)\s+(?P<skill>[0-9]+)\s*%\s+(?P<damage>[0-9dD+\- ]+?)"
    r"(?:\s+(?P<ap>[0-9]+)\s*/\s*(?P<hp>[0-9]+))?(?:\s+[x×]\s*(?P<ammo>[0-9]+))?$"
)


def _clean(text: str) -> list[str]:
    for a, b in W.SPELLINGS.items():
        text = text.replace(a, b)
    return [re.sub(r"\s+", " ", line).strip() for line in text.split("\n")]


def _label(line: str) -> tuple[str, str] | None:
    """``(label, rest)`` when the line starts with a known label."""
    low = line.lower()
    for label in W.LABELS:
        if low.startswith(label) and (len(low) == len(label) or not low[len(label)].isalpha()):
            return label, line[len(label):].lstrip(" :")
    return None


def _dice(text: str, n: int) -> str | int:
    t = text.replace(" ", "").lower()
    if t.isascii() and t.isdigit():  # "²".isdigit() is True but int() refuses it; int("٣") is 3
        return int(t)
    try:
        return parse(t).text
    except ValueError:
        raise StatBlockError(n, text, Said("expected dice such as 3D6+6 or a number")) from None


def _characteristics(line: str, n: int, out: dict[str, Any]) -> None:
    found = {m.group(1).lower(): _dice(m.group(2), n) for m in _CHAR.finditer(line)}
    rest = _CHAR.sub("", line).strip(" ,;")
    if rest:
        raise StatBlockError(n, rest, Said("expected characteristics such as STR 3D6 or STR 13"))
    out.setdefault("characteristics", {}).update(found)
    out["_chars_line"] = n


def _number(text: str, n: int, what: str, signed: bool = False) -> int:
    """The number ``text`` gives; else an error saying ``what`` was expected (a :class:`~npc_tactics.i18n.Said`)."""
    t = text.strip().rstrip("m").strip()
    if re.fullmatch(r"[+-]?[0-9]+" if signed else r"[0-9]+", t):
        return int(t)
    raise StatBlockError(n, text, Said("expected {what}", what=what))


def _attributes(line: str, n: int, out: dict[str, Any]) -> None:
    """``Combat Actions 2 Strike Rank +11 Damage Modifier +1D2 Movement 4m`` (any of them, any order)."""
    parts = re.split(r"(combat actions|reactions|strike rank|damage modifier|movement|move)", line,
                     flags=re.IGNORECASE)
    if parts[0].strip(" ,;:"):
        raise StatBlockError(n, parts[0].strip(), Said("expected Combat Actions, Reactions, Strike Rank, Damage "
                                                       "Modifier or Movement"))
    for label, value in zip(parts[1::2], parts[2::2], strict=True):
        v = value.strip(" ,;:")
        key = label.lower()
        if key == "combat actions":
            out["_combat_actions"] = (_number(v, n, Said("a number of Combat Actions such as 2")), n, v)
        elif key == "reactions":
            out["_reactions"] = (_number(v, n, Said("a number of Reactions such as 2")), n, v)
        elif key == "strike rank":
            out["_strike_rank"] = (_number(v, n, Said("a Strike Rank such as +12"), signed=True), n, v)
        elif key == "damage modifier":
            if not re.fullmatch(r"[+-]?(0|[0-9]*[dD][0-9]+)", v.replace(" ", "")):
                raise StatBlockError(n, v, Said("expected a damage modifier such as +1D4, -1D2 or +0"))
            out["_damage_modifier"] = (v.replace(" ", "").lower(), n, v)
        else:
            out["move"] = _number(v, n, Said("metres such as 4m"))


def _location_row(line: str, n: int, rows: list[tuple[int, int, str, int, int, int]]) -> None:
    m = _ROW.match(line)
    if not m:
        raise StatBlockError(n, line, Said("expected a hit location row such as '1-3 Right Leg 2/5' (d20, location, "
                                           "AP/HP)"))
    lo, hi = int(m.group(1)), int(m.group(2) or m.group(1))
    ap = 0 if m.group(4) == "-" else int(m.group(4))  # "-/7": no armour
    rows.append((lo, hi, m.group(3).lower().replace(" ", "_"), ap, int(m.group(5)), n))


def _weapon_row(line: str, n: int, out: dict[str, Any]) -> None:
    m = _WEAPON.match(line)
    if not m:
        raise StatBlockError(n, line, Said("expected a weapon row such as 'Broadsword 65% 1D8' or 'Bite 50% 1D8' "
                                           "(name, skill %, damage [, AP/HP] [, x ammo])"))
    try:
        damage = parse(m.group("damage").replace(" ", "").lower()).text
    except ValueError:
        raise StatBlockError(n, m.group("damage").strip(), Said("expected damage dice such as 1D8+1")) from None
    out.setdefault("_weapons", []).append({
        "name": m.group("name").strip().lower().replace(" ", "_").replace("-", "_"),
        "token": m.group("name").strip(), "skill": int(m.group("skill")), "damage": damage,
        "hp": int(m.group("hp")) if m.group("hp") else None, "ammo": int(m.group("ammo") or 0), "line": n,
    })


def _skills(text: str, n: int, out: dict[str, Any]) -> None:
    skills: dict[str, int] = {}
    for item in (x.strip() for x in text.split(",") if x.strip()):
        m = re.fullmatch(r"(.+?)\s+([0-9]+)\s*%?", item)
        key = m.group(1).lower().replace(" ", "_") if m else ""
        if not m or key not in W.SKILLS:
            raise StatBlockError(n, item, Said("expected a skill and its % ({skills}), e.g. Athletics 45%",
                                               skills=", ".join(W.SKILLS)))
        skills[W.SKILLS[key]] = int(m.group(2))
    unarmed = skills.pop("unarmed_skill", None)
    if unarmed is not None:
        out["unarmed_skill"] = unarmed
    out.setdefault("skills", {}).update(skills)


def _traits(text: str, n: int, out: dict[str, Any]) -> None:
    for item in (x.strip() for x in text.split(",") if x.strip()):
        key = item.lower().replace(" ", "_").replace("-", "_")
        if key not in W.TRAITS:
            raise StatBlockError(n, item, Said("unknown trait; the engine plays {traits}",
                                               traits=", ".join(sorted(W.TRAITS))))
        out.setdefault("traits", []).append(W.TRAITS[key])


def _mount(text: str, n: int, out: dict[str, Any]) -> None:
    m = re.fullmatch(r"(\w+)\s*\(\s*STR\s+([0-9]+)\s*,?\s*SIZ\s+([0-9]+)\s*\)", text, re.IGNORECASE)
    if not m:
        raise StatBlockError(n, text, Said("expected a mount such as 'warhorse (STR 28, SIZ 26)'"))
    out["mount"] = {"str": int(m.group(2)), "siz": int(m.group(3)), "template": m.group(1).lower()}


def _yes(text: str, n: int) -> bool:
    t = text.strip().lower()
    if t in ("yes", "true", "y"):
        return True
    if t in ("no", "false", "n"):
        return False
    raise StatBlockError(n, text, Said("expected yes or no"))


def _simple(label: str, rest: str, n: int, out: dict[str, Any]) -> None:
    if label == "skills":
        _skills(rest, n, out)
    elif label == "traits":
        _traits(rest, n, out)
    elif label == "mount":
        _mount(rest, n, out)
    elif label == "natural armour":
        out["natural_armour"] = _number(rest, n, Said("armour points such as 2"))
    elif label == "style":
        key = rest.strip().lower().replace(" ", "_").replace("-", "_")
        if key not in W.STYLES:
            raise StatBlockError(n, rest, Said("unknown style; expected one of {styles}", styles=", ".join(W.STYLES)))
        out["style"] = W.STYLES[key]
    elif label == "kind":
        out["kind"] = rest.strip().lower()
    elif label == "faction":
        out["faction"] = rest.strip()
    elif label == "player character":
        out["player_character"] = _yes(rest, n)
    elif label == "description":
        out["description"] = rest.strip()


def parse_stat_block(text: str) -> dict[str, Any]:
    """The template fields of a pasted stat block (see the module docstring); a :class:`StatBlockError` names
    the first mistake."""
    if len(text) > MAX_TEXT:
        raise StatBlockError(1, text[:20] + "...", Said("a stat block is at most {most} characters", most=MAX_TEXT))
    out: dict[str, Any] = {}
    rows: list[tuple[int, int, str, int, int, int]] = []
    section = ""
    for n, line in enumerate(_clean(text), 1):
        if not line:
            continue
        found = _label(line)
        if found is None and _CHAR_START.match(line):
            _characteristics(line, n, out)
            continue
        if found is None:
            if section == "locations":
                _location_row(line, n, rows)
            elif section == "weapons":
                _weapon_row(line, n, out)
            elif not out and not rows and n == next(k for k, x in enumerate(_clean(text), 1) if x):
                out["_title"] = line
            else:
                raise StatBlockError(n, line.split(" ")[0], Said("unknown line; expected a label such as STR, "
                                                                "Combat Actions, D20, Weapons, Skills, Traits"))
            continue
        label, rest = found
        if label in ("d20", "1d20", "hit location", "hit locations"):
            section = "locations"
        elif label == "dice":
            pass  # the characteristics' header ("Dice Average"); each line then reads "STR 2D6+6 (13)"
        elif label == "weapons":
            section = "weapons"
        elif label == "type":
            section = "weapons"  # the weapon table's header line
        elif label in ("combat actions", "reactions", "strike rank", "damage modifier", "movement"):
            _attributes(line, n, out)
        else:
            section = ""
            _simple(label, rest, n, out)
    return _finish(out, rows, text)


def _finish(out: dict[str, Any], rows: list[tuple[int, int, str, int, int, int]], text: str) -> dict[str, Any]:
    last = max(len(_clean(text)), 1)
    ch = out.get("characteristics", {})
    missing = [k.upper() for k in ("str", "con", "siz", "int", "pow", "dex") if k not in ch]
    if missing:
        raise StatBlockError(out.get("_chars_line", last), " ".join(missing),
                             Said("missing characteristics (STR CON SIZ INT POW DEX)"))
    # dice count at their average, as the book's average column (so printed HP and the rest derive per roll)
    fixed = {k: v if isinstance(v, int) else int(parse(v).mean + 0.5) for k, v in ch.items()}
    _locations_to_fields(out, rows, fixed, last)
    W.weapons_to_fields(out, last, StatBlockError)
    dex, intel = fixed.get("dex"), fixed.get("int")
    if "_combat_actions" in out:
        cas, n, tok = out.pop("_combat_actions")
        if dex is None or cas != combat_actions(dex):
            out["combat_actions"] = cas
    if "_reactions" in out:
        reactions, n, tok = out.pop("_reactions")
        if reactions != out.get("combat_actions", combat_actions(dex) if dex is not None else -1):
            out["reactions"] = reactions  # a creature's own figure; else one per Combat Action (A18)
    if "_strike_rank" in out:
        sr, n, tok = out.pop("_strike_rank")
        if dex is not None and intel is not None and sr > (dex + intel) // 2:
            raise StatBlockError(n, tok, Said("Strike Rank is (DEX+INT)/2 = {sr}, less an armour penalty; a higher "
                                              "one is not modelled", sr=(dex + intel) // 2))
    if "_damage_modifier" in out:
        dm, n, tok = out.pop("_damage_modifier")
        norm = "" if dm.lstrip("+-") == "0" else dm.lstrip("+")
        if "str" not in fixed or "siz" not in fixed or norm != damage_modifier(fixed["str"] + fixed["siz"]):
            out["damage_modifier"] = dm if norm else "+0"
    out.pop("_title", None)
    out.pop("_chars_line", None)
    return out


def _locations_to_fields(out: dict[str, Any], rows: list[tuple[int, int, str, int, int, int]],
                         fixed: dict[str, int], last: int) -> None:
    if not rows:
        return
    names = [r[2] for r in rows]
    body = next((b for b, locs in LOCATION_NAMES.items() if sorted(locs) == sorted(names)), None)
    if body is None or len(names) != 7:
        bad = next((r for r in rows if not any(r[2] in locs for locs in LOCATION_NAMES.values())), rows[-1])
        raise StatBlockError(bad[5], bad[2].replace("_", " "), Said("the location table must list the seven "
                                                                    "locations of a humanoid or a quadruped (e.g. "
                                                                    "Right Leg ... Head)"))
    faces = sorted((lo, hi, line) for lo, hi, _, _, _, line in rows)
    for j, (lo, hi, line) in enumerate(faces):
        if lo != (faces[j - 1][1] + 1 if j else 1) or hi < lo or (j == len(faces) - 1 and hi != 20):
            raise StatBlockError(line, f"{lo}-{hi}", Said("the d20 rows must cover 1-20 in order without gaps"))
    by = {r[2]: r for r in rows}
    order = LOCATION_NAMES[body]
    table = [0] * 21
    for slot, k in enumerate(order):
        for face in range(by[k][0], by[k][1] + 1):
            table[face] = slot
    named = next((n for n, t in HIT_TABLES.items() if t == tuple(table)), None)
    if named != "humanoid":
        out["hit_locations"] = named or {k: f"{by[k][0]}-{by[k][1]}" if by[k][0] != by[k][1] else str(by[k][0])
                                         for k in order}
    if body != "humanoid":
        out["body"] = body
    aps = [by[k][3] for k in order]
    out["armour"] = aps[0] if len(set(aps)) == 1 else {k: by[k][3] for k in order}
    hps = tuple(by[k][4] for k in order)
    for k in order:
        if by[k][4] < 1:
            raise StatBlockError(by[k][5], str(by[k][4]), Said("location HP must be at least 1 (the unhurt maximum)"))
    if "siz" not in fixed or "con" not in fixed or hps != location_hp(fixed["siz"] + fixed["con"], body):
        out["location_hp"] = {k: by[k][4] for k in order}
