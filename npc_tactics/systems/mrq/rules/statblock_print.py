"""Print a template as a stat block in the book's layout (what :mod:`.statblock_text` reads back), and as one
line in English or French (the French edition's words: :mod:`.statline_fr`).

``parse_stat_block(format_stat_block(name, raw))`` builds the same Profile as ``raw`` for every shipped entry
(tests/rules/mrq/test_statblock_roundtrip.py). The line is the block's characteristics and weapon rows, so the
block's table and the line are printed from the same rows (:func:`_weapon_rows`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from npc_tactics.locale_format import NNBSP, clauses
from npc_tactics.systems.mrq.rules import statline_fr as W
from npc_tactics.systems.mrq.rules.bestiary import build_profile, load_weapons, own_weapons
from npc_tactics.systems.mrq.rules.state import Profile, Weapon
from npc_tactics.systems.mrq.rules.tables import LOCATION_NAMES

__all__ = ["format_stat_block", "stat_line"]

#: One row of the weapon table: weapon id (or the GM's own name), skill %, damage, "AP/HP" (its own weapons
#: only, else ""), ammunition (0: none).
Row = tuple[str, int, str, str, int]


def _rows(table: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """(lowest, highest) d20 face of each of the seven slots (a stat block prints one range per location)."""
    return tuple((table.index(k, 1), len(table) - 1 - table[::-1].index(k)) for k in range(7))


def _title(name: str) -> str:
    return name.replace("_", " ").capitalize()


def _dice(text: str) -> str:
    return text.upper()


def _signed(expr: str) -> str:
    if not expr:
        return "+0"
    return _dice(expr) if expr.startswith("-") else "+" + _dice(expr)


def _weapon_rows(p: Profile, raw: Mapping[str, Any], weapons: Mapping[str, Weapon]) -> list[Row]:
    """The rows of the weapon table: the weapon, the off-hand item, the unarmed attack when the template names
    one, the other weapons, the missile weapon."""
    own = raw.get("weapons", {})

    def row(wname: str, skill: int, ammo: int = 0) -> Row:
        w = weapons[wname]
        return wname, skill, _dice(w.damage), f"{w.ap}/{w.hp}" if wname in own else "", ammo

    rows = [row(p.weapon.name, p.skill)]
    if p.offhand is not None:
        rows.append(row(p.offhand.name, p.skill))
    if "unarmed" in raw and raw["unarmed"] != p.weapon.name:
        rows.append(row(p.unarmed.name, p.unarmed_skill))
    for o in raw.get("other_weapons", []):
        rows.append((str(o["name"]), int(o["skill"]), _dice(str(o["damage"])), "", 0))
    if p.missile is not None:
        rows.append(row(p.missile.name, p.missile_skill, p.ammo))
    return rows


def _row_text(r: Row, lang: str) -> str:
    """``Great axe 55% 2D6+2 4/10``, ``Shortbow 70% 1D8 x12``; in French ``Grande hache 55 % 2D6+2 4/10``."""
    name, skill, damage, ap_hp, ammo = r
    percent = f"{NNBSP}%" if lang == "fr" else "%"
    text = f"{W.weapon_name(name, _title(name), lang)} {skill}{percent} {damage}"
    if ap_hp:
        text += f" {ap_hp}"
    if ammo:
        text += f" ×{ammo}" if lang == "fr" else f" x{ammo}"
    return text


def _characteristics(raw: Mapping[str, Any], lang: str) -> str:
    """``STR 3D6+3  CON 14 ...`` as given (numbers or dice), CHA only when the template has it."""
    ch = raw["characteristics"]
    keys = ("str", "con", "siz", "int", "pow", "dex") + (("cha",) if "cha" in ch else ())
    return "  ".join(f"{W.characteristic(k, lang)} {_dice(str(ch[k]))}" for k in keys)


def stat_line(name: str, raw: Mapping[str, Any], lang: str = "en", file: str = "<print>") -> str:
    """The template on one line in ``lang``, for a listing and the tracker's cards: its characteristics and its
    weapon rows (``STR 12  CON 12 ...; Scimitar 45% 1D8``, ``FOR 12  CON 12 ... ; Cimeterre 45 % 1D8``)."""
    p = build_profile(name, raw, file, name, load_weapons())
    rows = _weapon_rows(p, raw, own_weapons(raw, file, name, load_weapons()))
    return clauses([_characteristics(raw, lang), ", ".join(_row_text(r, lang) for r in rows)], lang)


def format_stat_block(name: str, raw: Mapping[str, Any], file: str = "<print>") -> str:
    """The stat block of template ``raw`` (characteristics as given: numbers or dice)."""
    p = build_profile(name, raw, file, name, load_weapons())
    weapons = own_weapons(raw, file, name, load_weapons())
    lines = [_title(name)]
    if raw.get("description"):
        lines.append(f"Description: {raw['description']}")
    lines.append(_characteristics(raw, "en"))
    sr = (p.dex + p.int_) // 2
    reactions = f"  Reactions {p.reactions}" if p.reactions >= 0 else ""
    lines.append(f"Combat Actions {p.cas}{reactions}  Strike Rank +{sr}  Damage Modifier {_signed(p.dm)}  "
                 f"Movement {p.move}m")
    lines.append("D20 Hit Location AP/HP")
    for (lo, hi), loc, ap, nat, hp in zip(_rows(p.hit_table), LOCATION_NAMES[p.body], p.armour, p.natural, p.loc_max,
                                          strict=True):
        del nat
        face = f"{lo}" if lo == hi else f"{lo}-{hi}"
        lines.append(f"{face} {loc.replace('_', ' ').title()} {ap}/{hp}")
    if any(p.natural):
        if len(set(p.natural)) != 1:
            raise ValueError(f"{name}: natural armour by location cannot be printed in one line")
        lines.append(f"Natural Armour {p.natural[0]}")
    lines.append("Weapons")
    lines.append("Type Weapon skill Damage AP/HP")
    lines += [_row_text(r, "en") for r in _weapon_rows(p, raw, weapons)]
    skills = [("Acrobatics", p.acrobatics), ("Athletics", p.athletics), ("Resilience", p.resilience),
              ("Brute Force", p.brute_force), ("Riding", p.riding)]
    if p.body == "quadruped" and "acrobatics" not in raw.get("skills", {}):
        skills = skills[1:]  # a quadruped's Acrobatics is its Athletics (§11)
    if p.style not in ("unarmed", "natural") and "unarmed_skill" in raw:
        skills.append(("Unarmed", p.unarmed_skill))
    lines.append("Skills: " + ", ".join(f"{k} {v}%" for k, v in skills))
    traits = (["Formidable Natural Weapons"] if p.formidable else []) + ([] if p.intelligent else ["Unintelligent"])
    if traits:
        lines.append("Traits: " + ", ".join(traits))
    lines.append(f"Style {p.style.replace('_', ' ')}")
    if "mount" in raw:
        m = raw["mount"]
        lines.append(f"Mount {m.get('template', 'horse')} (STR {m['str']}, SIZ {m['siz']})")
    for key, label in (("kind", "Kind"), ("faction", "Faction")):
        if raw.get(key):
            lines.append(f"{label} {raw[key]}")
    if "player_character" in raw:
        lines.append(f"Player character {'yes' if raw['player_character'] else 'no'}")
    return "\n".join(lines) + "\n"
