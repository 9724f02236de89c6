"""Equipment and stat blocks from YAML (systems/dicepool/content/equipment.yaml, bestiary.yaml), and fighters.

A stat block gives Initiative, COORDINATION, STRENGTH, DEFENSE, speed, skills (dice pools), weapons,
armour and HP per location (D16: the source has no HP table, so every creature lists its own).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from npc_tactics.configs import load_yaml, system_dir
from npc_tactics.configs import validate as V
from npc_tactics.errors import ConfigError
from npc_tactics.rules.base import Status
from npc_tactics.systems.dicepool.rules import tables as T
from npc_tactics.systems.dicepool.rules.actions import MAX_WEAPONS
from npc_tactics.systems.dicepool.rules.state import Armour, Fighter, Weapon

WEAPON_KEYS = (
    "kind",
    "skill",
    "damage",
    "ranges",
    "electric",
    "huge",
    "thrown",
    "reload",
    "ammo",
    "description",
)
ARMOUR_KEYS = ("covers", "metal", "points", "description")
STAT_KEYS = (
    "initiative",
    "coordination",
    "strength",
    "defense",
    "speed",
    "skills",
    "weapons",
    "armour",
    "locations",
    "mount_speed",
)
TEMPLATE_KEYS = ("description",) + STAT_KEYS


def _weapon(file: str, name: str, raw: Any, field: str) -> Weapon:
    d = V.mapping(raw, file, field, WEAPON_KEYS, ("kind", "skill", "damage"))
    kind = V.choice(d["kind"], file, f"{field}.kind", T.WEAPON_KINDS, "weapon kind")
    damage = str(V.dice(d["damage"], file, f"{field}.damage", allow_int=True))
    ranges = (0, 0, 0)
    if kind == "ranged":
        if "ranges" not in d:
            raise ConfigError(
                file,
                f"{field}.ranges",
                "a ranged weapon needs [short, medium, long] upper bounds in metres",
            )
        r = V.sequence(d["ranges"], file, f"{field}.ranges", 3, 3, "range bands")
        ranges = tuple(V.integer(x, file, f"{field}.ranges[{i}]", 1, 100000) for i, x in enumerate(r))  # type: ignore[assignment]  # the tuple's length is checked just above
        if not ranges[0] < ranges[1] < ranges[2]:
            raise ConfigError(file, f"{field}.ranges", f"bands must increase, got {list(ranges)}")
    flags = {
        k: V.boolean(d.get(k, False), file, f"{field}.{k}")
        for k in ("electric", "huge", "thrown", "reload")
    }
    ammo = V.integer(d.get("ammo", -1), file, f"{field}.ammo", -1, 1000)
    return Weapon(
        name, kind, V.string(d["skill"], file, f"{field}.skill", non_empty=True), damage, ranges, ammo=ammo, **flags
    )


@lru_cache(maxsize=1)
def load_equipment() -> tuple[dict[str, Weapon], dict[str, Armour]]:
    """The shipped weapons and armour, validated."""
    path = system_dir("dicepool") / "equipment.yaml"
    file = str(path)
    data = V.mapping(load_yaml(path), file, "", ("weapons", "armour"), ("weapons", "armour"))
    weapons = {
        name: _weapon(file, name, raw, f"weapons.{name}")
        for name, raw in V.mapping(data["weapons"], file, "weapons").items()
    }
    armour: dict[str, Armour] = {}
    for name, raw in V.mapping(data["armour"], file, "armour").items():
        d = V.mapping(raw, file, f"armour.{name}", ARMOUR_KEYS, ("covers",))
        covers = tuple(
            T.LOCATION_INDEX[V.choice(x, file, f"armour.{name}.covers[{i}]", T.LOCATIONS, "location")]
            for i, x in enumerate(V.sequence(d["covers"], file, f"armour.{name}.covers", 1, what="locations"))
        )
        armour[name] = Armour(
            name,
            covers,
            V.boolean(d.get("metal", False), file, f"armour.{name}.metal"),
            V.integer(d.get("points", 0), file, f"armour.{name}.points", 0, 20),
        )
    return weapons, armour


@lru_cache(maxsize=1)
def load_bestiary() -> dict[str, dict[str, Any]]:
    """The shipped stat blocks by template name, validated (each builds a fighter)."""
    path = system_dir("dicepool") / "bestiary.yaml"
    file = str(path)
    data = V.mapping(load_yaml(path), file, "", ("templates",), ("templates",))
    templates = V.mapping(data["templates"], file, "templates")
    out: dict[str, dict[str, Any]] = {}
    for name, raw in templates.items():
        d = V.mapping(
            raw, file, f"templates.{name}", TEMPLATE_KEYS, STAT_KEYS[:4] + ("skills", "locations")
        )
        build_fighter(file, name, d, {}, f"templates.{name}", 0, name)  # validates
        out[name] = d
    return out


def build_fighter(
    file: str,
    template: str,
    stats: dict[str, Any],
    over: dict[str, Any],
    field: str,
    side: int,
    name: str,
) -> Fighter:
    """A fresh fighter from a stat block and per-combatant overrides (validated; errors name ``field``)."""
    weapons_db, armour_db = load_equipment()

    def get(key: str, default: Any = None) -> tuple[Any, str]:
        return over.get(key, stats.get(key, default)), f"{field}.{key}"

    ints = {}
    for key, lo, hi, default in (
        ("initiative", 0, 40, None),
        ("coordination", 0, 40, None),
        ("strength", 0, 20, None),
        ("defense", 0, 30, None),
        ("speed", 1, 100, T.DEFAULT_SPEED),
        ("mount_speed", 0, 200, 0),
    ):
        value, f = get(key, default)
        ints[key] = V.integer(value, file, f, lo, hi)
    skills_raw, f = get("skills", {})
    skills = {
        V.string(k, file, f, non_empty=True): V.integer(v, file, f"{f}.{k}", 0, T.MAX_POOL)
        for k, v in V.mapping(skills_raw, file, f).items()
    }
    if "skills" in over and isinstance(stats.get("skills"), dict):
        skills = {**stats["skills"], **skills}
    wnames, f = get("weapons", [])
    weapons = tuple(
        weapons_db[V.choice(w, file, f"{f}[{i}]", weapons_db, "weapon")]
        for i, w in enumerate(V.sequence(wnames, file, f, 0, MAX_WEAPONS, "weapons"))
    )
    anames, f = get("armour", [])
    armour = tuple(
        armour_db[V.choice(a, file, f"{f}[{i}]", armour_db, "armour")]
        for i, a in enumerate(V.sequence(anames, file, f, 0, 8, "armour pieces"))
    )
    locs_raw, f = get("locations")
    locs = V.mapping(locs_raw, file, f, T.LOCATIONS, T.LOCATIONS)
    loc_max = tuple(V.integer(locs[n], file, f"{f}.{n}", 1, 100) for n in T.LOCATIONS)
    metal = tuple(any(a.metal and i in a.covers for a in armour) for i in range(len(T.LOCATIONS)))
    protection = tuple(
        sum(a.points for a in armour if i in a.covers) for i in range(len(T.LOCATIONS))
    )
    return Fighter(
        name=name,
        side=side,
        template=template,
        status=Status.ACTIVE,
        hp=sum(loc_max),
        max_hp=sum(loc_max),
        initiative=ints["initiative"],
        coordination=ints["coordination"],
        strength=ints["strength"],
        defense=ints["defense"],
        speed=ints["speed"],
        skills=skills,
        weapons=weapons,
        armour=armour,
        metal=metal,
        loc_max=loc_max,
        loc_hp=list(loc_max),
        serious=[False] * len(T.LOCATIONS),
        ammo=[w.ammo for w in weapons],
        loaded=[True] * len(weapons),
        readied=0 if weapons else -1,
        mount_speed=ints["mount_speed"],
        protection=protection,
    )
