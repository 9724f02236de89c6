"""Equipment and stat blocks from YAML (systems/dicepool/content/equipment.yaml, bestiary.yaml), and fighters.

A stat block (the character sheet's fields, rules/sheet.py) gives Initiative, COORDINATION, STRENGTH,
DEFENSE, speed, skills (dice pools), weapons, armour and HP per location (D16: the source has no HP table,
so every creature lists its own); a weapon or armour piece is an equipment.yaml name or written inline (a
mapping with its ``name``). A shipped template also carries ``tags`` (kind, faction, player_character),
``source`` (where its numbers come from) and an optional ``body_plan`` (names of the seven locations).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from npc_tactics.configs import load_yaml, system_dir
from npc_tactics.configs import validate as V
from npc_tactics.errors import ConfigError
from npc_tactics.i18n import Said
from npc_tactics.rules.base import Status
from npc_tactics.systems.dicepool.rules import tables as T
from npc_tactics.systems.dicepool.rules.actions import MAX_WEAPONS
from npc_tactics.systems.dicepool.rules.sheet_labels import labels
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
    "natural",
    "description",
)
ARMOUR_KEYS = ("covers", "metal", "points", "description")
#: Integer fields of a stat block: (key, low, high, default; None = required). The builder and the sheet
#: parser both bound them here.
INT_FIELDS: tuple[tuple[str, int, int, int | None], ...] = (
    ("initiative", 0, 40, None),
    ("coordination", 0, 40, None),
    ("strength", 0, 20, None),
    ("defense", 0, 30, None),
    ("speed", 1, 100, T.DEFAULT_SPEED),
    ("mount_speed", 0, 200, 0),
)
REQUIRED_STATS = ("initiative", "coordination", "strength", "defense", "skills", "locations")
MAX_ARMOUR = 8
MAX_LOCATION_HP = 100
DEFAULT_PLAN = "humanoid"
#: ``locations: human``: the shipped human (haru, duelist ...): head 4 as the source's example (L68), the
#: other locations house values (D16: the source has no HP table).
HUMAN_LOCATIONS = {"head": 4, "torso": 10, "pelvis": 7, "left_arm": 6, "right_arm": 6, "left_leg": 7,
                   "right_leg": 7}
TAG_KEYS = ("kind", "faction", "player_character")
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
    "body_plan",
)
TEMPLATE_KEYS = ("description", "tags", "source") + STAT_KEYS


def _weapon(file: str, name: str, raw: Any, field: str) -> Weapon:
    d = V.mapping(raw, file, field, WEAPON_KEYS, ("kind", "skill", "damage"))
    kind = V.choice(d["kind"], file, f"{field}.kind", T.WEAPON_KINDS, "weapon kind")
    damage = str(V.dice(d["damage"], file, f"{field}.damage", allow_int=True))
    ranges = (0, 0, 0)
    if kind == "ranged":
        if "ranges" not in d:
            raise ConfigError(file, f"{field}.ranges", Said("a ranged weapon needs [short, medium, long] upper bounds "
                                                            "in metres"))
        r = V.sequence(d["ranges"], file, f"{field}.ranges", 3, 3, "range bands")
        ranges = tuple(V.integer(x, file, f"{field}.ranges[{i}]", 1, 100000) for i, x in enumerate(r))  # type: ignore[assignment]  # the tuple's length is checked just above
        if not ranges[0] < ranges[1] < ranges[2]:
            raise ConfigError(file, f"{field}.ranges", Said("bands must increase, got {ranges}", ranges=list(ranges)))
    flags = {
        k: V.boolean(d.get(k, False), file, f"{field}.{k}")
        for k in ("electric", "huge", "thrown", "reload")
    }
    ammo = V.integer(d.get("ammo", -1), file, f"{field}.ammo", -1, 1000)
    if V.boolean(d.get("natural", False), file, f"{field}.natural"):
        flags["natural"] = True  # only when set: a Weapon equal to the ones written before the flag existed
    return Weapon(
        name, kind, V.string(d["skill"], file, f"{field}.skill", non_empty=True), damage, ranges, ammo=ammo, **flags
    )


def _item_name(raw: dict[str, Any], file: str, field: str) -> str:
    name = V.string(raw.get("name"), file, f"{field}.name", non_empty=True)
    if len(name) > 40 or any(c in name for c in ",;()|:\n"):
        raise ConfigError(file, f"{field}.name", Said("a name of at most 40 characters without , ; ( ) | : got "
                                                      "{name}", name=repr(name)))
    return name


def inline_weapon(raw: Any, file: str, field: str) -> Weapon:
    """A weapon written in a stat block itself: ``{name: bite, kind: melee, skill: brawl, damage: 1d6, ...}``."""
    d = V.mapping(raw, file, field, ("name",) + WEAPON_KEYS, ("name", "kind", "skill", "damage"))
    name = _item_name(d, file, field)
    return _weapon(file, name, {k: v for k, v in d.items() if k != "name"}, field)


def _armour(file: str, name: str, raw: Any, field: str) -> Armour:
    d = V.mapping(raw, file, field, ARMOUR_KEYS, ("covers",))
    covers = tuple(
        T.LOCATION_INDEX[V.choice(x, file, f"{field}.covers[{i}]", T.LOCATIONS, "location")]
        for i, x in enumerate(V.sequence(d["covers"], file, f"{field}.covers", 1, what="locations"))
    )
    if len(set(covers)) != len(covers):
        raise ConfigError(file, f"{field}.covers", Said("a location is listed twice"))
    return Armour(
        name,
        covers,
        V.boolean(d.get("metal", False), file, f"{field}.metal"),
        V.integer(d.get("points", 0), file, f"{field}.points", 0, 20),
    )


def inline_armour(raw: Any, file: str, field: str) -> Armour:
    """An armour piece written in a stat block itself: ``{name: hide, covers: [torso, pelvis], points: 2}``."""
    d = V.mapping(raw, file, field, ("name",) + ARMOUR_KEYS, ("name", "covers"))
    return _armour(file, _item_name(d, file, field), {k: v for k, v in d.items() if k != "name"}, field)


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
    armour = {
        name: _armour(file, name, raw, f"armour.{name}")
        for name, raw in V.mapping(data["armour"], file, "armour").items()
    }
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
        out[name] = check_template(raw, file, f"templates.{name}", name)
    return out


def check_template(raw: Any, file: str, field: str, name: str) -> dict[str, Any]:
    """A template's fields validated (its stat block builds a fighter; ``tags`` and ``source`` are well formed)."""
    d = V.mapping(raw, file, field, TEMPLATE_KEYS, REQUIRED_STATS)
    V.string(d.get("description", ""), file, f"{field}.description")
    V.string(d.get("source", ""), file, f"{field}.source")
    tags = V.mapping(d.get("tags", {}), file, f"{field}.tags", TAG_KEYS)
    for key in ("kind", "faction"):
        if key in tags:
            V.string(tags[key], file, f"{field}.tags.{key}", non_empty=True)
    V.boolean(tags.get("player_character", False), file, f"{field}.tags.player_character")
    build_fighter(file, name, d, {}, field, 0, name)  # validates
    return dict(d)


def template_tags(raw: dict[str, Any]) -> dict[str, Any]:
    """kind, faction (``None`` when not given) and player_character (default false) of a template."""
    tags = raw.get("tags") or {}
    return {"kind": tags.get("kind"), "faction": tags.get("faction"),
            "player_character": bool(tags.get("player_character", False))}


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
    for key, lo, hi, default in INT_FIELDS:
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
        inline_weapon(w, file, f"{f}[{i}]") if isinstance(w, dict)
        else weapons_db[V.choice(w, file, f"{f}[{i}]", weapons_db, "weapon")]
        for i, w in enumerate(V.sequence(wnames, file, f, 0, MAX_WEAPONS, "weapons"))
    )
    if len({w.name for w in weapons}) != len(weapons):
        raise ConfigError(file, f, Said("two weapons with one name; give each a distinct name"))
    anames, f = get("armour", [])
    armour = tuple(
        inline_armour(a, file, f"{f}[{i}]") if isinstance(a, dict)
        else armour_db[V.choice(a, file, f"{f}[{i}]", armour_db, "armour")]
        for i, a in enumerate(V.sequence(anames, file, f, 0, MAX_ARMOUR, "armour pieces"))
    )
    plan, f = get("body_plan", DEFAULT_PLAN)
    plan = V.choice(plan, file, f, labels().plan_locations, "body plan")
    locs_raw, f = get("locations")
    if locs_raw == "human":
        locs_raw = HUMAN_LOCATIONS
    locs = V.mapping(locs_raw, file, f, T.LOCATIONS, T.LOCATIONS)
    loc_max = tuple(V.integer(locs[n], file, f"{f}.{n}", 1, MAX_LOCATION_HP) for n in T.LOCATIONS)
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
        body_plan=plan,
    )
