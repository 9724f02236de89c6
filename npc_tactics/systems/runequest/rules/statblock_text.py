"""Pasted RQG stat blocks in the book's usual layout, read into the bestiary's fields (:mod:`.statblock`).

The layout (docs/runequest.md "The GM's own stat blocks"), one item a line, labels in any case::

    Broo chief                                   (optional title: the description)
    STR 3D6+6  CON 13  SIZ 15  DEX 11  INT 12  POW 13  CHA 7
    Move 8  Hit Points 15  ENC 5  Rune Points 3  (Hit Points: only when not the derived total)
    Skills: Dodge 40%, First Aid 30%
    Location   D20    AP/HP                      (or Armor/HP; a named body plan is recognised)
    Right Leg  01-04  2/5
    ...
    Weapon       %   Damage      SR  HP          (HP may be Pts; - or a dash: a natural weapon)
    Short Spear  50  1D6+1+1D4   6   10
    Head Butt    40  1D6+1D4     7   -
    Ready: short spear, small shield
    Spirit Magic: Bladesharp 2, Protection 2
    Rune Magic: Truesword 2
    Armor: 2   /   Body: quadruped               (without a location table)
    Several attacks: yes                         (every natural weapon strikes each round; or Club, Sting)
    Poison: Sting, potency CON                   (its blows through armour poison; potency 12, delay 2)
    Kind: chaos   Faction: ...   Player character: no

As in the book, a weapon's Damage includes the damage bonus and its SR is the melee strike rank (DEX SR + SIZ SR
+ the weapon's); missile weapons show the DEX SR. Both are taken back to the weapon's own values here. Every
mistake is one :class:`~npc_tactics.errors.ConfigError` naming the line and the token, its message a
:class:`~npc_tactics.i18n.Said` sentence (English as a str, said in the GM's language where it is shown).
"""

from __future__ import annotations

import re
from typing import Any

from npc_tactics.dice import parse as parse_dice
from npc_tactics.errors import ConfigError, shown
from npc_tactics.i18n import Said
from npc_tactics.systems.runequest.rules import calc, poison
from npc_tactics.systems.runequest.rules import statblock as SB
from npc_tactics.systems.runequest.rules import tables as T

__all__ = ["SKILL_LABELS", "parse_text", "slug"]

SKILL_LABELS = {"dodge": "Dodge", "first_aid": "First Aid", "spirit_magic": "Spirit Magic", "rune_magic": "Rune Magic"}
#: single-number labels of the "Move" line -> field
NUMBER_LABELS = {"move": "move", "hit points": "hp", "enc": "enc", "rune points": "rune_points",
                 "magic points": "magic_points"}
#: first words of the lines (without a colon) that are not table rows: a table ends at one of them, a blank
#: line or a line with a colon
LABEL_WORDS = ("str", "location", "weapon", "move", "hit", "enc", "rune", "magic", "dodge", "first")
DASHES = ("-", "\u2013", "\u2014", "\u2012")
#: damage type of a weapon not in the equipment list, by a word of its name (a house reading; YAML may say
#: type:); anything else slashes
TYPE_WORDS = {
    "impale": ("spear", "lance", "pike", "dagger", "rapier", "javelin", "horn", "gore", "sting", "tusk", "bite",
               "arrow", "beak"),
    "crush": ("club", "mace", "maul", "hammer", "staff", "fist", "kick", "butt", "trample", "hoof", "tail",
              "shield", "crush", "slam", "punch"),
}
CHEST_WORDS = ("chest", "forequarters", "thorax", "body", "forebody")
ABDOMEN_WORDS = ("abdomen", "hindquarters", "hindbody")
MAX_TEXT = 20_000  #: characters of one pasted stat block
MAX_LINE = 300  #: characters of one of its lines (bounds the work of every pattern below)


def _digits(text: str) -> bool:
    """True for a whole number in ASCII digits (``"²".isdigit()`` is True but int() refuses it; ``int("٣")`` is 3)."""
    return text.isascii() and text.isdigit()


def slug(text: str) -> str:
    """``"Right Leg"`` -> ``right_leg``, ``"Head-Butt"`` -> ``head_butt``."""
    return "_".join(text.replace("-", " ").lower().split())


class _Reader:
    def __init__(self, text: str, f: str, p: str) -> None:
        self.f, self.p = f, p
        self.lines = text.replace("\r\n", "\n").split("\n")
        self.out: dict[str, Any] = {}
        self.skills: dict[str, int] = {}

    def error(self, n: int, token: str, detail: str) -> ConfigError:
        """``line N: 'token': detail`` at the stat block's field (``detail`` a :class:`~npc_tactics.i18n.Said`)."""
        return ConfigError(self.f, self.p, Said("line {line}: {token}: {what}", line=n + 1, token=shown(token),
                                                what=detail))

    # ----- lines
    def read(self) -> dict[str, Any]:
        i, seen = 0, False
        while i < len(self.lines):
            line = self.lines[i].strip()
            low = line.lower()
            if not line or line.startswith("#"):
                i += 1
                continue
            head = low.split()[0].rstrip(":")
            if head == "str":
                self.characteristics(i, line)
            elif head == "location":
                i = self.locations(i)
                seen = True
                continue
            elif head == "weapon":
                i = self.weapons(i)
                seen = True
                continue
            elif any(low.startswith(k) for k in NUMBER_LABELS) and not low.startswith("rune magic"):
                self.numbers(i, line)
            elif ":" in line and self.labelled(i, line):
                pass
            elif low.split()[0] in ("dodge", "first"):
                self.skill_list(i, line)
            elif not seen and i == self._first() and not any(c.isdigit() for c in line):
                self.out["description"] = line
            else:
                raise self.error(i, line.split()[0], Said("not a line of an RQG stat block (expected STR ..., Move "
                                                          "..., Skills:, a Location or Weapon table, Spirit Magic:, "
                                                          "Rune Magic:, Ready:, Armor:, Body:, Kind:, Faction:, "
                                                          "Player character:)"))
            seen = True
            i += 1
        return self.finish()

    def _first(self) -> int:
        return next(k for k, x in enumerate(self.lines) if x.strip() and not x.strip().startswith("#"))

    def characteristics(self, n: int, line: str) -> None:
        toks = line.split()
        if len(toks) % 2:
            raise self.error(n, toks[-1], Said("expected pairs NAME VALUE (STR 18 CON 13 ...)"))
        chars: dict[str, Any] = {}
        for name, value in zip(toks[::2], toks[1::2], strict=True):
            c = name.upper()
            if c not in SB.CHARS:
                raise self.error(n, name, Said("unknown characteristic; valid: {valid}", valid=", ".join(SB.CHARS)))
            if c in chars:
                raise self.error(n, name, Said("given twice"))
            chars[c] = int(value) if _digits(value) else self.dice(n, value)
        missing = [c for c in SB.CHARS if c not in chars]
        if missing:
            raise self.error(n, toks[0], Said("missing {missing} (give all seven: {all})", missing=", ".join(missing),
                                              all=" ".join(SB.CHARS)))
        self.out["characteristics"] = chars

    def dice(self, n: int, value: str) -> str:
        try:
            if not value.isascii():  # dice.parse reads any Unicode digit: only ASCII ones are a GM's number
                raise ValueError(value)
            parse_dice(value)
        except ValueError:
            raise self.error(n, value, Said("expected a number or dice such as 3D6+6")) from None
        return value.lower()

    def numbers(self, n: int, line: str) -> None:
        rest = line.lower()
        while rest.strip():
            rest = rest.strip()
            label = next((k for k in NUMBER_LABELS if rest.startswith(k)), None)
            if label is None:
                raise self.error(n, rest.split()[0], Said("unknown value; expected {labels}",
                                                          labels=", ".join(NUMBER_LABELS)))
            rest = rest[len(label):].lstrip(" :")
            token = rest.split()[0] if rest.split() else ""
            if not _digits(token):
                raise self.error(n, token or label, Said("expected a number after {label}", label=repr(label)))
            self.out[NUMBER_LABELS[label]] = int(token)
            rest = rest[len(token):]

    def labelled(self, n: int, line: str) -> bool:
        label, _, value = line.partition(":")
        key, value = label.strip().lower(), value.strip()
        if key == "skills":
            self.skill_list(n, value)
        elif key in ("spirit magic", "rune magic"):
            self.spells(n, value, key.split()[0])
        elif key == "ready":
            self.out["ready"] = [slug(x) for x in value.split(",") if x.strip()]
        elif key in ("armor", "armour"):
            if not _digits(value):
                raise self.error(n, value, Said("expected the AP of every location (a number), or a location table"))
            self.out["armour"] = int(value)
        elif key == "body":
            plan = slug(value)
            if plan not in T.HIT_LOCATIONS:
                raise self.error(n, value, Said("unknown body plan; valid: {valid}", valid=", ".join(T.HIT_LOCATIONS)))
            self.out["locations"] = plan
        elif key == "kind":
            self.out["kind"] = slug(value)
        elif key == "faction":
            self.out["faction"] = value
        elif key == "several attacks" and value.lower() not in ("yes", "no"):  # the weapons striking together
            self.out["several_attacks"] = [slug(x) for x in value.split(",") if x.strip()]
        elif key in ("player character", "several attacks"):
            if value.lower() not in ("yes", "no"):
                raise self.error(n, value, Said("expected yes or no"))
            self.out[key.replace(" ", "_")] = value.lower() == "yes"
        elif key == "poison":
            self.out["poison"] = poison.from_text(value)
            if self.out["poison"] is None:
                raise self.error(n, value, Said("expected the poisoned weapon and its potency, e.g. Sting, potency "
                                                "CON (or potency 12, delay 2)"))
        elif key == "description":
            self.out["description"] = value
        else:
            return False
        return True

    def skill_list(self, n: int, text: str) -> None:
        for part in text.split(","):
            m = re.fullmatch(r"\s*([A-Za-z][A-Za-z ]*?)\s+([0-9]+)\s*%?\s*", part)
            if m is None:
                raise self.error(n, part.strip(), Said("expected a skill and its chance, e.g. Dodge 40%"))
            key = slug(m.group(1))
            if key not in SKILL_LABELS:
                raise self.error(n, m.group(1), Said("unknown combat skill; valid: {valid} (weapon skills go in the "
                                                     "weapon table)", valid=", ".join(SKILL_LABELS.values())))
            self.skills[key] = int(m.group(2))

    def spells(self, n: int, text: str, kind: str) -> None:
        out: dict[str, int] = {}
        for part in text.split(","):
            m = re.fullmatch(r"\s*([A-Za-z][A-Za-z ]*?)\s+([0-9]+)\s*", part)
            if m is None:
                raise self.error(n, part.strip(), Said("expected a spell and its points, e.g. Bladesharp 2"))
            name = slug(m.group(1))
            valid = [s for s, row in T.SPELLS.items() if row.kind == kind]
            if name not in valid:
                what = (Said("not a spirit spell the engine plays; valid: {valid}", valid=", ".join(valid))
                        if kind == "spirit" else
                        Said("not a rune spell the engine plays; valid: {valid}", valid=", ".join(valid)))
                raise self.error(n, m.group(1), what)
            out[name] = int(m.group(2))
        self.out[kind] = out

    # ----- tables
    def _rows(self, start: int) -> list[tuple[int, list[str]]]:
        rows = []
        i = start + 1
        while i < len(self.lines) and self.lines[i].strip():
            toks = self.lines[i].split()
            if ":" in self.lines[i] or toks[0].lower() in LABEL_WORDS:
                break
            rows.append((i, toks))
            i += 1
        return rows

    def locations(self, start: int) -> int:
        rows = []
        for n, toks in self._rows(start):
            if len(toks) < 3:
                raise self.error(n, self.lines[n].strip(), Said("expected LOCATION D20 AP/HP, e.g. Right Leg 01-04 "
                                                                "3/5"))
            ap_hp = toks[-1].split("/")
            if len(ap_hp) != 2 or not all(_digits(x) for x in ap_hp):
                raise self.error(n, toks[-1], Said("expected AP/HP, e.g. 3/5"))
            band = toks[-2]
            for d in DASHES[1:]:
                band = band.replace(d, "-")
            if not re.fullmatch(r"[0-9]{1,2}(-[0-9]{1,2})?", band):
                raise self.error(n, toks[-2], Said("expected a D20 band such as 01-04 or 12"))
            low, _, high = band.partition("-")
            rows.append((n, slug(" ".join(toks[:-2])), int(low), int(high or low), int(ap_hp[0]), int(ap_hp[1])))
        if not rows:
            raise self.error(start, self.lines[start].strip(), Said("a location table needs its rows below it"))
        self.out["_locations"] = rows
        return start + 1 + len(rows)

    def weapons(self, start: int) -> int:
        rows = []
        for n, toks in self._rows(start):
            if len(toks) < 5:
                raise self.error(n, self.lines[n].strip(), Said("expected WEAPON % DAMAGE SR HP, e.g. Broadsword 70 "
                                                                "1D8+1+1D4 7 12"))
            skill, damage, sr, hp = toks[-4].rstrip("%"), toks[-3], toks[-2], toks[-1]
            if not _digits(skill):
                raise self.error(n, toks[-4], Said("expected the weapon skill, e.g. 70%"))
            self.dice(n, damage)
            first_sr = sr.split("/")[0]
            if not _digits(first_sr):
                raise self.error(n, sr, Said("expected the strike rank, e.g. 7 (or 3/8 for a bow's shots)"))
            if hp not in DASHES and not _digits(hp):
                raise self.error(n, hp, Said("expected the weapon's HP, or - for a natural weapon"))
            rows.append((n, " ".join(toks[:-4]), int(skill), damage.lower(), int(first_sr),
                         None if hp in DASHES else int(hp)))
        if not rows:
            raise self.error(start, self.lines[start].strip(), Said("a weapon table needs its rows below it"))
        self.out["_weapons"] = rows
        return start + 1 + len(rows)

    # ----- back to the bestiary's fields
    def finish(self) -> dict[str, Any]:
        out = self.out
        if "characteristics" not in out:
            raise ConfigError(self.f, self.p, Said("line {line}: {what}", line=1, what=Said(
                "no characteristics line (STR 18 CON 13 SIZ 15 DEX 11 INT 12 POW 13 CHA 7)")))
        if "_weapons" not in out:
            raise ConfigError(self.f, self.p, Said("line {line}: {what}", line=len(self.lines), what=Said(
                "no weapon table (Weapon % Damage SR HP, then one row a weapon)")))
        ch = SB.roll_characteristics(out, None)
        if out.get("magic_points") == ch["POW"]:
            del out["magic_points"]
        if self.skills:
            out["skills"] = self.skills
        derived_total = calc.total_hp(ch["CON"], ch["SIZ"], ch["POW"])
        if out.get("hp") == derived_total:
            del out["hp"]
        total = out.get("hp", derived_total)
        if "_locations" in out:
            self.location_fields(out.pop("_locations"), total)
        out["weapons"] = [self.weapon(row, ch) for row in out.pop("_weapons")]
        return out

    def location_fields(self, rows: list[tuple[int, str, int, int, int, int]], total: int) -> None:
        out = self.out
        bands = tuple((name, low, high) for _, name, low, high, _, _ in rows)
        plan = next((k for k, t in T.HIT_LOCATIONS.items() if tuple((r.name, r.low, r.high) for r in t) == bands),
                    None)
        if plan is None:
            out["hit_locations"] = [{"name": name, "d20": f"{low}-{high}" if low != high else low,
                                     "kind": _kind(name)} for _, name, low, high, _, _ in rows]
        elif plan != "humanoid":
            out["locations"] = plan
        table = SB.location_rows(out, self.f, self.p)
        hp = {r.name: calc.location_hp(total, r.hp_row) for r in table}
        given = {name: h for _, name, _, _, _, h in rows if hp.get(name) != h}
        if given:
            out["location_hp"] = given
        aps = {name: ap for _, name, _, _, ap, _ in rows}
        out["armour"] = next(iter(aps.values())) if len(set(aps.values())) == 1 else aps

    def weapon(self, row: tuple[int, str, int, str, int, int | None], ch: dict[str, int]) -> dict[str, Any]:
        n, name, skill, damage, sr, hp = row
        table = SB.equipment()
        key = slug(name.replace("2H", "").replace("1H", ""))
        db = calc.damage_bonus(ch["STR"], ch["SIZ"])
        if db:
            tail = db if db.startswith("-") else f"+{db}"
            if damage.endswith(tail) and len(damage) > len(tail):
                damage = damage[: -len(tail)]
        out: dict[str, Any] = {"weapon": key, "skill": skill} if key in table else {"name": key, "skill": skill}
        base = table.get(key, {})
        kind = base.get("kind", "shield" if "shield" in key else "melee")
        if kind in ("melee", "shield"):
            reach = sr - calc.dex_sr(ch["DEX"]) - calc.siz_sr(ch["SIZ"])
            if not 0 <= reach <= 4:
                raise self.error(n, str(sr), Said("SR {sr} is DEX SR {dex} + SIZ SR {siz} + a weapon SR of {reach}; a "
                                                  "weapon's SR is 0-4", sr=sr, dex=calc.dex_sr(ch["DEX"]),
                                                  siz=calc.siz_sr(ch["SIZ"]), reach=reach))
            if reach != base.get("sr"):
                out["sr"] = reach
        if damage != str(base.get("damage", "")).lower():
            out["damage"] = damage
        if base:
            if hp is None and base["hp"] > 0:
                raise self.error(n, "-", Said("{weapon} is a weapon of the equipment list with {hp} HP", weapon=name,
                                              hp=base["hp"]))
            if hp is not None and hp != base["hp"]:
                out["hp"] = hp
            return out
        if hp is None:
            out["natural"] = True
        else:
            out["hp"] = hp
        if kind == "shield":
            out["kind"] = "shield"
            out["size"] = next((s for s in ("small", "large") if s in key), "medium")
        if "2H" in name.upper().split():
            out["two_handed"] = True
        out["type"] = next((t for t, words in TYPE_WORDS.items() if any(w in key for w in words)), "slash")
        return out


def _kind(name: str) -> str:
    if "head" in name:
        return "head"
    if any(w in name for w in CHEST_WORDS):
        return "chest"
    return "abdomen" if any(w in name for w in ABDOMEN_WORDS) else "limb"


def parse_text(text: str, f: str, p: str) -> dict[str, Any]:
    """The bestiary fields of a pasted stat block (not yet checked: :func:`.statblock.check_template` does)."""
    if not text.strip():
        raise ConfigError(f, p, Said("line {line}: {token}: {what}", line=1, token="''",
                                     what=Said("an empty stat block")))
    if len(text) > MAX_TEXT:
        raise ConfigError(f, p, Said("line {line}: {what}", line=1, what=Said(
            "{n} characters; a stat block has at most {most}", n=len(text), most=MAX_TEXT)))
    for n, line in enumerate(text.splitlines()):
        if len(line) > MAX_LINE:
            raise ConfigError(f, p, Said("line {line}: {token}: {what}", line=n + 1, token=shown(line), what=Said(
                "{n} characters; a line has at most {most}", n=len(line), most=MAX_LINE)))
    return _Reader(text, f, p).read()
