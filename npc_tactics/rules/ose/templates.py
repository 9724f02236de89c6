"""Stat blocks from the YAML content: weapons, armour, the bestiary and class-based templates.

A template becomes a :class:`~npc_tactics.rules.ose.state.Profile` (derived AC, THAC0, movement, saves,
damage) plus its hit points, ammunition and memorised spells. Characters: AC from armour + shield + DEX
(§14.3), THAC0 by class and level (§9.5), movement by armour (OSE basic encumbrance), 1d6 damage + STR
(§10). Monsters: THAC0 by HD (§9.5) unless given, damage from the stat block.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from npc_tactics.configs import load_yaml, system_dir
from npc_tactics.errors import ConfigError
from npc_tactics.rules.ose import tables as T
from npc_tactics.rules.ose import validate as V
from npc_tactics.rules.ose.state import Profile

CONFIG = system_dir("ose")
WEAPON_KEYS = ("damage", "two_handed", "slow", "blunt", "missile", "thrown", "ranges")
MONSTER_KEYS = (
    "description",
    "ac",
    "hd",
    "hp",
    "thac0",
    "damage",
    "weapon_bonus",
    "weapon",
    "missile",
    "ammo",
    "movement",
    "morale",
    "save_as",
    "humanoid",
    "undead",
    "immune",
    "init_mod",
    "shield",
    "spells",
)
CHARACTER_KEYS = (
    "description",
    "class",
    "level",
    "str",
    "dex",
    "armour",
    "shield",
    "weapon",
    "missile",
    "ammo",
    "hp",
    "morale",
    "spells",
    "init_mod",
    "immune",
)
IMMUNITIES = ("melee", "missile", "sleep", "hold", "charm", "poison")
NO_WEAPON = {"damage": "1d6", "two_handed": False, "slow": False, "missile": False, "ranges": None}


@dataclass(frozen=True, slots=True)
class Template:
    profile: Profile
    hp: int | str  #: fixed hit points or a dice expression rolled at the start of the fight
    ammo: int
    spells: tuple[int, ...]


@lru_cache(maxsize=1)
def weapons() -> dict[str, dict[str, Any]]:
    path = str(CONFIG / "weapons.yaml")
    data = V.mapping(load_yaml(path), path, "")
    out = {}
    for name, w in data.items():
        w = V.mapping(w, path, name)
        V.keys(w, WEAPON_KEYS, path, name, required=("damage",))
        ranges = w.get("ranges")
        if ranges is not None and (
            not isinstance(ranges, list)
            or len(ranges) != 3
            or not all(isinstance(r, int) for r in ranges)
        ):
            raise ConfigError(
                path, f"{name}.ranges", f"expected [short, medium, long] in feet, got {ranges!r}"
            )
        out[name] = {
            "damage": V.dice(w, "damage", path, name),
            "two_handed": V.boolean(w, "two_handed", path, name),
            "slow": V.boolean(w, "slow", path, name),
            "missile": V.boolean(w, "missile", path, name),
            "thrown": V.boolean(w, "thrown", path, name),
            "ranges": tuple(ranges) if ranges else None,
        }
    return out


@lru_cache(maxsize=1)
def armour() -> tuple[dict[str, tuple[int, int]], int]:
    path = str(CONFIG / "armour.yaml")
    data = V.mapping(load_yaml(path), path, "")
    V.keys(data, ("armour", "shield_bonus"), path, "", required=("armour", "shield_bonus"))
    table = {}
    for name, a in V.mapping(data["armour"], path, "armour").items():
        a = V.mapping(a, path, f"armour.{name}")
        V.keys(a, ("ac", "movement"), path, f"armour.{name}", required=("ac", "movement"))
        table[name] = (
            V.integer(a, "ac", path, f"armour.{name}"),
            V.integer(a, "movement", path, f"armour.{name}"),
        )
    return table, V.integer(data, "shield_bonus", path, "")


@lru_cache(maxsize=1)
def raw_templates() -> dict[str, tuple[str, dict[str, Any]]]:
    """``{name: (file, raw mapping)}`` for every bestiary and character template."""
    out: dict[str, tuple[str, dict[str, Any]]] = {}
    for fname in ("bestiary.yaml", "characters.yaml"):
        path = str(CONFIG / fname)
        for name, raw in V.mapping(load_yaml(path), path, "").items():
            out[name] = (path, dict(V.mapping(raw, path, name)))
    return out


def template_names() -> list[str]:
    return sorted(raw_templates())


def parse_hd(text: Any, file: str, path: str) -> tuple[int, int]:
    """``"1/2"`` -> (1, 0) counted; ``"1-1"`` -> (1, -1); ``"4+1"`` -> (4, 1)."""
    s = str(text).strip()
    try:
        if s == "1/2":
            return 1, -4
        for sign in ("+", "-"):
            if sign in s:
                a, b = s.split(sign)
                return int(a), int(b) if sign == "+" else -int(b)
        return int(s), 0
    except ValueError:
        raise ConfigError(
            file, path, f"bad Hit Dice {text!r}; expected e.g. 1/2, 1-1, 2, 1+1"
        ) from None


def _weapon(name: Any, file: str, path: str) -> dict[str, Any]:
    table = weapons()
    if not isinstance(name, str) or name not in table:
        raise ConfigError(file, path, f"unknown weapon {name!r}; valid: {', '.join(sorted(table))}")
    return table[name]


def _spells(raw: Any, file: str, path: str) -> tuple[int, ...]:
    counts = [0] * len(T.SPELL_NAMES)
    if raw is None:
        return tuple(counts)
    raw = V.mapping(raw, file, path)
    for name in raw:
        if name not in T.SPELL_NAMES:
            raise ConfigError(
                file, f"{path}.{name}", f"unknown spell; valid: {', '.join(T.SPELL_NAMES)}"
            )
        counts[T.SPELL_NAMES.index(name)] = V.integer(raw, name, file, path, low=0, high=9)
    return tuple(counts)


def make_template(
    name: str, overrides: dict[str, Any] | None = None, file: str = "", path: str = ""
) -> Template:
    """Build the template ``name`` with scenario ``overrides`` (weapon, missile, ammo, morale, spells)."""
    raws = raw_templates()
    if name not in raws:
        raise ConfigError(
            file, path, f"unknown template {name!r}; valid: {', '.join(sorted(raws))}"
        )
    tfile, raw = raws[name]
    merged = dict(raw)
    merged.update(overrides or {})
    src = file if overrides else tfile
    where = path if overrides else name
    if "class" in raw:
        return _character(name, merged, src, where)
    return _monster(name, merged, src, where)


def _ranges(w: dict[str, Any]) -> tuple[int, int, int]:
    r = w["ranges"] or (0, 0, 0)
    return tuple(T.feet_to_squares(x) for x in r)  # type: ignore[return-value]


def _common(name: str, r: dict[str, Any], file: str, path: str) -> dict[str, Any]:
    melee = (
        _weapon(r.get("weapon", "club"), file, f"{path}.weapon")
        if "weapon" in r
        else dict(NO_WEAPON)
    )
    missile_name = V.string(r, "missile", file, path)
    missile = _weapon(missile_name, file, f"{path}.missile") if missile_name else None
    if missile is not None and missile["ranges"] is None:
        raise ConfigError(
            file, f"{path}.missile", f"{missile_name!r} cannot be used as a missile weapon"
        )
    immune = r.get("immune", [])
    if not isinstance(immune, list) or any(x not in IMMUNITIES for x in immune):
        raise ConfigError(
            file, f"{path}.immune", f"expected a list of {', '.join(IMMUNITIES)}, got {immune!r}"
        )
    return {
        "melee": melee,
        "missile": missile,
        "missile_name": missile_name,
        "immune": frozenset(immune),
        "ammo": V.integer(
            r, "ammo", file, path, default=-1 if missile and not missile["thrown"] else 1, low=-1
        ),
        "spells": _spells(r.get("spells"), file, f"{path}.spells"),
        "init_mod": V.integer(r, "init_mod", file, path, default=0, low=-3, high=3),
        "morale": V.integer(r, "morale", file, path, default=0, low=0, high=12),
    }


def _character(name: str, r: dict[str, Any], file: str, path: str) -> Template:
    V.keys(r, CHARACTER_KEYS, file, path, required=("class", "level"))
    cls = V.string(r, "class", file, path, choices=T.CLASS_THAC0)
    level = V.integer(r, "level", file, path, low=1, high=14)
    st = V.integer(r, "str", file, path, default=10, low=3, high=18)
    dx = V.integer(r, "dex", file, path, default=10, low=3, high=18)
    arm_table, shield_bonus = armour()
    arm = V.string(r, "armour", file, path, default="none", choices=arm_table)
    shield = shield_bonus if V.boolean(r, "shield", file, path) else 0
    base_ac, movement = arm_table[arm]
    c = _common(name, r, file, path)
    m, ms = c["melee"], c["missile"]
    hp = V.dice(r, "hp", file, path, default=f"{level}d{T.CLASS_HIT_DIE[cls]}")
    prof = Profile(
        template=name,
        kind="character",
        cls=cls,
        level=level,
        hd=level,
        hd_plus=0,
        ac=base_ac - shield - T.ability_mod(dx),
        shield=shield,
        thac0=T.class_thac0(cls, level),
        str_mod=T.ability_mod(st),
        dex_missile=T.ability_mod(dx),
        init_mod=T.ability_mod(dx, T.DEX_INIT_MOD) + c["init_mod"],
        melee_weapon=r.get("weapon", "unarmed"),
        melee_damage="1d6",
        melee_damage_var=str(m["damage"]),
        melee_slow=bool(m["slow"]),
        missile_weapon=c["missile_name"],
        missile_damage="1d6",
        missile_damage_var=str(ms["damage"]) if ms else "1d6",
        missile_ranges=_ranges(ms) if ms else (0, 0, 0),
        missile_slow=bool(ms["slow"]) if ms else False,
        move=T.feet_to_squares(movement // T.ENCOUNTER_FRACTION),
        morale=c["morale"],
        save_spells=T.save_row(f"{cls[0].upper()}{level}")[4],
        humanoid=True,
        undead=False,
        immune=c["immune"],
    )
    return Template(prof, hp, c["ammo"], c["spells"])


def _monster(name: str, r: dict[str, Any], file: str, path: str) -> Template:
    V.keys(r, MONSTER_KEYS, file, path, required=("ac", "hd", "damage", "movement"))
    hd, plus = parse_hd(r["hd"], file, f"{path}.hd")
    c = _common(name, r, file, path)
    m, ms = c["melee"], c["missile"]
    damage = V.dice(r, "damage", file, path)
    bonus = V.integer(r, "weapon_bonus", file, path)
    var = (
        (lambda w: f"{w['damage']}{bonus:+d}" if bonus else str(w["damage"]))
        if bonus is not None
        else None
    )
    save_as = V.string(r, "save_as", file, path, default="NH")
    try:
        save = T.save_row(save_as)[4]
    except ValueError as exc:
        raise ConfigError(file, f"{path}.save_as", str(exc)) from None
    hp_default = "1d4" if plus == -4 else f"{hd}d8" if plus == 0 else f"{hd}d8{plus:+d}"
    prof = Profile(
        template=name,
        kind="monster",
        cls="monster",
        level=hd,
        hd=hd,
        hd_plus=plus,
        ac=V.integer(r, "ac", file, path, low=-10, high=10),
        shield=armour()[1] if V.boolean(r, "shield", file, path) else 0,
        thac0=V.integer(
            r,
            "thac0",
            file,
            path,
            default=T.monster_thac0(hd, plus if plus > 0 else 0),
            low=1,
            high=25,
        ),
        str_mod=0,
        dex_missile=0,
        init_mod=c["init_mod"],
        melee_weapon=r.get("weapon", "natural"),
        melee_damage=str(damage),
        melee_damage_var=var(m) if var else str(damage),
        melee_slow=bool(m["slow"]),
        missile_weapon=c["missile_name"],
        missile_damage=str(damage),
        missile_damage_var=(var(ms) if var else str(damage)) if ms else str(damage),
        missile_ranges=_ranges(ms) if ms else (0, 0, 0),
        missile_slow=bool(ms["slow"]) if ms else False,
        move=T.feet_to_squares(V.integer(r, "movement", file, path, low=0) // T.ENCOUNTER_FRACTION),
        morale=c["morale"],
        save_spells=save,
        humanoid=V.boolean(r, "humanoid", file, path),
        undead=V.boolean(r, "undead", file, path),
        immune=c["immune"],
    )
    return Template(prof, V.dice(r, "hp", file, path, default=hp_default), c["ammo"], c["spells"])


def template_file(name: str) -> Path:
    return Path(raw_templates()[name][0])
