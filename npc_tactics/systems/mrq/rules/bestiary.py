"""MRQ weapons and bestiary from YAML (mrq-opposed.md §1, §9, §17.1, A9, A23), validated field by field."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from npc_tactics.configs import load_yaml, system_dir
from npc_tactics.configs import validate as V
from npc_tactics.dice import parse
from npc_tactics.errors import ConfigError
from npc_tactics.systems.mrq.rules.state import Profile, Weapon
from npc_tactics.systems.mrq.rules.tables import (
    HEAD,
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


@lru_cache(maxsize=4)
def load_weapons(path: str = str(DIR / "weapons.yaml")) -> dict[str, Weapon]:
    data = V.mapping(load_yaml(path), path, "", ("weapons",), ("weapons",))
    out: dict[str, Weapon] = {}
    for name, raw in V.mapping(data["weapons"], path, "weapons").items():
        p = f"weapons.{name}"
        w = V.mapping(
            raw,
            path,
            p,
            (
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
            ),
            ("damage", "kind", "reach", "hp"),
        )
        kind = V.choice(w["kind"], path, f"{p}.kind", KINDS, "kind")
        if (kind == "missile") != ("range" in w):
            raise ConfigError(path, f"{p}.range", "missile weapons (and only they) need a range")
        expr = parse(V.dice(w["damage"], path, f"{p}.damage"))
        out[name] = Weapon(
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
    return out


_TEMPLATE_KEYS = (
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
)
_SKILLS = ("acrobatics", "athletics", "resilience", "brute_force", "riding")


def _locations(value: Any, file: str, path: str, body: str) -> tuple[int, ...]:
    names = LOCATION_NAMES[body]
    if isinstance(value, int) and not isinstance(value, bool):
        return (V.integer(value, file, path, 0, 100),) * 7
    m = V.mapping(value, file, path, names, names)
    return tuple(V.integer(m[n], file, f"{path}.{n}", 0, 100) for n in names)


def build_profile(
    name: str,
    raw: Any,
    file: str,
    path: str,
    weapons: Mapping[str, Weapon],
    overrides: Mapping[str, Any] | None = None,
) -> Profile:
    """Resolve a bestiary template (plus scenario overrides: skill, armour, condition) into a frozen
    Profile."""
    t = V.mapping(raw, file, path, _TEMPLATE_KEYS, ("style", "skill", "weapon", "characteristics"))
    style = V.choice(t["style"], file, f"{path}.style", STYLES, "style")
    body = V.choice(t.get("body", "humanoid"), file, f"{path}.body", ("humanoid", "quadruped"), "body")
    ch = V.mapping(t["characteristics"], file, f"{path}.characteristics", CHARS + ("cha",), CHARS)
    c = {k: V.integer(ch[k], file, f"{path}.characteristics.{k}", 1, 200) for k in CHARS}
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
        raise ConfigError(file, f"{path}.offhand", f"style {style} needs an offhand item")
    if style == "weapon_and_shield" and off is not None and off.kind != "shield":
        raise ConfigError(file, f"{path}.offhand", f"weapon_and_shield needs a shield, got {off.name!r}")
    unarmed = weapon("unarmed", "fists")
    assert unarmed is not None  # noqa: S101
    for key, item in (("weapon", main), ("offhand", off), ("unarmed", unarmed)):
        if item is not None and item.kind == "missile":
            raise ConfigError(file, f"{path}.{key}", f"{item.name!r} is a missile weapon: use the missile field")
    missile = weapon("missile", None)
    if missile is not None and missile.kind != "missile":
        raise ConfigError(file, f"{path}.missile", f"{missile.name!r} is not a missile weapon")
    ammo = V.integer(t.get("ammo", 0), file, f"{path}.ammo", 0, 100)
    if (missile is None) != (ammo == 0) or (missile is None) != ("missile_skill" not in t):
        raise ConfigError(file, f"{path}.missile", "missile, missile_skill and ammo (> 0) go together")
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
    wl_names = LOCATION_NAMES[body]
    wloc = t.get("weapon_location", wl_names[HEAD] if body == "quadruped" else wl_names[RIGHT_ARM])
    intelligent = V.boolean(t.get("intelligent", True), file, f"{path}.intelligent")
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
        dm=damage_modifier(c["str"] + c["siz"]),
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
        cas=combat_actions(c["dex"]),
        intelligent=intelligent,
        formidable=V.boolean(t.get("formidable", False), file, f"{path}.formidable"),
        weapon_loc=wl_names.index(V.choice(wloc, file, f"{path}.weapon_location", wl_names, "location")),
        missile=missile,
        missile_skill=V.integer(t.get("missile_skill", 0), file, f"{path}.missile_skill", 0, 300),
        ammo=ammo,
        move=move,
        skill_cap=skill_of["athletics"] if condition != "none" else 999,
        mount_siz=mount["siz"] if mount else 0,
        natural=_locations(t.get("natural_armour", 0), file, f"{path}.natural_armour", body) or (0,) * 7,
        mount_template=V.string(mount.get("template", ""), file, f"{path}.mount.template") if mount else "",
    )


@lru_cache(maxsize=4)
def load_bestiary(path: str = str(DIR / "bestiary.yaml")) -> dict[str, Any]:
    """Raw templates by name (validated once, resolved per use so scenario overrides apply)."""
    data = V.mapping(load_yaml(path), path, "", ("templates",), ("templates",))
    templates = V.mapping(data["templates"], path, "templates")
    weapons = load_weapons()
    for name, raw in templates.items():
        prof = build_profile(name, raw, path, f"templates.{name}", weapons)
        if prof.mount_template:  # the mount is a combatant of its own (§13): a template without a mount
            V.choice(prof.mount_template, path, f"templates.{name}.mount.template", sorted(templates), "template")
            if "mount" in templates[prof.mount_template]:
                raise ConfigError(path, f"templates.{name}.mount.template", "a mount cannot itself be mounted")
    return templates
