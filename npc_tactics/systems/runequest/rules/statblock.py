"""An RQG stat block as data: the fields of ``bestiary.yaml`` (a shipped template, a user bestiary entry, or a
combatant's own ``stat_block``), checked, and the parts of a combatant derived from them per the rules.

Characteristics are numbers or dice (``3D6+6``, rolled through the engine's dice when the fight is built);
total HP, location HP, DEX/SIZ SR, damage bonus and max ENC are derived from them unless given (reference
§3.3, §15, Published data). A weapon names a row of ``equipment.yaml`` (``weapon: broadsword``) and may change
its damage, SR or HP, or is given in full (``name: claw, damage: 1d6, sr: 3, natural: true``). The hit-location
table is a named body plan (``tables.HIT_LOCATIONS``) or the GM's own (``hit_locations``), at most
``tables.MAX_LOCATIONS`` rows (an aimed blow picks among the last seven: ``tables.aim_location``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Any

from npc_tactics.configs import load_yaml, system_dir
from npc_tactics.configs import validate as V
from npc_tactics.dice import parse as parse_dice
from npc_tactics.errors import ConfigError, shown
from npc_tactics.i18n import Said
from npc_tactics.systems.runequest.rules import calc, poison
from npc_tactics.systems.runequest.rules import tables as T
from npc_tactics.systems.runequest.rules.state import LocationSpec, Weapon, WeaponSpec

__all__ = ["CHARS", "EQUIPMENT", "KINDS", "SKILL_KEYS", "TEMPLATE_KEYS", "check_template", "equipment",
           "location_rows", "location_specs", "roll_characteristics", "several_of", "weapon_row", "weapon_spec"]

EQUIPMENT = str(system_dir("runequest") / "equipment.yaml")

CHARS = ("STR", "CON", "SIZ", "DEX", "INT", "POW", "CHA")
NIL_CHARS = ("INT", "POW", "CHA")  #: characteristics a creature may lack (0)
SKILL_KEYS = {"dodge", "first_aid", "spirit_magic", "rune_magic"}
#: tags of a template (issue 27): what it is, whose side it is usually on, whether players play it
TAG_KEYS = ("kind", "faction", "player_character")
KINDS = ("adventurer", "elder_race", "chaos", "beast", "undead", "monster")
TEMPLATE_KEYS = {
    "description", "characteristics", "move", "locations", "hit_locations", "location_hp", "armour", "hp",
    "skills", "weapons", "ready", "spirit", "rune", "rune_points", "enc", "source", "several_attacks",
    "magic_points", "poison", *TAG_KEYS,
}
#: the fields of one weapon row of ``equipment.yaml``
WEAPON_FIELDS = {"kind", "damage", "sr", "hp", "hands", "class", "type", "size", "rate", "range", "ammo", "sword"}
#: a stat block's weapon: a row of the equipment list and the skill, with changes, or a weapon given in full
WEAPON_KEYS = {"weapon", "name", "skill", "reach", "two_handed", "natural"} | WEAPON_FIELDS
WEAPON_KINDS = ("melee", "shield", "missile", "thrown")
CLASSES = ("light", "medium", "great", "shield", "missile", "natural")
DTYPES = ("slash", "impale", "crush")
LOCATION_KEYS = {"name", "d20", "kind", "hp", "hp_row"}
LOCATION_KINDS = ("limb", "abdomen", "chest", "head")
HP_ROWS = ("most", "chest", "arm", *T.LOCATION_HP_OFFSETS)  #: §15 columns and the creature tables' -2, +2
MAX_WEAPONS = 4  #: weapon slots of the action catalogue (``attack:<w>:...``)

Roll = Callable[[str, str], int]  #: (dice, why) -> total, the engine's dice


# ----- characteristics
# ------------------------------------------------------------------------------------
def _characteristic(v: Any, f: str, p: str, low: int = 1) -> int | str:
    """A characteristic: low..99, or dice whose every result lies in low..99 (INT, POW, CHA may be 0: mindless
    and soulless things, e.g. the undead, who resist with their magic points)."""
    if isinstance(v, str):
        text = V.dice(v, f, p).lower()
        expr = parse_dice(text)
        if expr.minimum < low or expr.maximum > 99:
            raise ConfigError(f, p, Said("{dice} rolls {low}..{high}; a characteristic is {least}..99", dice=shown(v),
                                         low=expr.minimum, high=expr.maximum, least=low))
        return text
    return V.integer(v, f, p, low, 99)


def roll_characteristics(t: Mapping[str, Any], roll: Roll | None) -> dict[str, int]:
    """The seven characteristics, dice rolled with ``roll`` (STR first, in the stat block's order); with no
    ``roll`` (a listing, a budget) dice count as their average rounded half up."""
    out = {}
    for c in CHARS:
        v = t["characteristics"][c]
        if isinstance(v, str):
            out[c] = roll(v, c) if roll is not None else calc.round_half_up(int(2 * parse_dice(v).mean), 2)
        else:
            out[c] = v
    return out


# ----- weapons
# ---------------------------------------------------------------------------------------------
@lru_cache(maxsize=4)
def equipment(path: str = EQUIPMENT) -> dict[str, dict[str, Any]]:
    """The validated weapon list of ``equipment.yaml`` (name -> fields)."""
    raw = V.mapping(load_yaml(path), path, "")
    table = V.mapping(raw.get("weapons"), path, "weapons")
    out = {}
    for name, w in table.items():
        p = f"weapons.{name}"
        w = V.mapping(w, path, p, WEAPON_FIELDS)
        V.choice(w.get("kind"), path, f"{p}.kind", WEAPON_KINDS, "weapon kind")
        V.dice(w.get("damage"), path, f"{p}.damage")
        for key in ("sr", "hp", "hands"):
            V.integer(w.get(key), path, f"{p}.{key}", 0)
        V.choice(w.get("type"), path, f"{p}.type", DTYPES, "damage type")
        out[name] = w
    return out


def weapon_row(w: Mapping[str, Any], table: Mapping[str, Mapping[str, Any]], f: str, p: str) -> dict[str, Any]:
    """The full weapon fields of a stat block's weapon entry (the equipment row it names, with its changes),
    plus ``name`` and ``skill``: checked, with ``reach`` as the SR, ``natural`` and ``two_handed`` expanded."""
    w = V.mapping(w, f, p, WEAPON_KEYS, ("skill",))
    if "weapon" in w and "name" in w:
        raise ConfigError(f, V.join(p, "name"), Said("give weapon (a row of the equipment list) or name (a weapon "
                                                     "given in full), not both"))
    if "weapon" in w:
        base = dict(table[V.choice(w["weapon"], f, V.join(p, "weapon"), table, "weapon")])
        name = w["weapon"]
    else:
        name = V.string(w.get("name"), f, V.join(p, "name"), non_empty=True)
        if name in table:  # a row of the list by its name: the same as weapon: name
            base = dict(table[name])
        else:
            for key in ("damage", "sr"):
                if key not in w and not (key == "sr" and "reach" in w):
                    raise ConfigError(f, V.join(p, key), Said("missing required key (weapon {weapon} is not in the "
                                                              "equipment list: give damage and sr)",
                                                              weapon=repr(name)))
            base = {"kind": "melee", "hp": 0 if w.get("natural") else 10, "hands": 1, "class": "medium",
                    "type": "crush" if w.get("natural") else "slash"}
    row = {**base, **{k: v for k, v in w.items() if k in WEAPON_FIELDS}}
    if "reach" in w:
        reach = V.integer(w["reach"], f, V.join(p, "reach"), 0, 4)
        if "sr" in w and w["sr"] != reach:
            raise ConfigError(f, V.join(p, "reach"), Said("{reach} disagrees with sr {sr} (a weapon's SR is its "
                                                          "reach)", reach=reach, sr=shown(w["sr"])))
        row["sr"] = reach
    if V.boolean(w.get("natural", False), f, V.join(p, "natural")):
        row.update(kind="melee", hp=0, hands=0, **{"class": "natural"})
    if "two_handed" in w:
        row["hands"] = 2 if V.boolean(w["two_handed"], f, V.join(p, "two_handed")) else min(row.get("hands", 1), 1)
    V.choice(row.get("kind"), f, V.join(p, "kind"), WEAPON_KINDS, "weapon kind")
    row["damage"] = V.dice(row.get("damage"), f, V.join(p, "damage")).lower()
    V.integer(row.get("sr"), f, V.join(p, "sr"), 0, 4)
    V.integer(row.get("hp"), f, V.join(p, "hp"), 0, 60)
    V.integer(row.get("hands"), f, V.join(p, "hands"), 0, 2)
    V.choice(row.get("class", "medium"), f, V.join(p, "class"), CLASSES, "weapon class")
    V.choice(row.get("type"), f, V.join(p, "type"), DTYPES, "damage type")
    if row["kind"] in ("missile", "thrown"):
        V.integer(row.get("range", 0), f, V.join(p, "range"), 1, 1000)
        V.choice(str(row.get("rate", "1")), f, V.join(p, "rate"), ("1", "S"), "rate of fire")
        V.integer(row.get("ammo", 1), f, V.join(p, "ammo"), 1, 100)
    if row["kind"] == "shield":
        V.choice(row.get("size"), f, V.join(p, "size"), tuple(T.SHIELD_COVER), "shield size")
    if row["hp"] == 0 and row["hands"] > 0:
        raise ConfigError(f, V.join(p, "hp"), Said("0: a weapon without hit points is natural (no hands): give "
                                                   "natural: true, or its hp"))
    row["name"] = name
    row["skill"] = V.integer(w["skill"], f, V.join(p, "skill"), 0, 200)
    return row


def weapon_spec(row: Mapping[str, Any], skill: int | None = None) -> WeaponSpec:
    """The engine's weapon from a checked :func:`weapon_row` (``skill``: an override of the row's)."""
    kind = row["kind"]
    return WeaponSpec(
        name=row["name"], kind=kind, skill=row["skill"] if skill is None else skill, damage=row["damage"],
        sr=row["sr"], max_hp=row["hp"], hands=row["hands"], wclass=row.get("class", "medium"), dtype=row["type"],
        parry=kind in ("melee", "shield") and row["hp"] > 0, rate=str(row.get("rate", "1")),
        range_m=int(row.get("range", 0)), ammo=int(row.get("ammo", 1 if kind == "melee" else 0)),
        size=row.get("size", ""), sword=bool(row.get("sword", False)),
    )


# ----- hit locations
# ----------------------------------------------------------------------------------------------
def _d20(v: Any, f: str, p: str) -> tuple[int, int]:
    """``12``, ``"1-4"`` (or an en dash) or ``[1, 4]``: the D20 band of a location."""
    if isinstance(v, int) and not isinstance(v, bool):
        v = [v, v]
    elif isinstance(v, str):
        parts = v.replace("\u2013", "-").split("-")
        if len(parts) not in (1, 2) or not all(x.strip().isascii() and x.strip().isdigit() for x in parts):
            raise ConfigError(f, p, Said("expected a D20 band such as 1-4 or 12, got {band}", band=shown(v)))
        v = [int(parts[0]), int(parts[-1])]
    seq = V.sequence(v, f, p, 2, 2, "D20 numbers (low, high)")
    low, high = (V.integer(x, f, V.join(p, i), 1, 20) for i, x in enumerate(seq))
    if low > high:
        raise ConfigError(f, p, Said("{low}-{high}: the low number comes first", low=low, high=high))
    return low, high


def _default_hp_row(name: str, kind: str) -> str:
    """The §15 HP column a location takes when the GM gives none: the chest's, an arm's (arms, forelegs,
    wings), else the legs'/abdomen's/head's."""
    if kind == "chest":
        return "chest"
    return "arm" if kind == "limb" and any(w in name for w in ("arm", "fore", "wing")) else "most"


def location_rows(t: Mapping[str, Any], f: str, p: str) -> tuple[T.LocationRow, ...]:
    """The stat block's hit-location table: its ``hit_locations`` or its named body plan (humanoid)."""
    if "hit_locations" not in t:
        return T.HIT_LOCATIONS[V.choice(t.get("locations", "humanoid"), f, V.join(p, "locations"),
                                        T.HIT_LOCATIONS, "hit-location table")]
    if "locations" in t:
        raise ConfigError(f, V.join(p, "hit_locations"), Said("give locations (a body plan) or hit_locations (a "
                                                              "table), not both"))
    lp = V.join(p, "hit_locations")
    seq = V.sequence(t["hit_locations"], f, lp, 1, T.MAX_LOCATIONS, "locations")
    rows, covered = [], 0
    for i, raw in enumerate(seq):
        q = V.join(lp, i)
        loc = V.mapping(raw, f, q, LOCATION_KEYS, ("name", "d20", "kind"))
        name = V.string(loc["name"], f, V.join(q, "name"), non_empty=True)
        kind = V.choice(loc["kind"], f, V.join(q, "kind"), LOCATION_KINDS, "location kind")
        low, high = _d20(loc["d20"], f, V.join(q, "d20"))
        if low != covered + 1:
            raise ConfigError(f, V.join(q, "d20"), Said("{low}-{high}: the bands go up from 1 without gap or overlap "
                                                        "(expected {next} next)", low=low, high=high,
                                                        next=covered + 1))
        covered = high
        hp_row = V.choice(loc.get("hp_row", _default_hp_row(name, kind)), f, V.join(q, "hp_row"), HP_ROWS,
                          "HP column")
        rows.append(T.LocationRow(name, kind, low, high, hp_row))
    if covered != 20:
        raise ConfigError(f, lp, Said("the D20 bands end at {last}; they must cover 1-20", last=covered))
    if len({r.name for r in rows}) != len(rows):
        raise ConfigError(f, lp, Said("two locations have the same name"))
    return tuple(rows)


def _given_location_hp(t: Mapping[str, Any], names: list[str], f: str, p: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for i, raw in enumerate(t.get("hit_locations", ())):
        if "hp" in raw:
            out[raw["name"]] = V.integer(raw["hp"], f, V.join(p, "hit_locations", i, "hp"), 1, 200)
    lh = V.mapping(t.get("location_hp", {}), f, V.join(p, "location_hp"))
    for k, v in lh.items():
        V.choice(k, f, V.join(p, "location_hp", k), names, "location")
        out[k] = V.integer(v, f, V.join(p, "location_hp", k), 1, 200)
    return out


def armour_map(v: Any, names: list[str], f: str, p: str) -> dict[str, int]:
    """``armour``: one AP for every location, or ``location -> AP`` (locations left out: 0)."""
    if isinstance(v, int) and not isinstance(v, bool):
        return {n: V.integer(v, f, p, 0, 30) for n in names}
    v = V.mapping(v, f, p)
    for k, ap in v.items():
        V.choice(k, f, V.join(p, k), names, "location")
        V.integer(ap, f, V.join(p, k), 0, 30)
    return {n: v.get(n, 0) for n in names}


def location_specs(t: Mapping[str, Any], total: int, armour: Mapping[str, int], f: str, p: str
                   ) -> list[LocationSpec]:
    """Each location with its HP (given, else from total HP by its §15 column) and AP."""
    rows = location_rows(t, f, p)
    given = _given_location_hp(t, [r.name for r in rows], f, p)
    return [LocationSpec(r.name, r.kind, r.low, r.high, given.get(r.name, calc.location_hp(total, r.hp_row)),
                         armour[r.name]) for r in rows]


# ----- several attacks a round
# ----------------------------------------------------------------------------------------------
def _several(v: Any, wrows: list[dict[str, Any]], f: str, p: str) -> bool | list[str]:
    """``several_attacks``: true (every natural weapon strikes each round), false, or the names of the melee
    weapons that strike together (the scorpion man's ``[club, sting]``)."""
    if not isinstance(v, list):
        return V.boolean(v, f, p)
    names = [r["name"] for r in wrows]
    seq = V.sequence(v, f, p, 2, MAX_WEAPONS, "weapon names")
    for i, name in enumerate(seq):
        q = V.join(p, i)
        V.choice(name, f, q, names, "weapon")
        if seq.index(name) != i:
            raise ConfigError(f, q, Said("given twice"))
        if wrows[names.index(name)]["kind"] not in ("melee", "shield"):
            raise ConfigError(f, q, Said("{weapon} is a missile weapon; several attacks join melee weapons",
                                         weapon=shown(name)))
    return list(seq)


def several_of(v: bool | list[str], weapons: list[Weapon]) -> tuple[int, ...]:
    """The weapons (indices) of a checked ``several_attacks`` that strike together: the named ones, or every
    natural weapon for ``true``."""
    if isinstance(v, list):
        names = [w.spec.name for w in weapons]
        return tuple(names.index(n) for n in v)
    return tuple(i for i, w in enumerate(weapons) if w.spec.wclass == "natural") if v else ()


# ----- the whole stat block
# ----------------------------------------------------------------------------------------------
def check_template(t: Any, table: Mapping[str, Mapping[str, Any]], f: str, p: str) -> dict[str, Any]:
    """A stat block's fields, checked (an error names the field and the token); returned as a new dict."""
    t = V.mapping(t, f, p, TEMPLATE_KEYS, ("characteristics", "weapons"))
    chars = V.mapping(t["characteristics"], f, V.join(p, "characteristics"), set(CHARS), CHARS)
    t["characteristics"] = {c: _characteristic(chars[c], f, V.join(p, "characteristics", c), int(c not in NIL_CHARS))
                            for c in CHARS}
    rows = location_rows(t, f, p)
    names = [r.name for r in rows]
    armour_map(t.get("armour", 0), names, f, V.join(p, "armour"))
    _given_location_hp(t, names, f, p)
    skills = V.mapping(t.get("skills", {}), f, V.join(p, "skills"), SKILL_KEYS)
    for k, v in skills.items():
        V.integer(v, f, V.join(p, "skills", k), 0, 200)
    ws = V.sequence(t["weapons"], f, V.join(p, "weapons"), 1, MAX_WEAPONS, "weapons")
    wrows = [weapon_row(w, table, f, V.join(p, "weapons", i)) for i, w in enumerate(ws)]
    wnames = [r["name"] for r in wrows]
    if len(set(wnames)) != len(wnames):
        raise ConfigError(f, V.join(p, "weapons"), Said("two weapons have the same name; rename one (name: ...)"))
    for i, r in enumerate(V.sequence(t.get("ready", []), f, V.join(p, "ready"), what="weapon names")):
        V.choice(r, f, V.join(p, "ready", i), wnames, "weapon")
    for kind in ("spirit", "rune"):
        spells = V.mapping(t.get(kind, {}), f, V.join(p, kind))
        valid = [s for s, row in T.SPELLS.items() if row.kind == kind]
        for s, pts in spells.items():
            V.choice(s, f, V.join(p, kind, s), valid, f"{kind} spell")
            V.integer(pts, f, V.join(p, kind, s), 1, 20)
    for key, high in (("move", 30), ("hp", 200), ("rune_points", 50), ("enc", 200), ("magic_points", 99)):
        if key in t:
            V.integer(t[key], f, V.join(p, key), 1 if key == "hp" else 0, high)
    for key in ("description", "faction", "source"):
        if key in t:
            V.string(t[key], f, V.join(p, key))
    if "kind" in t:
        V.choice(t["kind"], f, V.join(p, "kind"), KINDS, "kind")
    if "player_character" in t:
        V.boolean(t["player_character"], f, V.join(p, "player_character"))
    if "several_attacks" in t:
        t["several_attacks"] = _several(t["several_attacks"], wrows, f, V.join(p, "several_attacks"))
    if "poison" in t:
        t["poison"] = poison.check(t["poison"], wnames, f, V.join(p, "poison"))
    return dict(t)
