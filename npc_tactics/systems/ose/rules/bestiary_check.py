"""What ``npc-tactics bestiary`` shows and checks: every OSE template with its stat line, and a user bestiary
file validated entry by entry (each mistake one line naming the file, the entry and the token)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from npc_tactics.errors import ConfigError
from npc_tactics.i18n import Said
from npc_tactics.systems.ose.rules import bestiary_files as B
from npc_tactics.systems.ose.rules import statline as S
from npc_tactics.systems.ose.rules import tables as T
from npc_tactics.systems.ose.rules.state import Profile
from npc_tactics.systems.ose.rules.statline_print import format_bonus, format_stat_line
from npc_tactics.systems.ose.rules.templates import (
    Template,
    all_templates,
    raw_templates,
    template_from_raw,
)

__all__ = ["bestiary_listing", "check_bestiary", "stat_line_of"]


def _feet(prof: Profile) -> int:
    """Base movement in feet back from the encounter squares (10' = 2 squares, encounter = a third)."""
    return prof.move * T.FEET_PER_SQUARE * T.ENCOUNTER_FRACTION


def _monster_line(raw: dict[str, Any], t: Template, file: str, name: str) -> str:
    """The canonical stat line of a monster entry: its own ``stat_line``, or one written from its fields."""
    if "stat_line" in raw:
        return format_stat_line(S.parse_stat_line(str(raw["stat_line"])))
    r = B.normalise_fields(raw, file, name)
    p = t.profile
    hd, plus, half, _, _ = S.read_field("HD", str(r["hd"]))
    weapon = r.get("weapon")
    form = str(weapon).replace("_", " ") if weapon and "weapon_bonus" not in r else "weapon"
    code = str(r.get("save_as", "NH"))
    saves = tuple(r["saves"]) if "saves" in r else T.save_row(code)
    stats = S.MonsterStats(
        ac=int(r["ac"]), hd=hd, hd_plus=plus, half_hd=half, asterisks=0, hp=None,
        attacks=(S.Attack(1, str(r.get("attack_form", form)), S.canonical_dice(str(p.melee_damage)), (), (),
                          r.get("weapon_bonus")),),
        thac0=p.thac0, movement=(("", int(r["movement"])),), saves=saves,
        save_as=None if "saves" in r else (code[1:] if code[:1] == "F" else code), morale=p.morale,
    )
    return format_stat_line(stats)


def _character_line(t: Template) -> str:
    """A character's summary in the same notation (class and level instead of HD; no SV, no ML)."""
    p = t.profile
    feet = _feet(p)
    return (f"{p.cls} {p.level}, AC {p.ac} [{T.ac_to_aac(p.ac)}], "
            f"Att 1 × {p.melee_weapon.replace('_', ' ')} ({p.melee_damage} / {p.melee_damage_var}), "
            f"THAC0 {p.thac0} [{format_bonus(T.thac0_to_bonus(p.thac0))}], "
            f"MV {feet}' ({feet // T.ENCOUNTER_FRACTION}')")


def stat_line_of(name: str, raw: dict[str, Any], t: Template, file: str = "") -> str:
    return _character_line(t) if t.profile.kind == "character" else _monster_line(raw, t, file, name)


def bestiary_listing() -> list[dict[str, Any]]:
    """Every template (shipped and the user's bestiaries) with its kind, stat line, description and file."""
    shipped = raw_templates()
    rows = []
    for name, (file, raw) in sorted(all_templates().items()):
        t = template_from_raw(name, dict(raw), file)
        rows.append({
            "name": name,
            "kind": t.profile.kind,
            "stat_line": stat_line_of(name, raw, t, file),
            "description": str(raw.get("description", "")),
            "creature_kind": str(raw.get("kind", "human" if t.profile.kind == "character" else "")),
            "faction": str(raw.get("faction", "")),
            "player_character": bool(raw.get("player_character", t.profile.kind == "character")),
            "source": Path(file).name if name in shipped else file,
            "shipped": name in shipped,
        })
    return rows


def check_bestiary(path: str) -> dict[str, Any]:
    """``{"file", "entries": [{name, stat_line}], "errors": [one line each]}`` for one user bestiary file."""
    try:
        entries = B.read_entries(path)
    except ConfigError as exc:
        return {"file": path, "entries": [], "errors": [str(exc)]}
    shipped = raw_templates()
    good, errors = [], []
    for name, raw in entries.items():
        try:
            if name in shipped:
                raise ConfigError(path, name, Said("is a shipped template; give the entry another name (e.g. "
                                                   "my_{name})", name=name))
            full = B.expand(raw, path, name)
            t = template_from_raw(name, full, path)
            good.append({"name": name, "kind": t.profile.kind, "stat_line": stat_line_of(name, full, t, path)})
        except ConfigError as exc:
            errors.append(str(exc))
    return {"file": path, "entries": good, "errors": errors}
