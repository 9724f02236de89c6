"""RQG scenarios: the weapon list, the bestiary and scenarios (YAML, strictly validated), below the engine and
the situation loader, which both build states from them (:mod:`.content` adds the situations).

Every error is a one-line :class:`~npc_tactics.errors.ConfigError` naming the file and the field
path, e.g. ``scenarios/x.yaml: sides[0].combatants[2].template: unknown template 'gobln'; valid:
...``.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

from npc_tactics.configs import load_yaml, system_dir
from npc_tactics.configs import validate as V
from npc_tactics.rules import loading
from npc_tactics.rules.base import Status, read_only
from npc_tactics.systems.runequest.rules import calc
from npc_tactics.systems.runequest.rules import tables as T
from npc_tactics.systems.runequest.rules.actions import MAX_PER_SIDE
from npc_tactics.systems.runequest.rules.options import SPEC
from npc_tactics.systems.runequest.rules.state import (
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


# ----- weapons and bestiary
# ------------------------------------------------------------------------------
@lru_cache(maxsize=4)
def weapons(path: str = str(DIR / "equipment.yaml")) -> dict[str, dict[str, Any]]:
    """The validated weapon list (name -> fields)."""
    raw = V.mapping(load_yaml(path), path, "")
    table = V.mapping(raw.get("weapons"), path, "weapons")
    out = {}
    for name, w in table.items():
        p = f"weapons.{name}"
        w = V.mapping(w, path, p, WEAPON_KEYS)
        V.choice(w.get("kind"), path, f"{p}.kind", ("melee", "shield", "missile", "thrown"), "weapon kind")
        V.dice(w.get("damage"), path, f"{p}.damage")
        for key in ("sr", "hp", "hands"):
            V.integer(w.get(key), path, f"{p}.{key}", 0)
        V.choice(w.get("type"), path, f"{p}.type", ("slash", "impale", "crush"), "damage type")
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
    raw = V.mapping(load_yaml(path), path, "", {"templates"})
    table = V.mapping(raw.get("templates"), path, "templates")
    for name, t in table.items():
        _validate_template(t, path, f"templates.{name}")
    return table


def _validate_template(t: Any, f: str, p: str) -> None:
    t = V.mapping(t, f, p, TEMPLATE_KEYS)
    chars = V.mapping(t.get("characteristics"), f, f"{p}.characteristics", set(CHARS))
    for c in CHARS:
        V.integer(chars.get(c), f, f"{p}.characteristics.{c}", 1, 99)
    table = V.choice(t.get("locations", "humanoid"), f, f"{p}.locations", T.HIT_LOCATIONS, "hit-location table")
    _armour(t.get("armour", 0), table, f, f"{p}.armour")
    skills = V.mapping(t.get("skills", {}), f, f"{p}.skills", SKILL_KEYS)
    for k, v in skills.items():
        V.integer(v, f, f"{p}.skills.{k}", 0, 200)
    ws = V.sequence(t.get("weapons", []), f, f"{p}.weapons", 1, 4, "weapons")
    for i, w in enumerate(ws):
        w = V.mapping(w, f, f"{p}.weapons[{i}]", {"weapon", "skill", "hp"})
        V.choice(w.get("weapon"), f, f"{p}.weapons[{i}].weapon", weapons(), "weapon")
        V.integer(w.get("skill"), f, f"{p}.weapons[{i}].skill", 0, 200)
    names = [w["weapon"] for w in ws]
    for i, r in enumerate(t.get("ready", [])):
        V.choice(r, f, f"{p}.ready[{i}]", names, "weapon")
    for kind in ("spirit", "rune"):
        spells = V.mapping(t.get(kind, {}), f, f"{p}.{kind}")
        valid = [s for s, row in T.SPELLS.items() if row.kind == kind]
        for s, pts in spells.items():
            V.choice(s, f, f"{p}.{kind}.{s}", valid, f"{kind} spell")
            V.integer(pts, f, f"{p}.{kind}.{s}", 1, 20)
    for key in ("move", "hp", "rune_points", "enc"):
        if key in t:
            V.integer(t[key], f, f"{p}.{key}", 0, 200)


def _armour(v: Any, table: str, f: str, p: str) -> dict[str, int]:
    names = [row.name for row in T.HIT_LOCATIONS[table]]
    if isinstance(v, int) and not isinstance(v, bool):
        return {n: V.integer(v, f, p, 0, 30) for n in names}
    v = V.mapping(v, f, p)
    for k, ap in v.items():
        V.choice(k, f, f"{p}.{k}", names, "location")
        V.integer(ap, f, f"{p}.{k}", 0, 30)
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
    overrides = V.mapping(entry.get("skills", {}), f, f"{p}.skills")
    wnames = [w["weapon"] for w in t["weapons"]]
    for k, v in overrides.items():
        V.choice(k, f, f"{p}.skills.{k}", set(wnames) | SKILL_KEYS, "skill")
        V.integer(v, f, f"{p}.skills.{k}", 0, 200)
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
    ready_names = V.sequence(entry.get("ready", t.get("ready", [])), f, f"{p}.ready", what="weapon names")
    ready = 0
    for i, r in enumerate(ready_names):
        ready |= 1 << wnames.index(V.choice(r, f, f"{p}.ready[{i}]", wnames, "weapon"))
    for i, w in enumerate(wlist):
        if w.spec.hands == 0:
            ready |= 1 << i
    mp = V.integer(entry.get("mp", ch["POW"]), f, f"{p}.mp", 0, 99)
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
        V.string(name, f, f"{p}.name"),
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
    """Shipped scenarios: (name, one-line description)."""
    return loading.list_scenarios(SCENARIO_DIR)


def load_scenario(name_or_path: str) -> dict[str, Any]:
    """A shipped scenario name or a YAML path, validated; the mapping ``new_combat`` accepts."""
    return loading.load_scenario(name_or_path, SCENARIO_DIR, validate_scenario)


def validate_scenario(
    raw: Any, f: str, extra_keys: set[str] | None = None, entry_keys: set[str] = ENTRY_KEYS
) -> dict[str, Any]:
    """Check a scenario mapping; return it with defaults filled and ``file`` set."""
    raw = V.mapping(raw, f, "", SCENARIO_KEYS | (extra_keys or set()))
    out = dict(raw)
    out["file"] = f
    out["name"] = V.string(raw.get("name", Path(f).stem), f, "name")
    if "description" in raw:  # free text: no control characters (shown by `scenarios` and in reports)
        V.string(raw["description"], f, "description")
    out["max_rounds"] = V.integer(raw.get("max_rounds", 25), f, "max_rounds", 1, 500)
    out["distance"] = V.number(raw.get("distance", 1), f, "distance", 0, 2 * V.MAX_METRES)
    out["options"] = loading.read_options(SPEC, raw.get("options") or {}, f)
    surprised = raw.get("surprised")
    if surprised is not None:
        V.integer(surprised, f, "surprised", 0, 1)
    for si, side in enumerate(V.two_sides(raw.get("sides"), f)):
        side = V.mapping(side, f, V.join("sides", si), SIDE_KEYS)
        if "name" in side:
            V.string(side["name"], f, V.join("sides", si, "name"))
        cp = V.join("sides", si, "combatants")
        for ci, e in enumerate(V.sequence(side.get("combatants"), f, cp, 1, MAX_PER_SIDE, "combatants")):
            p = V.join(cp, ci)
            e = V.mapping(e, f, p, entry_keys)
            V.choice(e.get("template"), f, f"{p}.template", bestiary(), "template")
            if "position" in e:
                V.number(e["position"], f, f"{p}.position", -V.MAX_METRES, V.MAX_METRES)
            if "name" in e:
                V.string(e["name"], f, f"{p}.name")
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
        combatants, 0, scenario["max_rounds"], surprised=() if surprised is None else (surprised,),
        options=read_only(options),
    )
