"""An RQG stat block printed in the book's layout, the one :mod:`.statblock_text` reads back (parse -> print ->
parse gives the same fields for every shipped entry: tests/rules/runequest/test_statblock_text.py), and its one
line in English or French (the French edition's words: :mod:`.statline_fr`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from npc_tactics.locale_format import NNBSP, clauses
from npc_tactics.systems.runequest.rules import calc, poison
from npc_tactics.systems.runequest.rules import statblock as SB
from npc_tactics.systems.runequest.rules import statline_fr as W
from npc_tactics.systems.runequest.rules.statblock_text import SKILL_LABELS

__all__ = ["format_stat_block", "stat_line"]


def _title(name: str) -> str:
    return " ".join(w.capitalize() for w in name.split("_"))


def _band(low: int, high: int) -> str:
    return f"{low:02d}" if low == high else f"{low:02d}-{high:02d}"


def _value(v: int | str) -> str:
    return str(v).upper() if isinstance(v, str) else str(v)


def _damage(row: Mapping[str, Any], db: str) -> str:
    dmg = str(row["damage"]).upper()
    if not db:
        return dmg
    return dmg + (db.upper() if db.startswith("-") else f"+{db.upper()}")


def stat_line(t: Mapping[str, Any], lang: str = "en") -> str:
    """One line for a listing and the tracker's cards, in ``lang``: characteristics, HP, the weapons with their
    skills (``STR 14 ...; HP 15; Broadsword 70%``, ``FOR 14 ... ; 15 points de vie ; Épée large 70 %``)."""
    ch = t["characteristics"]
    avg = SB.roll_characteristics(t, None)
    hp = t.get("hp") or calc.total_hp(avg["CON"], avg["SIZ"], avg["POW"])
    percent = f"{NNBSP}%" if lang == "fr" else "%"
    ws = ", ".join(f"{W.weapon_name(r['name'], _title(r['name']), lang)} {r['skill']}{percent}" for r in _rows(t))
    chars = " ".join(f"{W.characteristic(c, lang)} {_value(ch[c])}" for c in SB.CHARS)
    return clauses([chars, W.hit_points(int(hp), lang), ws], lang)


def _rows(t: Mapping[str, Any]) -> list[dict[str, Any]]:
    table = SB.equipment()
    return [SB.weapon_row(w, table, "<print>", f"weapons[{i}]") for i, w in enumerate(t["weapons"])]


def format_stat_block(t: Mapping[str, Any]) -> str:
    """The stat block as text (see :mod:`.statblock_text` for the layout)."""
    ch = t["characteristics"]
    avg = SB.roll_characteristics(t, None)
    lines = []
    if t.get("description"):
        lines.append(f"Description: {t['description']}")
    lines.append("  ".join(f"{c} {_value(ch[c])}" for c in SB.CHARS))
    total = t.get("hp") or calc.total_hp(avg["CON"], avg["SIZ"], avg["POW"])
    nums = [f"Move {t.get('move', 8)}", f"Hit Points {total}"]
    if "enc" in t:
        nums.append(f"ENC {t['enc']}")
    if "magic_points" in t:
        nums.append(f"Magic Points {t['magic_points']}")
    if "rune_points" in t:
        nums.append(f"Rune Points {t['rune_points']}")
    lines.append("  ".join(nums))
    skills = t.get("skills", {})
    if skills:
        lines.append("Skills: " + ", ".join(f"{SKILL_LABELS[k]} {v}%" for k, v in skills.items()))
    rows = SB.location_rows(t, "<print>", "")
    armour = SB.armour_map(t.get("armour", 0), [r.name for r in rows], "<print>", "armour")
    specs = SB.location_specs(t, total, armour, "<print>", "")
    width = max(len("Location"), *(len(_title(r.name)) for r in rows)) + 2
    lines.append(f"{'Location':<{width}}D20    AP/HP")
    for s in specs:
        lines.append(f"{_title(s.name):<{width}}{_band(s.low, s.high):<7}{s.armour}/{s.max_hp}")
    dex_sr, siz_sr = calc.dex_sr(avg["DEX"]), calc.siz_sr(avg["SIZ"])
    db = calc.damage_bonus(avg["STR"], avg["SIZ"])
    wrows = _rows(t)
    width = max(len("Weapon"), *(len(_title(r["name"])) + 3 for r in wrows)) + 2
    lines.append(f"{'Weapon':<{width}}%    Damage       SR  HP")
    for r in wrows:
        sr = dex_sr if r["kind"] in ("missile", "thrown") else dex_sr + siz_sr + r["sr"]
        hp = str(r["hp"]) if r["hp"] > 0 else "-"
        name = _title(r["name"]) + (" 2H" if r["hands"] == 2 and r["name"] not in SB.equipment() else "")
        lines.append(f"{name:<{width}}{r['skill']:<5}{_damage(r, db):<13}{sr:<4}{hp}")
    if t.get("ready"):
        lines.append("Ready: " + ", ".join(_title(r) for r in t["ready"]))
    for kind in ("spirit", "rune"):
        if t.get(kind):
            lines.append(f"{kind.capitalize()} Magic: " + ", ".join(f"{_title(s)} {p}" for s, p in t[kind].items()))
    several = t.get("several_attacks")
    if isinstance(several, list):
        lines.append("Several attacks: " + ", ".join(_title(w) for w in several))
    elif several is not None:
        lines.append(f"Several attacks: {'yes' if several else 'no'}")
    if "poison" in t:
        lines.append("Poison: " + poison.to_text(t["poison"], _title))
    if "kind" in t:
        lines.append(f"Kind: {t['kind']}")
    if "faction" in t:
        lines.append(f"Faction: {t['faction']}")
    if "player_character" in t:
        lines.append(f"Player character: {'yes' if t['player_character'] else 'no'}")
    return "\n".join(lines) + "\n"
