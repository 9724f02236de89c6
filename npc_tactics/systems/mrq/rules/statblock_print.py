"""Print a template as a stat block in the book's layout (what :mod:`.statblock_text` reads back).

``parse_stat_block(format_stat_block(name, raw))`` builds the same Profile as ``raw`` for every shipped entry
(tests/rules/mrq/test_statblock_roundtrip.py)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from npc_tactics.systems.mrq.rules.bestiary import build_profile, load_weapons, own_weapons
from npc_tactics.systems.mrq.rules.tables import LOCATION_NAMES

__all__ = ["format_stat_block"]

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


def format_stat_block(name: str, raw: Mapping[str, Any], file: str = "<print>") -> str:
    """The stat block of template ``raw`` (characteristics as given: numbers or dice)."""
    p = build_profile(name, raw, file, name, load_weapons())
    weapons = own_weapons(raw, file, name, load_weapons())
    ch = raw["characteristics"]
    keys = ("str", "con", "siz", "int", "pow", "dex") + (("cha",) if "cha" in ch else ())
    lines = [_title(name)]
    if raw.get("description"):
        lines.append(f"Description: {raw['description']}")
    lines.append("  ".join(f"{k.upper()} {_dice(str(ch[k]))}" for k in keys))
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

    def row(wname: str, skill: int, ammo: int = 0) -> str:
        w = weapons[wname]
        hp = f" {w.ap}/{w.hp}" if wname in raw.get("weapons", {}) else ""
        return f"{_title(wname)} {skill}% {_dice(w.damage)}{hp}" + (f" x{ammo}" if ammo else "")

    lines.append(row(p.weapon.name, p.skill))
    if p.offhand is not None:
        lines.append(row(p.offhand.name, p.skill))
    if "unarmed" in raw and raw["unarmed"] != p.weapon.name:
        lines.append(row(p.unarmed.name, p.unarmed_skill))
    for o in raw.get("other_weapons", []):
        lines.append(f"{_title(str(o['name']))} {o['skill']}% {_dice(str(o['damage']))}")
    if p.missile is not None:
        lines.append(row(p.missile.name, p.missile_skill, p.ammo))
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
