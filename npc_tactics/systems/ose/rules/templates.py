"""Stat blocks from the YAML content: weapons, armour, the bestiary and class-based templates.

A template becomes a :class:`~npc_tactics.systems.ose.rules.state.Profile` (derived AC, THAC0, movement, saves,
damage) plus its hit points, ammunition and memorised spells. Characters: AC from armour + shield + DEX
(§14.3), THAC0, saves, hit dice and spell slots from the class table (``classes.yaml``, rules/classes.py),
movement by armour (OSE basic encumbrance), 1d6 damage + STR (§10). Monsters: THAC0 by HD (§9.5) unless
given, damage from the stat block.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from npc_tactics.configs import load_yaml, system_dir
from npc_tactics.configs import validate as V
from npc_tactics.errors import ConfigError
from npc_tactics.i18n import Said
from npc_tactics.systems.ose.rules import bestiary_files as B
from npc_tactics.systems.ose.rules import class_spells as S
from npc_tactics.systems.ose.rules import classes as C
from npc_tactics.systems.ose.rules import tables as T
from npc_tactics.systems.ose.rules.monster_abilities import abilities, alignment
from npc_tactics.systems.ose.rules.state import Profile

CONFIG = system_dir("ose")
WEAPON_KEYS = ("damage", "two_handed", "slow", "blunt", "missile", "thrown", "brace", "ranges")
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
    "daylight_mod",
    "surprise_on",
    "stat_line",  #: the OSE stat line (rules/statline.py); its fields are added, a field given both ways must agree
    "saves",  #: five saves (D W P B S) instead of save_as; stat line notation accepted, as for ac, hd, movement
    "attacks",  #: one attack in stat line notation ("1 × claw (1d4)"): sets damage, weapon and weapon_bonus
    "attack_form",  #: the natural weapon of a stat line's attack (claw, bite ...), its name in what the GM reads
    "routine",  #: the whole routine in stat line notation when it is more than one plain attack (from attacks:)
    "fly",  #: flying movement, base feet (the stat line's MV ... flying)
    "alignment",  #: the stat line's AL (Protection from Evil)
    # monster abilities (rules/effects.py, docs/ose-monsters.md)
    "hit_by",  #: "silver" or "magic": only such weapons harm it
    "halved",  #: damage kinds it takes half from
    "regenerate",  #: hit points a round
    "regenerate_after",  #: rounds after it is first damaged
    "regenerate_not",  #: damage kinds it cannot regenerate
    "revives",  #: dice of rounds after which a killed regenerator fights again
    "paralysis_spares",  #: classes (elf) or "large" its paralysis does not affect
    "magic_weapon",  #: its weapon's +N
    "silver_weapon",
    "breath",  #: a breath weapon (rules/breath.py)
    "gaze",  #: a gaze attack: {effect, save}
    "effect_saves",  #: {effect: save} where its text names another save than the usual one
    "constrict",  #: dice a constriction squeezes for (rules/holds.py)
    "swallow",  #: swallowing whole: {form, roll, margin, damage, size, weapon} (rules/holds.py)
    # what the engine does not read: the encounter builder's tags and the entry's provenance
    "kind",
    "faction",
    "player_character",
    "source",
    "notes",
)
CHARACTER_KEYS = (
    "description",
    "class",
    "level",
    "str",
    "dex",
    "con",
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
    "alignment",  #: Lawful, Neutral or Chaotic (Protection from Evil wards against the Chaotic)
    "magic_weapon",  #: its melee weapon's +N (to hit and damage; harms creatures hit only by magic weapons)
    "silver_weapon",  #: its melee weapon is silver
    "player_character",
)
#: What a combatant given by class and level (``{class: elf, level: 9, ...}``) may say about its character;
#: ``hp`` and the combatant's own keys (name, position, ...) stay with the scenario or situation.
CLASS_SPEC_KEYS = tuple(k for k in CHARACTER_KEYS if k not in ("description", "hp", "init_mod"))
IMMUNITIES = ("melee", "missile", "sleep", "hold", "charm", "poison", "paralysis", "petrification", "energy_drain",
              "disease", "fire", "cold", "lightning", "acid", "gas")
NO_WEAPON = {
    "damage": "1d6",
    "two_handed": False,
    "slow": False,
    "missile": False,
    "thrown": False,
    "brace": False,
    "ranges": None,
}


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
        w = V.mapping(w, path, name, WEAPON_KEYS, required=("damage",))
        ranges = None
        if w.get("ranges") is not None:
            rp = V.join(name, "ranges")
            bands = V.sequence(w["ranges"], path, rp, 3, 3, "[short, medium, long] ranges in feet")
            ranges = tuple(V.integer(r, path, V.join(rp, i)) for i, r in enumerate(bands))
        out[name] = {
            "damage": V.dice(w["damage"], path, V.join(name, "damage"), allow_int=True),
            **{
                k: V.boolean(w.get(k, False), path, V.join(name, k))
                for k in ("two_handed", "slow", "missile", "thrown", "brace")
            },
            "ranges": ranges,
        }
    return out


@lru_cache(maxsize=1)
def armour() -> tuple[dict[str, tuple[int, int]], int]:
    path = str(CONFIG / "armour.yaml")
    keys = ("armour", "shield_bonus")
    data = V.mapping(load_yaml(path), path, "", keys, required=keys)
    table = {}
    for name, a in V.mapping(data["armour"], path, "armour").items():
        p = V.join("armour", name)
        a = V.mapping(a, path, p, ("ac", "movement"), required=("ac", "movement"))
        table[name] = (
            V.integer(a["ac"], path, V.join(p, "ac")),
            V.integer(a["movement"], path, V.join(p, "movement")),
        )
    return table, V.integer(data["shield_bonus"], path, "shield_bonus")


@lru_cache(maxsize=1)
def raw_templates() -> dict[str, tuple[str, dict[str, Any]]]:
    """``{name: (file, raw mapping)}`` for every bestiary and character template: bestiary.yaml, characters.yaml and
    the open bestiary (monsters/*.yaml, docs/ose-bestiary.md)."""
    out: dict[str, tuple[str, dict[str, Any]]] = {}
    files = [CONFIG / "bestiary.yaml", CONFIG / "characters.yaml", *sorted((CONFIG / "monsters").glob("*.yaml"))]
    for file in files:
        path = str(file)
        for name, raw in V.mapping(load_yaml(path), path, "").items():
            if name in out:
                raise ConfigError(path, name, f"already defined in {out[name][0]}")
            out[name] = (path, B.expand(V.mapping(raw, path, name), path, name))
    return out


def all_templates() -> dict[str, tuple[str, dict[str, Any]]]:
    """The shipped templates and the user's bestiaries (``NPC_TACTICS_BESTIARY``, ``--bestiary``); a user entry
    may not take a shipped name."""
    shipped, user = raw_templates(), B.user_templates()
    if not user:
        return shipped
    for name, (file, _raw) in user.items():
        if name in shipped:
            raise ConfigError(file, name, Said("is a shipped template; give the entry another name (e.g. my_{name})",
                                               name=name))
    return {**shipped, **user}


def core_template_names() -> list[str]:
    """The templates of bestiary.yaml and characters.yaml (the 0.2.0 set): the encounter builder's threat scale
    (its median template is 1.0) stays put when the open bestiary or a user's grows."""
    core = {str(CONFIG / f) for f in ("bestiary.yaml", "characters.yaml")}
    return sorted(n for n, (file, _raw) in raw_templates().items() if file in core)


def template_names() -> list[str]:
    return sorted(all_templates())


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
        raise ConfigError(file, path, Said("bad Hit Dice {hd}; expected e.g. 1/2, 1-1, 2, 1+1",
                                           hd=repr(text))) from None


def _weapon(name: Any, file: str, path: str) -> dict[str, Any]:
    table = weapons()
    return table[V.choice(name, file, path, table, "weapon")]


def _spells(raw: Any, file: str, path: str) -> tuple[int, ...]:
    counts = [0] * len(T.SPELL_NAMES)
    if raw is None:
        return tuple(counts)
    S.check_spell_names(raw, file, path)  # an unknown spell: one short line naming it and the nearest
    for name, n in V.mapping(raw, file, path, T.SPELL_NAMES).items():
        counts[T.SPELL_NAMES.index(name)] = V.integer(n, file, V.join(path, name), 0, 9)
    return tuple(counts)


def make_template(
    name: str, overrides: dict[str, Any] | None = None, file: str = "", path: str = ""
) -> Template:
    """Build the template ``name`` with scenario ``overrides`` (weapon, missile, ammo, morale, spells)."""
    raws = all_templates()
    synthetic = C.template_raw(name, file, path) if name not in raws else None  # elf_9: from the class table
    tfile, raw = (str(C.CLASS_FILE), synthetic) if synthetic else raws[V.choice(name, file, path, raws, "template")]
    merged = dict(raw)
    merged.update(overrides or {})
    src = file if overrides else tfile
    where = path if overrides else name
    if "class" in raw:
        return _character(name, merged, src, where)
    return _monster(name, merged, src, where)


def _ranges(w: dict[str, Any]) -> tuple[int, int, int]:
    r = w["ranges"] or (0, 0, 0)
    return tuple(T.feet_to_squares(x) for x in r)  # type: ignore[return-value]  # the YAML row has exactly three ranges (checked by the loader)


def _common(name: str, r: dict[str, Any], file: str, path: str) -> dict[str, Any]:
    melee = (
        _weapon(r.get("weapon", "club"), file, f"{path}.weapon")
        if "weapon" in r
        else dict(NO_WEAPON)
    )
    mp = V.join(path, "missile")
    missile_name = V.string(r["missile"], file, mp) if r.get("missile") is not None else None
    missile = _weapon(missile_name, file, mp) if missile_name else None
    if missile is not None and missile["ranges"] is None:
        raise ConfigError(file, mp, Said("{weapon} cannot be used as a missile weapon", weapon=repr(missile_name)))
    throws = missile is None and bool(melee["thrown"]) and melee["ranges"] is not None
    if throws:  # no missile weapon: the melee weapon itself can be thrown (OSE "Missile" quality)
        missile, missile_name = melee, str(r["weapon"])
    ip = V.join(path, "immune")
    immune = [
        V.choice(x, file, V.join(ip, i), IMMUNITIES, "immunity")
        for i, x in enumerate(V.sequence(r.get("immune", []), file, ip, what="immunities"))
    ]
    ammo_default = -1 if missile and not missile["thrown"] else 1
    return {
        "weapon_magic": V.integer(r.get("magic_weapon", 0), file, V.join(path, "magic_weapon"), 0, 5),
        "weapon_silver": V.boolean(r.get("silver_weapon", False), file, V.join(path, "silver_weapon")),
        "throws": throws,
        "melee": melee,
        "missile": missile,
        "missile_name": missile_name,
        "immune": frozenset(immune),
        "ammo": V.integer(r.get("ammo", ammo_default), file, V.join(path, "ammo"), low=-1),
        "spells": _spells(r.get("spells"), file, V.join(path, "spells")),
        "init_mod": V.integer(r.get("init_mod", 0), file, V.join(path, "init_mod"), -3, 3),
        "morale": V.integer(r.get("morale", 0), file, V.join(path, "morale"), 0, 12),
    }


def _character(name: str, r: dict[str, Any], file: str, path: str) -> Template:
    """A class-based template: THAC0, saves, hit dice and spell slots from its class's level row; equipment
    and memorised spells checked against the class (rules/classes.py)."""
    V.mapping(r, file, path, CHARACTER_KEYS, required=("class", "level"))
    cc = C.character_class(r["class"], file, V.join(path, "class"))
    row = C.level_row(cc, r["level"], file, V.join(path, "level"))
    level = row.level
    st, dx, cn = (V.integer(r.get(k, 10), file, V.join(path, k), 3, 18) for k in ("str", "dex", "con"))
    arm_table, shield_bonus = armour()
    arm = V.choice(r.get("armour", "none"), file, V.join(path, "armour"), arm_table, "armour")
    c = _common(name, r, file, path)
    m, ms = c["melee"], c["missile"]
    carries = V.boolean(r.get("shield", False), file, V.join(path, "shield"))
    C.check_equipment(cc, arm, carries, {"weapon": r.get("weapon"), "missile": c["missile_name"]}, file, path)
    spells = c["spells"] if "spells" in r else S.default_spells(cc, row)
    S.check_spells(cc, row, spells, file, V.join(path, "spells"))
    # a two-handed melee weapon leaves no hand for the shield: no shield bonus (OSE "Two-handed")
    shield = shield_bonus if carries and not m["two_handed"] else 0
    base_ac, movement = arm_table[arm]
    hp = V.dice(r.get("hp", C.hit_points(cc, row, T.ability_mod(cn))), file, V.join(path, "hp"), allow_int=True)
    prof = Profile(
        template=name,
        kind="character",
        cls=cc.name,
        level=level,
        hd=level,
        hd_plus=0,
        ac=base_ac - shield - T.ability_mod(dx),
        shield=shield,
        thac0=row.thac0,
        str_mod=T.ability_mod(st),
        dex_missile=T.ability_mod(dx) + cc.missile_bonus,
        init_mod=T.ability_mod(dx, T.DEX_INIT_MOD) + cc.init_bonus + c["init_mod"],
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
        save_spells=row.saves[T.SAVE_CATEGORIES.index("spells")],
        humanoid=True,
        undead=False,
        immune=c["immune"],
        throws=c["throws"],
        brace=bool(m["brace"]),
        saves=row.saves,
        backstab=cc.backstab or (0, 1),
        alignment=alignment(r["alignment"], file, V.join(path, "alignment")) if "alignment" in r else "",
        weapon_magic=c["weapon_magic"],
        weapon_silver=c["weapon_silver"],
    )
    return Template(prof, hp, c["ammo"], spells)


def character_template(spec: Mapping[str, Any], file: str, path: str) -> tuple[str, Template]:
    """A combatant given by class and level (``{class: elf, level: 9, armour: plate_mail}``): its template,
    named ``elf_9``, with the class kit (classes.yaml) for the equipment it does not name. Only
    :data:`CLASS_SPEC_KEYS` are read; the caller keeps ``hp`` (a combatant's, not the template's dice). A
    monster's field (``ac``, ``hd``, ``stat_block``, ...) is an error: a character derives those from its class."""
    for key in spec:
        if (key in MONSTER_KEYS or key in ("template", "stat_block")) and key not in CHARACTER_KEYS:
            raise ConfigError(file, V.join(path, key), f"a character given by class and level takes no {key!r} "
                                                       "(its stat block comes from class, level and equipment)")
    raw = {k: v for k, v in spec.items() if k in CLASS_SPEC_KEYS}
    for key in ("class", "level"):
        if key not in raw:
            raise ConfigError(file, V.join(path, key), "missing required key (a character is given by class and level)")
    cc = C.character_class(raw["class"], file, V.join(path, "class"))
    row = C.level_row(cc, raw["level"], file, V.join(path, "level"))
    name = f"{cc.name}_{row.level}"
    return name, _character(name, {**cc.kit, **raw, "class": cc.name}, file, path)


def stat_block_template(label: str, line: Any, overrides: dict[str, Any], file: str, path: str) -> Template:
    """A monster from an inline stat line (a combatant's ``stat_block``) with the combatant's overrides."""
    raw = B.expand({"stat_line": line}, file, V.join(path, "stat_block"))
    return _monster(label, {**raw, **overrides}, file, path)


def template_from_raw(name: str, raw: dict[str, Any], file: str) -> Template:
    """The template of one entry's raw fields (a user bestiary entry being checked), named ``name``."""
    return _character(name, raw, file, name) if "class" in raw else _monster(name, raw, file, name)


def _monster(name: str, r: dict[str, Any], file: str, path: str) -> Template:
    V.mapping(r, file, path, MONSTER_KEYS)
    r = B.normalise_fields(r, file, path)  # stat line notation (ac: "6 [13]", attacks: "1 × claw (1d4)")
    V.mapping(r, file, path, required=("ac", "hd", "damage", "movement"))
    hd, plus = parse_hd(r["hd"], file, V.join(path, "hd"))
    c = _common(name, r, file, path)
    m, ms = c["melee"], c["missile"]
    damage = V.dice(r["damage"], file, V.join(path, "damage"), allow_int=True)
    bp = V.join(path, "weapon_bonus")
    bonus = V.integer(r["weapon_bonus"], file, bp) if "weapon_bonus" in r else None
    var = (
        (lambda w: f"{w['damage']}{bonus:+d}" if bonus else str(w["damage"]))
        if bonus is not None
        else None
    )
    carries = V.boolean(r.get("shield", False), file, V.join(path, "shield"))
    drops = carries and bool(m["two_handed"])
    shield_bonus = armour()[1]
    save_as = V.string(r.get("save_as", "NH"), file, V.join(path, "save_as"))
    try:
        saves = tuple(int(x) for x in r["saves"]) if "saves" in r else T.save_row(save_as)
    except ValueError as exc:
        raise ConfigError(file, V.join(path, "save_as"), str(exc)) from None
    save = saves[4]
    hp_default = "1d4" if plus == -4 else f"{hd}d8" if plus == 0 else f"{hd}d8{plus:+d}"
    thac0 = T.monster_thac0(hd, plus if plus > 0 else 0)
    movement = V.integer(r["movement"], file, V.join(path, "movement"), low=0)
    prof = Profile(
        template=name,
        kind="monster",
        cls="monster",
        level=hd,
        hd=hd,
        hd_plus=plus,
        # the stat block's AC includes its shield; a two-handed weapon leaves no hand for it
        ac=V.integer(r["ac"], file, V.join(path, "ac"), -10, 10) + (shield_bonus if drops else 0),
        shield=0 if drops or not carries else shield_bonus,
        thac0=V.integer(r.get("thac0", thac0), file, V.join(path, "thac0"), 1, 25),
        str_mod=0,
        dex_missile=0,
        init_mod=c["init_mod"],
        melee_weapon=r.get("weapon", V.string(r.get("attack_form", "natural"), file, V.join(path, "attack_form"))),
        melee_damage=str(damage),
        melee_damage_var=var(m) if var else str(damage),
        melee_slow=bool(m["slow"]),
        missile_weapon=c["missile_name"],
        missile_damage=str(damage),
        missile_damage_var=(var(ms) if var else str(damage)) if ms else str(damage),
        missile_ranges=_ranges(ms) if ms else (0, 0, 0),
        missile_slow=bool(ms["slow"]) if ms else False,
        move=T.feet_to_squares(movement // T.ENCOUNTER_FRACTION),
        morale=c["morale"],
        save_spells=save,
        humanoid=V.boolean(r.get("humanoid", False), file, V.join(path, "humanoid")),
        undead=V.boolean(r.get("undead", False), file, V.join(path, "undead")),
        immune=c["immune"],
        daylight_mod=V.integer(r.get("daylight_mod", 0), file, V.join(path, "daylight_mod"), -4, 0),
        surprise_on=V.integer(r.get("surprise_on", 2), file, V.join(path, "surprise_on"), 0, 6),
        throws=c["throws"],
        brace=bool(m["brace"]),
        saves=saves,
        weapon_magic=c["weapon_magic"],
        weapon_silver=c["weapon_silver"],
        **abilities(r, m, bonus, file, path),
    )
    hp = V.dice(r.get("hp", hp_default), file, V.join(path, "hp"), allow_int=True)
    return Template(prof, hp, c["ammo"], c["spells"])


def template_file(name: str) -> Path:
    return Path(raw_templates()[name][0])
