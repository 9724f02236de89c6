"""MRQ weapons and bestiary from YAML (mrq-opposed.md §1, §9, §17.1, A9, A23), validated field by field."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Any

from npc_tactics.configs import load_yaml, system_dir
from npc_tactics.configs import validate as V
from npc_tactics.dice import parse
from npc_tactics.errors import ConfigError
from npc_tactics.i18n import Said
from npc_tactics.systems.mrq.rules.natural import natural_kind, natural_location
from npc_tactics.systems.mrq.rules.state import Profile, Weapon
from npc_tactics.systems.mrq.rules.tables import (
    HEAD,
    HIT_LOCATION_D20,
    HIT_TABLES,
    LOCATION_NAMES,
    MOVE_BY_BODY,
    REACH_NAMES,
    RIGHT_ARM,
    combat_actions,
    damage_modifier,
    location_hp,
)

DIR = system_dir("mrq")
STYLES = ("weapon_and_shield", "two_handed", "two_weapons", "one_handed", "unarmed", "natural")
KINDS = ("one_handed", "two_handed", "shield", "natural", "unarmed", "missile")
CHARS = ("str", "con", "siz", "int", "pow", "dex")
#: unusual conditions (§16): weapon skills cannot exceed Athletics while swimming or climbing
CONDITIONS = ("none", "swimming", "climbing")


WEAPON_KEYS = (
    "damage",
    "kind",
    "reach",
    "hp",
    "ap",
    "thrusting",
    "entangling",
    "disarm_bonus",
    "set_vs_charge",
    "range",
    "thrown",
    "size",
)
#: MRQ1 weapon sizes, recorded from a stat block; the opposed-test variant plays reach, not size
SIZES = ("small", "medium", "large", "huge", "enormous")


def read_weapon(name: str, raw: Any, path: str, p: str) -> Weapon:
    """One weapon of weapons.yaml or of a stat block's own ``weapons:`` (same fields)."""
    w = V.mapping(raw, path, p, WEAPON_KEYS, ("damage", "kind", "reach", "hp"))
    kind = V.choice(w["kind"], path, f"{p}.kind", KINDS, "kind")
    if (kind == "missile") != ("range" in w):
        raise ConfigError(path, f"{p}.range", Said("missile weapons (and only they) need a range"))
    if "size" in w:
        V.choice(w["size"], path, f"{p}.size", SIZES, "size")
    expr = parse(V.dice(w["damage"], path, f"{p}.damage"))
    return Weapon(
        name=name,
        damage=expr.text,
        dice=tuple((n, s) for n, s, _ in expr.dice),
        bonus=expr.bonus,
        kind=kind,
        reach=REACH_NAMES.index(V.choice(w["reach"], path, f"{p}.reach", REACH_NAMES, "reach")),
        hp=V.integer(w["hp"], path, f"{p}.hp", 0, 10_000),
        ap=V.integer(w.get("ap", 0), path, f"{p}.ap", 0, 10_000),
        **{
            k: V.boolean(w.get(k, False), path, f"{p}.{k}")
            for k in ("thrusting", "entangling", "disarm_bonus", "set_vs_charge", "thrown")
        },
        range=V.integer(w.get("range", 0), path, f"{p}.range", 0, 1000),
    )


@lru_cache(maxsize=4)
def load_weapons(path: str = str(DIR / "weapons.yaml")) -> dict[str, Weapon]:
    data = V.mapping(load_yaml(path), path, "", ("weapons",), ("weapons",))
    return {
        name: read_weapon(name, raw, path, f"weapons.{name}")
        for name, raw in V.mapping(data["weapons"], path, "weapons").items()
    }


TEMPLATE_KEYS = (
    "description",
    "style",
    "skill",
    "weapon",
    "offhand",
    "unarmed",
    "unarmed_skill",
    "characteristics",
    "skills",
    "armour",
    "natural_armour",
    "location_hp",
    "intelligent",
    "formidable",
    "body",
    "mount",
    "weapon_location",
    "missile",
    "missile_skill",
    "ammo",
    "move",
    "weapons",
    "combat_actions",
    "damage_modifier",
    "traits",
    "kind",
    "faction",
    "player_character",
    "other_weapons",
    "hit_locations",
    "reactions",
)
#: tags of a template (encounter builder, listings): what it is, whose side it takes, whether a player plays it
CREATURE_KINDS = ("human", "humanoid", "beast", "monster", "undead", "mount")
#: creature traits that change a fight (§9: Formidable Natural Weapons deflect; unintelligent: no DP)
TRAITS = ("formidable_natural_weapons", "unintelligent")
BODIES = ("humanoid", "quadruped")
#: rolls one characteristic's dice: (expression, characteristic) -> total; None: the dice's average
Roll = Callable[[str, str], int]
_SKILLS = ("acrobatics", "athletics", "resilience", "brute_force", "riding")


def _locations(value: Any, file: str, path: str, body: str) -> tuple[int, ...]:
    names = LOCATION_NAMES[body]
    if isinstance(value, int) and not isinstance(value, bool):
        return (V.integer(value, file, path, 0, 100),) * 7
    m = V.mapping(value, file, path, names, names)
    return tuple(V.integer(m[n], file, f"{path}.{n}", 0, 100) for n in names)


def characteristic(value: Any, file: str, path: str, key: str, roll: Roll | None = None) -> int:
    """A characteristic: a number, or dice (``3D6+6``) rolled by ``roll`` or, without one, their average
    rounded half up (what a stat block's "average" column prints)."""
    if isinstance(value, str):
        expr = parse(V.dice(value.lower().replace(" ", ""), file, path))
        total = roll(expr.text, key) if roll is not None else int(expr.mean + 0.5)
        return V.integer(total, file, path, 1, 200)
    return V.integer(value, file, path, 1, 200)


def dice_characteristics(raw: Mapping[str, Any]) -> dict[str, str]:
    """The characteristics a template gives as dice (rolled per fight), ``{key: expression}``."""
    ch = raw.get("characteristics")
    return {k: v for k, v in ch.items() if isinstance(v, str)} if isinstance(ch, Mapping) else {}


def _damage_modifier(value: Any, file: str, path: str) -> str:
    """A printed damage modifier (``+1D4``, ``-1D2``, ``+0``) as the engine's expression ("" for +0)."""
    text = str(value).strip().lower().replace(" ", "")
    if text in ("0", "+0", "-0", "", "none"):
        return ""
    sign = "-" if text.startswith("-") else ""
    expr = parse(V.dice(text.lstrip("+-"), file, path))
    return sign + expr.text


def hit_locations(value: Any, file: str, path: str, body: str) -> tuple[int, ...]:
    """A template's d20 hit-location table: a name of tables.HIT_TABLES (``quadruped``: the MRQ-family table) or
    a mapping location → ``"lo-hi"`` (or one face) covering 1–20 once; the humanoid bands when not given."""
    if value is None:
        return HIT_LOCATION_D20
    if isinstance(value, str):
        return HIT_TABLES[V.choice(value, file, path, sorted(HIT_TABLES), "hit-location table")]
    names = LOCATION_NAMES[body]
    m = V.mapping(value, file, path, names, names)
    table = [-1] * 21
    for slot, name in enumerate(names):
        text = str(m[name]).replace(" ", "")
        lo, _, hi = text.partition("-")
        ascii_digits = (lo + hi).isascii() and lo.isdigit() and (hi or lo).isdigit()  # int('²') fails, int('٣') is 3
        if not ascii_digits or not 1 <= int(lo) <= int(hi or lo) <= 20:
            raise ConfigError(file, f"{path}.{name}", Said("expected d20 faces such as 1-3 or 19, got {got}",
                                                           got=repr(m[name])))
        for face in range(int(lo), int(hi or lo) + 1):
            if table[face] >= 0:
                raise ConfigError(file, f"{path}.{name}", Said("face {face} is already {location}", face=face,
                                                               location=names[table[face]]))
            table[face] = slot
    if -1 in table[1:]:
        raise ConfigError(file, path, Said("face {face} has no location: the faces must cover 1-20",
                                           face=table.index(-1, 1)))
    return (0, *table[1:])


def own_weapons(t: Mapping[str, Any], file: str, path: str, weapons: Mapping[str, Weapon]) -> dict[str, Weapon]:
    """The shipped weapons plus a stat block's own ``weapons:`` (which may redefine a shipped name for itself)."""
    if "weapons" not in t:
        return dict(weapons)
    own = V.mapping(t["weapons"], file, f"{path}.weapons")
    return {**weapons, **{str(n): read_weapon(str(n), w, file, f"{path}.weapons.{n}") for n, w in own.items()}}


def build_profile(
    name: str,
    raw: Any,
    file: str,
    path: str,
    weapons: Mapping[str, Weapon],
    overrides: Mapping[str, Any] | None = None,
    roll: Roll | None = None,
) -> Profile:
    """Resolve a bestiary template (plus scenario overrides: skill, armour, condition) into a frozen
    Profile. Characteristics given as dice are rolled with ``roll`` (their average without it)."""
    t = V.mapping(raw, file, path, TEMPLATE_KEYS, ("style", "skill", "weapon", "characteristics"))
    weapons = own_weapons(t, file, path, weapons)
    style = V.choice(t["style"], file, f"{path}.style", STYLES, "style")
    body = V.choice(t.get("body", "humanoid"), file, f"{path}.body", BODIES, "body")
    ch = V.mapping(t["characteristics"], file, f"{path}.characteristics", CHARS + ("cha",), CHARS)
    c = {k: characteristic(ch[k], file, f"{path}.characteristics.{k}", k, roll) for k in CHARS}
    traits = V.sequence(t.get("traits", []), file, f"{path}.traits", 0, len(TRAITS), "traits")
    for j, tr in enumerate(traits):
        V.choice(tr, file, V.join(f"{path}.traits", j), TRAITS, "trait")
    tags(t, file, path)
    others: list[tuple[Weapon, int, int]] = []
    for j, o in enumerate(V.sequence(t.get("other_weapons", []), file, f"{path}.other_weapons", 0, 8, "weapons")):
        op = V.join(f"{path}.other_weapons", j)
        ow = V.mapping(o, file, op, ("name", "skill", "damage"), ("name", "skill", "damage"))
        oskill = V.integer(ow["skill"], file, f"{op}.skill", 0, 300)
        odamage = V.dice(str(ow["damage"]), file, f"{op}.damage")
        other = other_attack(str(ow["name"]), odamage, weapons, body)
        if other is not None:
            others.append((other[0], oskill, other[1]))
    sk = V.mapping(t.get("skills", {}), file, f"{path}.skills", _SKILLS)
    skill_of = {
        "acrobatics": c["dex"],
        "athletics": c["str"] + c["dex"],
        "resilience": c["con"] + c["pow"],
        "brute_force": c["str"] + c["siz"],
        "riding": c["dex"] + c["pow"],
    }
    for k, v in sk.items():
        skill_of[k] = V.integer(v, file, f"{path}.skills.{k}", 0, 300)

    def weapon(key: str, default: str | None) -> Weapon | None:
        wname = t.get(key, default)
        if wname is None:
            return None
        return weapons[V.choice(wname, file, f"{path}.{key}", sorted(weapons), "weapon")]

    main = weapon("weapon", None)
    assert main is not None  # noqa: S101 - required key checked above
    off = weapon("offhand", None)
    if style in ("weapon_and_shield", "two_weapons") and off is None:
        raise ConfigError(file, f"{path}.offhand", Said("style {style} needs an offhand item", style=style))
    if style == "weapon_and_shield" and off is not None and off.kind != "shield":
        raise ConfigError(file, f"{path}.offhand", Said("weapon_and_shield needs a shield, got {got}",
                                                        got=repr(off.name)))
    unarmed = weapon("unarmed", "fists")
    assert unarmed is not None  # noqa: S101
    for key, item in (("weapon", main), ("offhand", off), ("unarmed", unarmed)):
        if item is not None and item.kind == "missile":
            raise ConfigError(file, f"{path}.{key}", Said("{weapon} is a missile weapon: use the missile field",
                                                          weapon=repr(item.name)))
    missile = weapon("missile", None)
    if missile is not None and missile.kind != "missile":
        raise ConfigError(file, f"{path}.missile", Said("{weapon} is not a missile weapon",
                                                        weapon=repr(missile.name)))
    ammo = V.integer(t.get("ammo", 0), file, f"{path}.ammo", 0, 100)
    if (missile is None) != (ammo == 0) or (missile is None) != ("missile_skill" not in t):
        raise ConfigError(file, f"{path}.missile", Said("missile, missile_skill and ammo (> 0) go together"))
    over = dict(overrides or {})
    skill = V.integer(over.get("skill", t["skill"]), file, f"{path}.skill", 0, 300)
    armour_raw = over.get("armour", t.get("armour", 0))
    armour = _locations(armour_raw, file, f"{path}.armour", body)
    loc_max = (
        _locations(t["location_hp"], file, f"{path}.location_hp", body)
        if "location_hp" in t
        else location_hp(c["siz"] + c["con"], body)
    )
    mkeys = ("str", "siz", "template")
    mount = V.mapping(t["mount"], file, f"{path}.mount", mkeys, ("str", "siz")) if "mount" in t else None
    cas = V.integer(t.get("combat_actions", combat_actions(c["dex"])), file, f"{path}.combat_actions", 1, 6)
    wl_names = LOCATION_NAMES[body]
    wloc = t.get("weapon_location", wl_names[HEAD] if body == "quadruped" else wl_names[RIGHT_ARM])
    intelligent = V.boolean(t.get("intelligent", "unintelligent" not in traits), file, f"{path}.intelligent")
    move = V.integer(t.get("move", MOVE_BY_BODY["mounted" if mount else body]), file, f"{path}.move", 1, 50)
    condition = V.choice(over.get("condition", "none"), file, f"{path}.condition", CONDITIONS, "condition")
    return Profile(
        template=name,
        style=style,
        skill=skill,
        weapon=main,
        offhand=off,
        unarmed=unarmed,
        unarmed_skill=V.integer(t.get("unarmed_skill", c["str"] + c["dex"]), file, f"{path}.unarmed_skill", 0, 300)
        if style not in ("unarmed", "natural")
        else skill,
        acrobatics=skill_of["athletics"] if body == "quadruped" and "acrobatics" not in sk else skill_of["acrobatics"],
        athletics=skill_of["athletics"],
        resilience=skill_of["resilience"],
        brute_force=skill_of["brute_force"],
        riding=skill_of["riding"],
        dex=c["dex"],
        int_=c["int"],
        siz=c["siz"],
        dm=_damage_modifier(t["damage_modifier"], file, f"{path}.damage_modifier")
        if "damage_modifier" in t
        else damage_modifier(c["str"] + c["siz"]),
        mount_dm=damage_modifier(
            V.integer(mount["str"], file, f"{path}.mount.str", 1, 200)
            + V.integer(mount["siz"], file, f"{path}.mount.siz", 1, 200)
        )
        if mount
        else "",
        mounted=mount is not None,
        body=body,
        loc_max=loc_max,
        armour=armour or (0,) * 7,
        cas=cas,
        intelligent=intelligent,
        formidable=V.boolean(
            t.get("formidable", "formidable_natural_weapons" in traits), file, f"{path}.formidable"
        ),
        weapon_loc=wl_names.index(V.choice(wloc, file, f"{path}.weapon_location", wl_names, "location")),
        missile=missile,
        missile_skill=V.integer(t.get("missile_skill", 0), file, f"{path}.missile_skill", 0, 300),
        ammo=ammo,
        move=move,
        skill_cap=skill_of["athletics"] if condition != "none" else 999,
        mount_siz=mount["siz"] if mount else 0,
        natural=_locations(t.get("natural_armour", 0), file, f"{path}.natural_armour", body) or (0,) * 7,
        mount_template=V.string(mount.get("template", ""), file, f"{path}.mount.template") if mount else "",
        hit_table=hit_locations(t.get("hit_locations"), file, f"{path}.hit_locations", body),
        reactions=_reactions(t, cas, file, path),
        other_attacks=tuple(w for w, _, _ in others),
        other_skills=tuple(k for _, k, _ in others),
        other_locs=tuple(loc for _, _, loc in others),
    )


def other_attack(name: str, damage: str, weapons: Mapping[str, Weapon], body: str) -> tuple[Weapon, int] | None:
    """A further natural weapon of ``other_weapons`` as (weapon, location it strikes from), or None when it is
    not a natural weapon (a spare manufactured weapon stays listed, not played). Several attacks a round (§1,
    A18): the creature strikes with it on one of its attack Combat Actions, at its own skill and damage."""
    known = weapons.get(name)
    found = natural_kind(name)
    if known is not None and known.kind != "natural":
        return None
    if known is None and found is None:
        return None
    expr = parse(damage)
    reach = known.reach if known is not None else REACH_NAMES.index(found[0] if found is not None else "short")
    names = LOCATION_NAMES[body]
    where = natural_location(name, body)
    loc = names.index(where) if where is not None and where in names else (HEAD if body == "quadruped" else RIGHT_ARM)
    weapon = Weapon(
        name=name,
        damage=expr.text,
        dice=tuple((n, s) for n, s, _ in expr.dice),
        bonus=expr.bonus,
        kind="natural",
        reach=reach,
        hp=0,
    )
    return weapon, loc


def _reactions(t: Mapping[str, Any], cas: int, file: str, path: str) -> int:
    """A stat block's own Reactions a round, or -1: one per Combat Action (A18), also when it says as many."""
    if "reactions" not in t:
        return -1
    n = V.integer(t["reactions"], file, f"{path}.reactions", 0, 10)
    return -1 if n == cas else n


def tags(t: Mapping[str, Any], file: str, path: str) -> dict[str, Any]:
    """``kind``, ``faction`` and ``player_character`` of a template, checked (defaults: monster, "", False)."""
    return {
        "kind": V.choice(t.get("kind", "monster"), file, f"{path}.kind", CREATURE_KINDS, "kind"),
        "faction": V.string(t.get("faction", ""), file, f"{path}.faction"),
        "player_character": V.boolean(t.get("player_character", False), file, f"{path}.player_character"),
    }


#: the shipped bestiary files: the first templates, then the creatures of issue 27 (docs/mrq.md "Bestiary")
SHIPPED_FILES = ("bestiary.yaml", "creatures.yaml")


@lru_cache(maxsize=4)
def shipped_templates(*paths: str) -> dict[str, tuple[str, dict[str, Any]]]:
    """``{name: (file, raw fields)}`` of the shipped bestiary files (or of ``paths``), each validated once."""
    out: dict[str, tuple[str, dict[str, Any]]] = {}
    for path in paths or tuple(str(DIR / f) for f in SHIPPED_FILES):
        data = V.mapping(load_yaml(path), path, "", ("templates",), ("templates",))
        for name, raw in V.mapping(data["templates"], path, "templates").items():
            if name in out:
                raise ConfigError(path, f"templates.{name}", Said("already defined in {file}", file=out[name][0]))
            out[str(name)] = (path, dict(raw))
    check_templates(out)
    return out


def check_templates(
    found: Mapping[str, tuple[str, Mapping[str, Any]]],
    known: Mapping[str, tuple[str, Mapping[str, Any]]] | None = None,
    prefix: str = "templates.",
) -> None:
    """Build every template of ``found`` once (errors name its file) and check the mounts they name among
    ``known`` (default: ``found``; §13)."""
    weapons = load_weapons()
    known = found if known is None else known
    for name, (path, raw) in found.items():
        prof = build_profile(name, raw, path, f"{prefix}{name}", weapons)
        if prof.mount_template:  # the mount is a combatant of its own (§13): a template without a mount
            V.choice(prof.mount_template, path, f"{prefix}{name}.mount.template", sorted(known), "template")
            if "mount" in known[prof.mount_template][1]:
                raise ConfigError(path, f"{prefix}{name}.mount.template", Said("a mount cannot itself be mounted"))
