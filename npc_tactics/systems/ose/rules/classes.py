"""The seven OSE character classes from ``content/classes.yaml``: level rows, caps, equipment and hit points.

The YAML copies the published class tables level by level (sources in its header and in docs/ose.md
"Character classes"); this module only reads and checks them. A character template (``templates.py``)
asks here for its level row (THAC0, saves, spell slots), whether its armour and weapons are allowed and
its hit points (level x hit die + CON per die; flat hp past 9th); :mod:`.class_spells` fills and checks
the slots. It imports no other rules module, so :func:`.tables.save_row` can read the class rows.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from npc_tactics.configs import load_yaml, system_dir
from npc_tactics.configs import validate as V
from npc_tactics.errors import ConfigError

CLASS_FILE = system_dir("ose") / "classes.yaml"
CLASS_KEYS = (
    "hit_die",
    "max_level",
    "save_code",
    "armour",
    "shield",
    "weapons",
    "forbidden_weapons",
    "spell_list",
    "missile_bonus",
    "init_bonus",
    "backstab",
    "not_modelled",
    "kit",
    "levels",
)
LEVEL_KEYS = ("hd", "thac0", "saves", "spells")
KIT_KEYS = ("armour", "shield", "weapon", "missile", "ammo")
SPELL_LISTS = ("magic_user", "cleric", "none")
ALIASES = {"magic-user": "magic_user"}  #: the books' spelling of a class name
MAX_LEVEL = 14  #: the highest level of any human class (OSE Classic Fantasy)
FLAT_HP_FROM = 9  #: past 9th level a class gains flat hp, without the CON modifier
_NAME = re.compile(r"([a-z_-]+)_([0-9]{1,3})")
_HD = re.compile(r"([0-9]+)d([0-9]+)(?:\+([0-9]+))?")


@dataclass(frozen=True, slots=True)
class LevelRow:
    """One line of a class's level progression table."""

    level: int
    dice: int  #: hit dice rolled (at most 9)
    flat_hp: int  #: flat hit points past 9th level (no CON modifier on them)
    thac0: int
    saves: tuple[int, int, int, int, int]  #: death, wands, paralysis, breath, spells (tables.SAVE_CATEGORIES)
    slots: tuple[int, ...]  #: memorisable spells per spell level (1st first); () for non-casters


@dataclass(frozen=True, slots=True)
class CharacterClass:
    """A class's fixed data: hit die, level cap, equipment allowed, spell list, special bonuses, levels."""

    name: str
    hit_die: int
    max_level: int
    save_code: str  #: the letter of ``save_as`` codes such as ``"D3"`` (saves as a dwarf 3)
    armour: tuple[str, ...] | None  #: armour allowed besides none; None = any
    shield: bool
    weapons: tuple[str, ...] | None  #: weapons allowed; None = any
    forbidden_weapons: tuple[str, ...]
    spell_list: str  #: "magic_user", "cleric" or "none"
    missile_bonus: int  #: added to missile attack rolls (halfling +1)
    init_bonus: int  #: added to individual initiative (halfling +1)
    backstab: tuple[int, int] | None  #: (to-hit bonus, damage multiplier) against an unaware enemy (combat.py)
    not_modelled: tuple[str, ...]  #: published abilities the engine cannot apply yet
    kit: Mapping[str, Any]  #: equipment of a template asked for by name only
    levels: tuple[LevelRow, ...]  #: index = level - 1


def a(name: str) -> str:
    """``"a fighter"``, ``"an elf"``: the class name with its article, for error messages."""
    return f"{'an' if name[:1] in 'aeiou' else 'a'} {name}"


def _level_row(cls: str, die: int, n_slots: int, level: int, raw: Any, file: str, path: str) -> LevelRow:
    raw = V.mapping(raw, file, path, LEVEL_KEYS, required=("hd", "thac0", "saves"))
    hd_text = V.string(raw["hd"], file, V.join(path, "hd"))
    m = _HD.fullmatch(hd_text)
    dice = min(level, FLAT_HP_FROM)
    if m is None or int(m[1]) != dice or int(m[2]) != die or (m[3] is None) != (level <= FLAT_HP_FROM):
        flat = "" if level <= FLAT_HP_FROM else "+<flat hp>"
        raise ConfigError(file, V.join(path, "hd"), f"expected {dice}d{die}{flat} for {a(cls)} of level {level}, "
                                                    f"got {hd_text!r}")
    sp = V.join(path, "saves")
    saves = tuple(V.integer(s, file, V.join(sp, i), 2, 20)
                  for i, s in enumerate(V.sequence(raw["saves"], file, sp, 5, 5, "saves D W P B S")))
    slots: tuple[int, ...] = ()
    if n_slots:
        lp = V.join(path, "spells")
        if "spells" not in raw:
            raise ConfigError(file, lp, "missing required key (a caster lists its spells per spell level)")
        listed = V.sequence(raw["spells"], file, lp, n_slots, n_slots, "spell levels")
        slots = tuple(V.integer(n, file, V.join(lp, i), 0, 9) for i, n in enumerate(listed))
    elif "spells" in raw:
        raise ConfigError(file, V.join(path, "spells"), f"{a(cls)} casts no spells (spell_list: none)")
    return LevelRow(level, dice, int(m[3] or 0), V.integer(raw["thac0"], file, V.join(path, "thac0"), 2, 20),
                    saves, slots)  # type: ignore[arg-type]  # exactly five saves (checked above)


def _names(raw: Any, file: str, path: str) -> tuple[str, ...] | None:
    if raw == "any":
        return None
    return tuple(V.string(x, file, V.join(path, i)) for i, x in enumerate(V.sequence(raw, file, path)))


def _class(name: str, raw: Any, file: str) -> CharacterClass:
    raw = V.mapping(raw, file, name, CLASS_KEYS, required=("hit_die", "max_level", "save_code", "levels"))
    die = V.integer(raw["hit_die"], file, V.join(name, "hit_die"), 4, 12)
    cap = V.integer(raw["max_level"], file, V.join(name, "max_level"), 1, MAX_LEVEL)
    spell_list = V.choice(raw.get("spell_list", "none"), file, V.join(name, "spell_list"), SPELL_LISTS, "spell list")
    lp = V.join(name, "levels")
    levels: dict[Any, Any] = V.mapping(raw["levels"], file, lp)
    if sorted(levels) != list(range(1, cap + 1)):
        raise ConfigError(file, lp, f"expected one row for each level 1..{cap}, got {sorted(levels)}")
    n_slots = 0
    if spell_list != "none":
        first = V.mapping(levels[1], file, V.join(lp, "1"))
        n_slots = len(V.sequence(first.get("spells"), file, V.join(lp, "1", "spells"), 1, 9, "spell levels"))
    rows = tuple(_level_row(name, die, n_slots, lv, levels[lv], file, V.join(lp, str(lv))) for lv in range(1, cap + 1))
    stab = raw.get("backstab")
    backstab = None
    if stab is not None:
        sp = V.join(name, "backstab")
        stab = V.mapping(stab, file, sp, ("to_hit", "damage_mult"), required=("to_hit", "damage_mult"))
        backstab = (V.integer(stab["to_hit"], file, V.join(sp, "to_hit"), 0, 10),
                    V.integer(stab["damage_mult"], file, V.join(sp, "damage_mult"), 1, 5))
    notes = raw.get("not_modelled", [])
    np_ = V.join(name, "not_modelled")
    return CharacterClass(
        name=name,
        hit_die=die,
        max_level=cap,
        save_code=V.string(raw["save_code"], file, V.join(name, "save_code"), non_empty=True),
        armour=_names(raw.get("armour", "any"), file, V.join(name, "armour")),
        shield=V.boolean(raw.get("shield", True), file, V.join(name, "shield")),
        weapons=_names(raw.get("weapons", "any"), file, V.join(name, "weapons")),
        forbidden_weapons=_names(raw.get("forbidden_weapons", []), file, V.join(name, "forbidden_weapons")) or (),
        spell_list=spell_list,
        missile_bonus=V.integer(raw.get("missile_bonus", 0), file, V.join(name, "missile_bonus"), 0, 3),
        init_bonus=V.integer(raw.get("init_bonus", 0), file, V.join(name, "init_bonus"), 0, 3),
        backstab=backstab,
        not_modelled=tuple(V.string(x, file, V.join(np_, i)) for i, x in enumerate(V.sequence(notes, file, np_))),
        kit=V.mapping(raw.get("kit", {}), file, V.join(name, "kit"), KIT_KEYS),
        levels=rows,
    )


@lru_cache(maxsize=1)
def classes() -> dict[str, CharacterClass]:
    """Every class of ``classes.yaml`` by name, validated (a malformed row is a one-line ConfigError)."""
    file = str(CLASS_FILE)
    data = V.mapping(load_yaml(file), file, "")
    out = {name: _class(name, raw, file) for name, raw in data.items()}
    codes = [c.save_code for c in out.values()]
    if len(set(codes)) != len(codes) or "N" in codes:
        raise ConfigError(file, "save_code", f"save codes must be distinct letters other than N, got {codes}")
    return out


def character_class(name: Any, file: str, path: str) -> CharacterClass:
    """The class called ``name`` (``magic-user`` is read as ``magic_user``); unknown: an error listing them."""
    table = classes()
    return table[V.choice(ALIASES.get(name, name) if isinstance(name, str) else name, file, path, table, "class")]


def level_row(cc: CharacterClass, level: Any, file: str, path: str) -> LevelRow:
    """The row of ``level``; above the class's cap an error naming the cap (an elf stops at 10)."""
    lv = V.integer(level, file, path, 1)
    if lv > cc.max_level:
        raise ConfigError(file, path, f"{a(cc.name)} cannot be level {lv}: the {cc.name}'s maximum level is "
                                      f"{cc.max_level} (OSE Classic Fantasy)")
    return cc.levels[lv - 1]


def hit_points(cc: CharacterClass, row: LevelRow, con_mod: int) -> str:
    """The hp dice of ``row``: the rolled dice + CON modifier per die, + the flat hp past 9th (no CON there).

    A negative CON modifier is subtracted per die from the total; OSE's floor of 1 hp per die is not
    expressible as one dice expression (docs/ose.md "Character classes"): give ``hp`` to apply it."""
    bonus = row.dice * con_mod + row.flat_hp
    return f"{row.dice}d{cc.hit_die}" + (f"{bonus:+d}" if bonus else "")


def check_equipment(
    cc: CharacterClass, armour: str, shield: bool, weapons: Mapping[str, str | None], file: str, path: str
) -> None:
    """Refuse armour, a shield or a weapon the class may not use (``weapons``: field -> weapon name)."""
    if armour != "none" and cc.armour is not None and armour not in cc.armour:
        allowed = V.listing(("none", *cc.armour))
        raise ConfigError(file, V.join(path, "armour"), f"{a(cc.name)} cannot wear {armour!r} (allowed: {allowed})")
    if shield and not cc.shield:
        raise ConfigError(file, V.join(path, "shield"), f"{a(cc.name)} cannot carry a shield")
    for field, weapon in weapons.items():
        if weapon is None:
            continue
        if cc.weapons is not None and weapon not in cc.weapons:
            raise ConfigError(file, V.join(path, field),
                              f"{a(cc.name)} cannot use {weapon!r} (allowed: {V.listing(cc.weapons)})")
        if weapon in cc.forbidden_weapons:
            raise ConfigError(file, V.join(path, field), f"{a(cc.name)} cannot use {weapon!r} "
                                                         f"(forbidden: {V.listing(cc.forbidden_weapons)})")


def class_template_names() -> list[str]:
    """Every ``<class>_<level>`` name :func:`template_raw` resolves (``fighter_1`` .. ``halfling_8``: 86), for
    listings such as ``npc-tactics bestiary``; ``characters.yaml`` entries of the same name take precedence."""
    return [f"{cc.name}_{lv}" for cc in classes().values() for lv in range(1, cc.max_level + 1)]


def template_raw(name: str, file: str, path: str) -> dict[str, Any] | None:
    """``elf_9`` -> the raw template ``{class: elf, level: 9, **kit}``; None if ``name`` is no class name.

    A class name with a level above its cap (``elf_11``) is an error naming the cap."""
    m = _NAME.fullmatch(name)
    if m is None or ALIASES.get(m[1], m[1]) not in classes():
        return None
    cc = classes()[ALIASES.get(m[1], m[1])]
    level_row(cc, int(m[2]), file, path)
    return {"class": cc.name, "level": int(m[2]), **cc.kit}


def save_row(save_as: str) -> tuple[int, int, int, int, int]:
    """Saving throws of ``save_as``, a class letter + level (``"F2"``, ``"C4"``, ``"D1"`` = dwarf 1); the
    normal human ``"NH"`` is :func:`.tables.save_row`'s. Above the class table its last row; below 1, its first."""
    by_code = {c.save_code: c for c in classes().values()}
    cc = by_code.get(save_as[:1])
    if cc is None or not (save_as[1:].isascii() and save_as[1:].isdigit()):
        raise ValueError(f"bad save_as {save_as!r}: expected NH or a class letter "
                         f"{'/'.join(by_code)} and a level")
    level = min(max(1, int(save_as[1:])), cc.max_level)
    return cc.levels[level - 1].saves
