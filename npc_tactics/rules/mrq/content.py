"""MRQ content: weapons, bestiary, scenarios and GM situations from YAML, validated field by field.

Every error is a one-line :class:`~npc_tactics.errors.ConfigError` naming the file and the field path; unknown
keys are errors.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from npc_tactics.configs import load_yaml, named_files, resolve_named, system_dir
from npc_tactics.dice import Roller, parse
from npc_tactics.errors import ConfigError
from npc_tactics.rules.base import Decision, DecisionKind, Status
from npc_tactics.rules.mrq.state import BROKEN, DROPPED, READY, MRQState, Profile, Weapon
from npc_tactics.rules.mrq.tables import (
    DISTANCE_NAMES,
    HEAD,
    LOCATIONS,
    QUADRUPED_LOCATIONS,
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


@dataclass(frozen=True, slots=True)
class Scenario:
    """A validated scenario: what ``MRQEngine.new_combat`` takes."""

    name: str
    description: str
    max_rounds: int
    options: Mapping[str, Any]
    distance: int
    combatants: tuple[tuple[str, int, Profile], ...]  #: (name, side, profile), side 0 first
    side_names: tuple[str, str]


# ----- small validators ------------------------------------------------------------------------------
def _map(
    value: Any, file: str, path: str, allowed: tuple[str, ...], required: tuple[str, ...] = ()
) -> dict:
    if not isinstance(value, Mapping):
        raise ConfigError(
            file, path or "(top level)", f"expected a mapping, got {type(value).__name__}"
        )
    for key in value:
        if key not in allowed:
            raise ConfigError(
                file,
                f"{path}.{key}" if path else str(key),
                f"unknown key {key!r}; valid: {', '.join(allowed)}",
            )
    for key in required:
        if key not in value:
            raise ConfigError(file, f"{path}.{key}" if path else key, "required field is missing")
    return dict(value)


def _int(value: Any, file: str, path: str, lo: int = 0, hi: int = 10_000) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConfigError(file, path, f"expected an integer, got {value!r}")
    if not lo <= value <= hi:
        raise ConfigError(file, path, f"expected {lo}..{hi}, got {value}")
    return value


def _bool(value: Any, file: str, path: str) -> bool:
    if not isinstance(value, bool):
        raise ConfigError(file, path, f"expected true or false, got {value!r}")
    return value


def _choice(
    value: Any, file: str, path: str, choices: tuple[str, ...] | list[str], what: str = "value"
) -> str:
    if not isinstance(value, str) or value not in choices:
        raise ConfigError(file, path, f"unknown {what} {value!r}; valid: {', '.join(choices)}")
    return value


def _str(value: Any, file: str, path: str) -> str:
    if not isinstance(value, str):
        raise ConfigError(file, path, f"expected a string, got {value!r}")
    return value


# ----- weapons and bestiary ----------------------------------------------------------------------------
@lru_cache(maxsize=4)
def load_weapons(path: str = str(DIR / "weapons.yaml")) -> dict[str, Weapon]:
    data = _map(load_yaml(path), path, "", ("weapons",), ("weapons",))
    out: dict[str, Weapon] = {}
    for name, raw in _map(data["weapons"], path, "weapons", tuple(data["weapons"] or ())).items():
        p = f"weapons.{name}"
        w = _map(
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
            ),
            ("damage", "kind", "reach", "hp"),
        )
        try:
            expr = parse(_str(w["damage"], path, f"{p}.damage"))
        except ValueError as exc:
            raise ConfigError(path, f"{p}.damage", str(exc)) from None
        out[name] = Weapon(
            name=name,
            damage=expr.text,
            dice=tuple((n, s) for n, s, _ in expr.dice),
            bonus=expr.bonus,
            kind=_choice(w["kind"], path, f"{p}.kind", KINDS, "kind"),
            reach=REACH_NAMES.index(_choice(w["reach"], path, f"{p}.reach", REACH_NAMES, "reach")),
            hp=_int(w["hp"], path, f"{p}.hp"),
            ap=_int(w.get("ap", 0), path, f"{p}.ap"),
            **{
                k: _bool(w.get(k, False), path, f"{p}.{k}")
                for k in ("thrusting", "entangling", "disarm_bonus", "set_vs_charge")
            },
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
    "location_hp",
    "intelligent",
    "formidable",
    "body",
    "mount",
    "weapon_location",
)
_SKILLS = ("acrobatics", "athletics", "resilience", "brute_force", "riding")


def _locations(value: Any, file: str, path: str, body: str) -> tuple[int, ...] | None:
    names = QUADRUPED_LOCATIONS if body == "quadruped" else LOCATIONS
    if isinstance(value, int) and not isinstance(value, bool):
        return (_int(value, file, path, 0, 100),) * 7
    m = _map(value, file, path, names, names)
    return tuple(_int(m[n], file, f"{path}.{n}", 0, 100) for n in names)


def build_profile(
    name: str,
    raw: Any,
    file: str,
    path: str,
    weapons: Mapping[str, Weapon],
    overrides: Mapping[str, Any] | None = None,
) -> Profile:
    """Resolve a bestiary template (plus scenario overrides: skill, armour) into a frozen Profile."""
    t = _map(raw, file, path, _TEMPLATE_KEYS, ("style", "skill", "weapon", "characteristics"))
    style = _choice(t["style"], file, f"{path}.style", STYLES, "style")
    body = _choice(
        t.get("body", "humanoid"), file, f"{path}.body", ("humanoid", "quadruped"), "body"
    )
    ch = _map(t["characteristics"], file, f"{path}.characteristics", CHARS + ("cha",), CHARS)
    c = {k: _int(ch[k], file, f"{path}.characteristics.{k}", 1, 200) for k in CHARS}
    sk = _map(t.get("skills", {}), file, f"{path}.skills", _SKILLS)
    skill_of = {
        "acrobatics": c["dex"],
        "athletics": c["str"] + c["dex"],
        "resilience": c["con"] + c["pow"],
        "brute_force": c["str"] + c["siz"],
        "riding": c["dex"] + c["pow"],
    }
    for k, v in sk.items():
        skill_of[k] = _int(v, file, f"{path}.skills.{k}", 0, 300)

    def weapon(key: str, default: str | None) -> Weapon | None:
        wname = t.get(key, default)
        if wname is None:
            return None
        return weapons[_choice(wname, file, f"{path}.{key}", sorted(weapons), "weapon")]

    main = weapon("weapon", None)
    assert main is not None  # noqa: S101 - required key checked above
    off = weapon("offhand", None)
    if style in ("weapon_and_shield", "two_weapons") and off is None:
        raise ConfigError(file, f"{path}.offhand", f"style {style} needs an offhand item")
    if style == "weapon_and_shield" and off is not None and off.kind != "shield":
        raise ConfigError(
            file, f"{path}.offhand", f"weapon_and_shield needs a shield, got {off.name!r}"
        )
    unarmed = weapon("unarmed", "fists")
    assert unarmed is not None  # noqa: S101
    over = dict(overrides or {})
    skill = _int(over.get("skill", t["skill"]), file, f"{path}.skill", 0, 300)
    armour_raw = over.get("armour", t.get("armour", 0))
    armour = _locations(armour_raw, file, f"{path}.armour", body)
    loc_max = (
        _locations(t["location_hp"], file, f"{path}.location_hp", body)
        if "location_hp" in t
        else location_hp(c["siz"] + c["con"], body)
    )
    mount = (
        _map(t["mount"], file, f"{path}.mount", ("str", "siz"), ("str", "siz"))
        if "mount" in t
        else None
    )
    wl_names = QUADRUPED_LOCATIONS if body == "quadruped" else LOCATIONS
    wloc = t.get("weapon_location", wl_names[HEAD] if body == "quadruped" else wl_names[RIGHT_ARM])
    intelligent = _bool(t.get("intelligent", True), file, f"{path}.intelligent")
    return Profile(
        template=name,
        style=style,
        skill=skill,
        weapon=main,
        offhand=off,
        unarmed=unarmed,
        unarmed_skill=_int(
            t.get("unarmed_skill", c["str"] + c["dex"]), file, f"{path}.unarmed_skill", 0, 300
        )
        if style not in ("unarmed", "natural")
        else skill,
        acrobatics=skill_of["athletics"]
        if body == "quadruped" and "acrobatics" not in sk
        else skill_of["acrobatics"],
        athletics=skill_of["athletics"],
        resilience=skill_of["resilience"],
        brute_force=skill_of["brute_force"],
        riding=skill_of["riding"],
        dex=c["dex"],
        int_=c["int"],
        siz=c["siz"],
        dm=damage_modifier(c["str"] + c["siz"]),
        mount_dm=damage_modifier(
            _int(mount["str"], file, f"{path}.mount.str", 1, 200)
            + _int(mount["siz"], file, f"{path}.mount.siz", 1, 200)
        )
        if mount
        else "",
        mounted=mount is not None,
        body=body,
        loc_max=loc_max,
        armour=armour or (0,) * 7,
        cas=combat_actions(c["dex"]),
        intelligent=intelligent,
        formidable=_bool(t.get("formidable", False), file, f"{path}.formidable"),
        weapon_loc=wl_names.index(
            _choice(wloc, file, f"{path}.weapon_location", wl_names, "location")
        ),
    )


@lru_cache(maxsize=4)
def load_bestiary(path: str = str(DIR / "bestiary.yaml")) -> dict[str, Any]:
    """Raw templates by name (validated once, resolved per use so scenario overrides apply)."""
    data = _map(load_yaml(path), path, "", ("templates",), ("templates",))
    templates = _map(data["templates"], path, "templates", tuple(data["templates"] or ()))
    weapons = load_weapons()
    for name, raw in templates.items():
        build_profile(name, raw, path, f"templates.{name}", weapons)
    return templates


# ----- scenarios --------------------------------------------------------------------------------------
def list_scenarios() -> list[tuple[str, str]]:
    out = []
    for name, path in named_files(DIR / "scenarios").items():
        data = load_yaml(path)
        out.append((name, str(data.get("description", "")) if isinstance(data, Mapping) else ""))
    return out


def load_scenario(name_or_path: str) -> Scenario:
    """A shipped scenario by name or a YAML file path, validated."""
    path = resolve_named(name_or_path, DIR / "scenarios", "scenario")
    return scenario_from_mapping(load_yaml(path), str(path))


def _options(value: Any, file: str, path: str) -> dict[str, Any]:
    from npc_tactics.rules.mrq.engine import DEFAULT_OPTIONS

    opts = _map(value, file, path, tuple(DEFAULT_OPTIONS))
    for k, v in opts.items():
        default = DEFAULT_OPTIONS[k]
        if not isinstance(v, type(default)) or (
            isinstance(default, list) and len(v) != len(default)
        ):
            raise ConfigError(
                file,
                f"{path}.{k}",
                f"expected {type(default).__name__} like {default!r}, got {v!r}",
            )
    return opts


_COMBATANT_KEYS = ("template", "name", "skill", "armour")


def _sides(
    value: Any, file: str, extra_keys: tuple[str, ...] = ()
) -> list[tuple[str, list[dict[str, Any]]]]:
    if not isinstance(value, list) or len(value) != 2:
        raise ConfigError(file, "sides", "expected a list of exactly 2 sides (side 0 = the NPCs)")
    templates = load_bestiary()
    out = []
    for s, side in enumerate(value):
        sd = _map(side, file, f"sides[{s}]", ("name", "combatants"), ("combatants",))
        cs = sd["combatants"]
        if not isinstance(cs, list) or not 1 <= len(cs) <= 6:
            raise ConfigError(
                file, f"sides[{s}].combatants", "expected a list of 1 to 6 combatants"
            )
        entries = []
        for k, raw in enumerate(cs):
            p = f"sides[{s}].combatants[{k}]"
            e = _map(raw, file, p, _COMBATANT_KEYS + extra_keys, ("template",))
            _choice(e["template"], file, f"{p}.template", sorted(templates), "template")
            e["_path"] = p
            entries.append(e)
        out.append((str(sd.get("name", f"side {s}")), entries))
    return out


def scenario_from_mapping(data: Any, file: str = "<scenario>") -> Scenario:
    """Validate a scenario mapping (see docs/mrq.md, "Scenarios")."""
    d = _map(
        data,
        file,
        "",
        ("name", "description", "max_rounds", "options", "distance", "sides"),
        ("sides",),
    )
    templates, weapons = load_bestiary(), load_weapons()
    combatants: list[tuple[str, int, Profile]] = []
    names: set[str] = set()
    sides = _sides(d["sides"], file)
    for s, (_, entries) in enumerate(sides):
        for e in entries:
            p = e["_path"]
            name = _str(e.get("name", f"{e['template']}_{len(combatants)}"), file, f"{p}.name")
            if name in names:
                raise ConfigError(file, f"{p}.name", f"duplicate combatant name {name!r}")
            names.add(name)
            over = {k: e[k] for k in ("skill", "armour") if k in e}
            prof = build_profile(e["template"], templates[e["template"]], file, p, weapons, over)
            combatants.append((name, s, prof))
    return Scenario(
        name=_str(d.get("name", Path(file).stem), file, "name"),
        description=_str(d.get("description", ""), file, "description"),
        max_rounds=_int(d.get("max_rounds", 20), file, "max_rounds", 1, 1000),
        options=_options(d.get("options", {}), file, "options"),
        distance=DISTANCE_NAMES.index(
            _choice(d.get("distance", "long"), file, "distance", DISTANCE_NAMES, "distance")
        ),
        combatants=tuple(combatants),
        side_names=(sides[0][0], sides[1][0]),
    )


# ----- GM situations ------------------------------------------------------------------------------------
_SITUATION_COMBATANT_KEYS = (
    "locations",
    "prone",
    "weapon",
    "reactions",
    "lost_ca",
    "status",
    "useless",
)


def load_situation(
    engine: Any, path_or_mapping: str | Mapping[str, Any], roller: Roller
) -> MRQState:
    """A fight in progress in MRQ terms, at the acting NPC's next Combat Action.

    Fields: ``round``, ``acting`` (a combatant name), ``distance`` (default between opponents),
    ``distances`` (list of ``{a, b, distance}``), ``options``, ``max_rounds``, ``sides`` as in a scenario, each
    combatant optionally with ``locations`` (current HP per location), ``prone``, ``weapon``
    (ready/dropped/broken), ``reactions`` left, ``lost_ca``, ``status``, ``useless`` (list of locations).
    """
    if isinstance(path_or_mapping, Mapping):
        file, data = "<situation>", path_or_mapping
    else:
        file, data = str(path_or_mapping), load_yaml(path_or_mapping)
    d = _map(
        data,
        file,
        "",
        (
            "round",
            "acting",
            "distance",
            "distances",
            "options",
            "max_rounds",
            "sides",
            "name",
            "description",
        ),
        ("acting", "sides"),
    )
    sides = _sides(d["sides"], file, _SITUATION_COMBATANT_KEYS)
    scen = scenario_from_mapping(
        {
            k: v
            for k, v in {
                "name": d.get("name", "situation"),
                "max_rounds": d.get("max_rounds", 20),
                "options": d.get("options", {}),
                "distance": d.get("distance", "long"),
                "sides": [
                    {
                        "name": n,
                        "combatants": [{k: e[k] for k in _COMBATANT_KEYS if k in e} for e in es],
                    }
                    for n, es in sides
                ],
            }.items()
        },
        file,
    )
    state: MRQState = engine.build_state(scen)
    by_name = {c.name: i for i, c in enumerate(state.combatants)}
    state.round = _int(d.get("round", 1), file, "round", 1, state.max_rounds)
    flat = [e for _, es in sides for e in es]
    for i, e in enumerate(flat):
        c, p = state.combatants[i], e["_path"]
        names = QUADRUPED_LOCATIONS if c.prof.body == "quadruped" else LOCATIONS
        if "locations" in e:
            locs = _map(e["locations"], file, f"{p}.locations", names)
            for ln, v in locs.items():
                c.loc_hp[names.index(ln)] = _int(
                    v, file, f"{p}.locations.{ln}", -100, c.prof.loc_max[names.index(ln)]
                )
            c.hp = sum(h for h in c.loc_hp if h > 0)
        c.prone = _bool(e.get("prone", False), file, f"{p}.prone")
        c.weapon_state = {"ready": READY, "dropped": DROPPED, "broken": BROKEN}[
            _choice(
                e.get("weapon", "ready"),
                file,
                f"{p}.weapon",
                ("ready", "dropped", "broken"),
                "weapon state",
            )
        ]
        c.lost_ca = _int(e.get("lost_ca", 0), file, f"{p}.lost_ca", 0, 10)
        c.status = Status[
            _choice(
                e.get("status", "active"),
                file,
                f"{p}.status",
                [s.name.lower() for s in Status],
                "status",
            ).upper()
        ]
        for k, ln in enumerate(e.get("useless", []) or []):
            c.useless |= 1 << names.index(_choice(ln, file, f"{p}.useless[{k}]", names, "location"))
        c.cas = c.prof.cas
        shield = c.prof.offhand is not None and c.prof.offhand.kind == "shield"
        c.reactions = _int(e.get("reactions", c.prof.cas + shield), file, f"{p}.reactions", 0, 10)
    for k, raw in enumerate(d.get("distances", []) or []):
        dd = _map(raw, file, f"distances[{k}]", ("a", "b", "distance"), ("a", "b", "distance"))
        a = by_name[_choice(dd["a"], file, f"distances[{k}].a", sorted(by_name), "combatant")]
        b = by_name[_choice(dd["b"], file, f"distances[{k}].b", sorted(by_name), "combatant")]
        state.set_distance(
            a,
            b,
            DISTANCE_NAMES.index(
                _choice(
                    dd["distance"], file, f"distances[{k}].distance", DISTANCE_NAMES, "distance"
                )
            ),
        )
    acting = by_name.get(_choice(d["acting"], file, "acting", sorted(by_name), "combatant"), -1)
    if state.combatants[acting].status != Status.ACTIVE:
        raise ConfigError(file, "acting", f"{d['acting']!r} is not active")
    others = sorted(
        (i for i in range(state.n) if i != acting), key=lambda i: -state.combatants[i].prof.dex
    )
    state.order = [acting] + others
    state.cycle, state.pos = 0, 1
    c = state.combatants[acting]
    state.decision = Decision(
        acting, c.side, DecisionKind.ACT, state.round, {"ca": 1, "cas": c.cas, "free_attack": False}
    )
    return state
