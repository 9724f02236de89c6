"""RQG content: the weapon list, the bestiary, scenarios and GM situations (YAML, strictly
validated).

Every error is a one-line :class:`~npc_tactics.errors.ConfigError` naming the file and the field
path, e.g. ``scenarios/x.yaml: sides[0].combatants[2].template: unknown template 'gobln'; valid:
...``.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

from npc_tactics.configs import load_yaml, named_files, resolve_named, system_dir
from npc_tactics.dice import Roller, parse
from npc_tactics.errors import ConfigError
from npc_tactics.rules.base import Status
from npc_tactics.rules.runequest import calc
from npc_tactics.rules.runequest import tables as T
from npc_tactics.rules.runequest.state import (
    Combatant,
    CombatantSpec,
    Location,
    LocationSpec,
    RQState,
    Weapon,
    WeaponSpec,
)

DIR = system_dir("runequest")
SCENARIO_DIR = DIR / "scenarios"
SCENARIO_KEYS = {"name", "description", "max_rounds", "distance", "options", "sides", "surprised"}
SIDE_KEYS = {"name", "combatants"}
ENTRY_KEYS = {"template", "name", "position", "ready", "skills", "mp", "armour"}
TEMPLATE_KEYS = {
    "description",
    "characteristics",
    "move",
    "locations",
    "armour",
    "hp",
    "skills",
    "weapons",
    "ready",
    "spirit",
    "rune",
    "rune_points",
    "enc",
}
CHARS = ("STR", "CON", "SIZ", "DEX", "INT", "POW", "CHA")
SKILL_KEYS = {"dodge", "first_aid", "spirit_magic", "rune_magic"}
WEAPON_KEYS = {
    "kind",
    "damage",
    "sr",
    "hp",
    "hands",
    "class",
    "type",
    "size",
    "rate",
    "range",
    "ammo",
    "sword",
}


# ----- small validators
# ----------------------------------------------------------------------------------
def _map(v: Any, f: str, path: str) -> dict[str, Any]:
    if not isinstance(v, dict):
        raise ConfigError(f, path, f"expected a mapping, got {type(v).__name__}")
    return v


def _keys(v: Mapping[str, Any], allowed: set[str], f: str, path: str) -> None:
    for k in v:
        if k not in allowed:
            raise ConfigError(
                f,
                f"{path}.{k}" if path else str(k),
                f"unknown key {k!r}; valid keys: {', '.join(sorted(allowed))}",
            )


def _int(v: Any, f: str, path: str, lo: int | None = None, hi: int | None = None) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise ConfigError(f, path, f"expected an integer, got {v!r}")
    if (lo is not None and v < lo) or (hi is not None and v > hi):
        raise ConfigError(f, path, f"{v} out of range {lo}..{hi}")
    return v


def _num(v: Any, f: str, path: str) -> float:
    if isinstance(v, bool) or not isinstance(v, int | float):
        raise ConfigError(f, path, f"expected a number, got {v!r}")
    return float(v)


def _str(v: Any, f: str, path: str) -> str:
    if not isinstance(v, str):
        raise ConfigError(f, path, f"expected a string, got {v!r}")
    return v


def _choice(
    v: Any, valid: Mapping[str, Any] | tuple[str, ...] | set[str], f: str, path: str, what: str
) -> str:
    if not isinstance(v, str) or v not in valid:
        raise ConfigError(f, path, f"unknown {what} {v!r}; valid: {', '.join(sorted(valid))}")
    return v


# ----- weapons and bestiary
# ------------------------------------------------------------------------------
@lru_cache(maxsize=4)
def weapons(path: str = str(DIR / "equipment.yaml")) -> dict[str, dict[str, Any]]:
    """The validated weapon list (name -> fields)."""
    raw = _map(load_yaml(path), path, "")
    table = _map(raw.get("weapons"), path, "weapons")
    out = {}
    for name, w in table.items():
        p = f"weapons.{name}"
        w = _map(w, path, p)
        _keys(w, WEAPON_KEYS, path, p)
        _choice(
            w.get("kind"),
            ("melee", "shield", "missile", "thrown"),
            path,
            f"{p}.kind",
            "weapon kind",
        )
        try:
            parse(_str(w.get("damage"), path, f"{p}.damage"))
        except ValueError as exc:
            raise ConfigError(path, f"{p}.damage", str(exc)) from None
        for key in ("sr", "hp", "hands"):
            _int(w.get(key), path, f"{p}.{key}", 0)
        _choice(w.get("type"), ("slash", "impale", "crush"), path, f"{p}.type", "damage type")
        out[name] = w
    return out


def _weapon_spec(name: str, skill: int, hp: int | None) -> WeaponSpec:
    w = weapons()[name]
    kind = w["kind"]
    return WeaponSpec(
        name=name,
        kind=kind,
        skill=skill,
        damage=w["damage"],
        sr=w["sr"],
        max_hp=w["hp"] if hp is None else hp,
        hands=w["hands"],
        wclass=w.get("class", "medium"),
        dtype=w["type"],
        parry=kind in ("melee", "shield") and w["hp"] > 0,
        rate=str(w.get("rate", "1")),
        range_m=int(w.get("range", 0)),
        ammo=int(w.get("ammo", 1 if kind == "melee" else 0)),
        size=w.get("size", ""),
        sword=bool(w.get("sword", False)),
    )


@lru_cache(maxsize=4)
def bestiary(path: str = str(DIR / "bestiary.yaml")) -> dict[str, dict[str, Any]]:
    """The validated bestiary (template name -> raw stat block)."""
    raw = _map(load_yaml(path), path, "")
    _keys(raw, {"templates"}, path, "")
    table = _map(raw.get("templates"), path, "templates")
    for name, t in table.items():
        _validate_template(t, path, f"templates.{name}")
    return table


def _validate_template(t: Any, f: str, p: str) -> None:
    t = _map(t, f, p)
    _keys(t, TEMPLATE_KEYS, f, p)
    chars = _map(t.get("characteristics"), f, f"{p}.characteristics")
    _keys(chars, set(CHARS), f, f"{p}.characteristics")
    for c in CHARS:
        _int(chars.get(c), f, f"{p}.characteristics.{c}", 1, 99)
    table = _choice(
        t.get("locations", "humanoid"), T.HIT_LOCATIONS, f, f"{p}.locations", "hit-location table"
    )
    _armour(t.get("armour", 0), table, f, f"{p}.armour")
    skills = _map(t.get("skills", {}), f, f"{p}.skills")
    _keys(skills, SKILL_KEYS, f, f"{p}.skills")
    for k, v in skills.items():
        _int(v, f, f"{p}.skills.{k}", 0, 200)
    ws = t.get("weapons", [])
    if not isinstance(ws, list) or not 1 <= len(ws) <= 4:
        raise ConfigError(f, f"{p}.weapons", "expected a list of 1 to 4 weapons")
    for i, w in enumerate(ws):
        w = _map(w, f, f"{p}.weapons[{i}]")
        _keys(w, {"weapon", "skill", "hp"}, f, f"{p}.weapons[{i}]")
        _choice(w.get("weapon"), weapons(), f, f"{p}.weapons[{i}].weapon", "weapon")
        _int(w.get("skill"), f, f"{p}.weapons[{i}].skill", 0, 200)
    names = [w["weapon"] for w in ws]
    for i, r in enumerate(t.get("ready", [])):
        _choice(r, names, f, f"{p}.ready[{i}]", "weapon")
    for kind in ("spirit", "rune"):
        spells = _map(t.get(kind, {}), f, f"{p}.{kind}")
        valid = [s for s, row in T.SPELLS.items() if row.kind == kind]
        for s, pts in spells.items():
            _choice(s, valid, f, f"{p}.{kind}.{s}", f"{kind} spell")
            _int(pts, f, f"{p}.{kind}.{s}", 1, 20)
    for key in ("move", "hp", "rune_points", "enc"):
        if key in t:
            _int(t[key], f, f"{p}.{key}", 0, 200)


def _armour(v: Any, table: str, f: str, p: str) -> dict[str, int]:
    names = [row.name for row in T.HIT_LOCATIONS[table]]
    if isinstance(v, int) and not isinstance(v, bool):
        return {n: _int(v, f, p, 0, 30) for n in names}
    v = _map(v, f, p)
    for k, ap in v.items():
        _choice(k, names, f, f"{p}.{k}", "location")
        _int(ap, f, f"{p}.{k}", 0, 30)
    return {n: v.get(n, 0) for n in names}


def make_combatant(
    template: str,
    entry: Mapping[str, Any],
    side: int,
    pos: float,
    options: Mapping[str, Any],
    f: str = "<scenario>",
    p: str = "",
) -> Combatant:
    """A combatant from a bestiary template with the scenario entry's overrides (name, ready,
    skills...)."""
    t = bestiary()[template]
    ch = t["characteristics"]
    table = t.get("locations", "humanoid")
    armour = _armour(entry.get("armour", t.get("armour", 0)), table, f, f"{p}.armour")
    skills = dict(t.get("skills", {}))
    overrides = _map(entry.get("skills", {}), f, f"{p}.skills")
    wnames = [w["weapon"] for w in t["weapons"]]
    for k, v in overrides.items():
        _choice(k, set(wnames) | SKILL_KEYS, f, f"{p}.skills.{k}", "skill")
        _int(v, f, f"{p}.skills.{k}", 0, 200)
    skills.update({k: v for k, v in overrides.items() if k in SKILL_KEYS})
    total = t.get("hp") or calc.total_hp(ch["CON"], ch["SIZ"], ch["POW"])
    locs = [
        Location(
            LocationSpec(
                r.name, r.kind, r.low, r.high, calc.location_hp(total, r.hp_row), armour[r.name]
            )
        )
        for r in T.HIT_LOCATIONS[table]
    ]
    wlist = [
        Weapon(spec, spec.max_hp, spec.ammo)
        for spec in (
            _weapon_spec(w["weapon"], overrides.get(w["weapon"], w["skill"]), w.get("hp"))
            for w in t["weapons"]
        )
    ]
    ready_names = entry.get("ready", t.get("ready", []))
    if not isinstance(ready_names, list):
        raise ConfigError(f, f"{p}.ready", "expected a list of weapon names")
    ready = 0
    for i, r in enumerate(ready_names):
        ready |= 1 << wnames.index(_choice(r, wnames, f, f"{p}.ready[{i}]", "weapon"))
    for i, w in enumerate(wlist):
        if w.spec.hands == 0:
            ready |= 1 << i
    mp = _int(entry.get("mp", ch["POW"]), f, f"{p}.mp", 0, 99)
    spec = CombatantSpec(
        template=template,
        dex=ch["DEX"],
        siz=ch["SIZ"],
        str_=ch["STR"],
        con=ch["CON"],
        pow_=ch["POW"],
        dex_sr=calc.dex_sr(ch["DEX"]),
        siz_sr=calc.siz_sr(ch["SIZ"]),
        db=calc.damage_bonus(ch["STR"], ch["SIZ"]),
        move_m=float(t.get("move", 8) * options["metres_per_mov"]),
        dodge=skills.get("dodge", 0),
        first_aid=skills.get("first_aid", 0),
        spirit_chance=skills.get("spirit_magic", 5 * ch["POW"]),
        rune_chance=skills.get("rune_magic", 0),
        spirit=tuple(t.get("spirit", {}).items()),
        rune=tuple(t.get("rune", {}).items()),
        enc=t.get("enc", 0),
        max_enc=calc.max_enc(ch["STR"], ch["CON"]),
        loc_table=table,
    )
    name = entry.get("name", template)
    return Combatant(
        _str(name, f, f"{p}.name"),
        side,
        spec,
        Status.ACTIVE,
        total,
        total,
        mp,
        ch["POW"],
        t.get("rune_points", 0),
        pos,
        wlist,
        locs,
        ready,
        template,
    )


# ----- scenarios
# -------------------------------------------------------------------------------------------
def list_scenarios() -> list[tuple[str, str]]:
    out = []
    for name, path in named_files(SCENARIO_DIR).items():
        raw = load_yaml(path)
        out.append((name, str(raw.get("description", "")) if isinstance(raw, dict) else ""))
    return out


def load_scenario(name_or_path: str) -> dict[str, Any]:
    """A shipped scenario name or a YAML path, validated; the mapping ``new_combat`` accepts."""
    path = resolve_named(name_or_path, SCENARIO_DIR, "scenario")
    return validate_scenario(load_yaml(path), str(path))


def validate_scenario(
    raw: Any, f: str, extra_keys: set[str] | None = None, entry_keys: set[str] = ENTRY_KEYS
) -> dict[str, Any]:
    """Check a scenario mapping; return it with defaults filled and ``file`` set."""
    from npc_tactics.rules.runequest.engine import DEFAULT_OPTIONS

    raw = _map(raw, f, "")
    _keys(raw, SCENARIO_KEYS | (extra_keys or set()), f, "")
    out = dict(raw)
    out["file"] = f
    out["name"] = _str(raw.get("name", Path(f).stem), f, "name")
    out["max_rounds"] = _int(raw.get("max_rounds", 25), f, "max_rounds", 1, 500)
    out["distance"] = _num(raw.get("distance", 1), f, "distance")
    opts = _map(raw.get("options") or {}, f, "options")
    for k in opts:
        _choice(k, DEFAULT_OPTIONS, f, f"options.{k}", "rules option")
    out["options"] = opts
    surprised = raw.get("surprised")
    if surprised is not None:
        _int(surprised, f, "surprised", 0, 1)
    sides = raw.get("sides")
    if not isinstance(sides, list) or len(sides) != 2:
        raise ConfigError(f, "sides", "expected a list of exactly 2 sides (side 0 = the NPCs)")
    for si, side in enumerate(sides):
        side = _map(side, f, f"sides[{si}]")
        _keys(side, SIDE_KEYS, f, f"sides[{si}]")
        cs = side.get("combatants")
        if not isinstance(cs, list) or not 1 <= len(cs) <= 6:
            raise ConfigError(f, f"sides[{si}].combatants", "expected a list of 1 to 6 combatants")
        for ci, e in enumerate(cs):
            p = f"sides[{si}].combatants[{ci}]"
            e = _map(e, f, p)
            _keys(e, entry_keys, f, p)
            _choice(e.get("template"), bestiary(), f, f"{p}.template", "template")
            if "position" in e:
                _num(e["position"], f, f"{p}.position")
            if "name" in e:
                _str(e["name"], f, f"{p}.name")
    return out


def build_state(scenario: Mapping[str, Any], options: Mapping[str, Any]) -> RQState:
    """The opening state (before round 1) of a validated scenario."""
    f = str(scenario.get("file", "<scenario>"))
    if "file" not in scenario:
        scenario = validate_scenario(dict(scenario), f)
    combatants = []
    for si, side in enumerate(scenario["sides"]):
        for ci, e in enumerate(side["combatants"]):
            pos = float(e.get("position", 0.0 if si == 0 else scenario["distance"]))
            combatants.append(
                make_combatant(
                    e["template"], e, si, pos, options, f, f"sides[{si}].combatants[{ci}]"
                )
            )
    surprised = scenario.get("surprised")
    return RQState(
        combatants, 0, scenario["max_rounds"], surprised=() if surprised is None else (surprised,)
    )


# ----- situations
# ------------------------------------------------------------------------------------------
def load_situation(
    engine: Any, path_or_mapping: str | Path | Mapping[str, Any], roller: Roller
) -> RQState:
    """A GM's fight in progress, returned at the acting combatant's decision (see
    :mod:`.situation`)."""
    from npc_tactics.rules.runequest.situation import load_situation as _load

    return _load(engine, path_or_mapping, roller)
