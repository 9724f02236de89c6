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

from npc_tactics.configs import system_dir
from npc_tactics.configs import validate as V
from npc_tactics.errors import ConfigError
from npc_tactics.i18n import Said
from npc_tactics.rules import loading
from npc_tactics.rules.base import Status, read_only
from npc_tactics.systems.runequest.rules import calc, poison
from npc_tactics.systems.runequest.rules import statblock as SB
from npc_tactics.systems.runequest.rules.actions import MAX_PER_SIDE
from npc_tactics.systems.runequest.rules.bestiary_files import shipped_bestiary, user_templates
from npc_tactics.systems.runequest.rules.options import SPEC
from npc_tactics.systems.runequest.rules.state import (
    Combatant,
    CombatantSpec,
    Location,
    RQState,
    Weapon,
    WeaponSpec,
)

DIR = system_dir("runequest")
SCENARIO_DIR = DIR / "scenarios"
SCENARIO_KEYS = {"name", "description", "max_rounds", "distance", "options", "sides", "surprised"}
SIDE_KEYS = {"name", "combatants"}
#: what a combatant entry may change of its template, or give in full with no template (``max_hp`` is the
#: stat block's total HP: at a combatant ``hp`` is the situation's current HP)
FIELD_KEYS = (SB.TEMPLATE_KEYS - {"hp", "skills", "armour", "ready"}) | {"max_hp"}
ENTRY_KEYS = {"template", "stat_block", "name", "position", "ready", "skills", "mp", "armour"} | FIELD_KEYS
TEMPLATE_KEYS = SB.TEMPLATE_KEYS
CHARS = SB.CHARS
SKILL_KEYS = SB.SKILL_KEYS
WEAPON_KEYS = SB.WEAPON_FIELDS
DICE_KEY = "_rolls"  #: set on a validated scenario whose stat blocks roll dice (the engine then builds each fight)


# ----- weapons and bestiary
# ------------------------------------------------------------------------------
def weapons(path: str = SB.EQUIPMENT) -> dict[str, dict[str, Any]]:
    """The validated weapon list (name -> fields)."""
    return SB.equipment(path)


def _weapon_spec(name: str, skill: int, hp: int | None) -> WeaponSpec:
    """A weapon of the equipment list with ``skill`` (and ``hp`` instead of the list's, when given)."""
    entry: dict[str, Any] = {"weapon": name, "skill": skill, **({} if hp is None else {"hp": hp})}
    return SB.weapon_spec(SB.weapon_row(entry, weapons(), "<weapon>", name))


def bestiary(path: str | None = None) -> dict[str, dict[str, Any]]:
    """Template name -> stat block: the shipped bestiary (or the file ``path``) and, with no ``path``, the
    entries of the user bestiaries (``system: runequest`` files on ``NPC_TACTICS_BESTIARY``)."""
    if path is not None:
        return shipped_bestiary(path)

    user = user_templates()
    return _merged(tuple(sorted(user))) if user else shipped_bestiary()


@lru_cache(maxsize=8)
def _merged(names: tuple[str, ...]) -> dict[str, dict[str, Any]]:

    user = user_templates()
    return {**shipped_bestiary(), **{n: user[n][1] for n in names}}


def entry_template(e: Mapping[str, Any], f: str, p: str) -> tuple[str, dict[str, Any]]:
    """(label, stat block) of a combatant entry: its ``template`` with the fields it changes, its own
    ``stat_block`` (pasted text or the bestiary's fields), or the bestiary's fields given in full."""
    from npc_tactics.systems.runequest.rules.bestiary_files import fields_of

    given = [k for k in ("template", "stat_block") if k in e]
    if len(given) == 2:
        raise ConfigError(f, V.join(p, "stat_block"), Said("give template (a bestiary name) or stat_block (the "
                                                           "creature's own), not both"))
    changes = {("hp" if k == "max_hp" else k): v for k, v in e.items() if k in FIELD_KEYS}
    if "template" in e:
        name = V.choice(e["template"], f, V.join(p, "template"), bestiary(), "template")
        t = bestiary()[name]
        if not changes:
            return name, t
        base = dict(t)
    elif "stat_block" in e:
        name = str(e.get("name", "stat_block"))
        base = fields_of(e["stat_block"], f, V.join(p, "stat_block"))
    elif "characteristics" in changes:
        name, base = str(e.get("name", "stat_block")), {}
    else:
        raise ConfigError(f, V.join(p, "template"), Said("missing required key (or give stat_block, the creature's "
                                                         "own stat block, or its fields: characteristics, "
                                                         "weapons...)"))
    if "characteristics" in changes and "characteristics" in base:
        ch = V.mapping(changes["characteristics"], f, V.join(p, "characteristics"), set(CHARS))
        changes["characteristics"] = {**base["characteristics"], **ch}
    if "weapons" in changes and "ready" not in e:
        base.pop("ready", None)  # the template's ready weapons may not be among the new ones
    if "hit_locations" in changes:
        base.pop("locations", None)
    if "locations" in changes:
        base.pop("hit_locations", None)
    return name, SB.check_template({**base, **changes}, weapons(), f, p)


#: id(stat block) -> (the stat block, its location rows, its weapon rows): a template's parts are checked once
_PARTS: dict[int, tuple[Mapping[str, Any], tuple[Any, ...], list[dict[str, Any]]]] = {}


def _parts(t: Mapping[str, Any], f: str, p: str) -> tuple[tuple[Any, ...], list[dict[str, Any]]]:
    """The location rows and checked weapon rows of a stat block (memoised for the bestiary's own)."""
    hit = _PARTS.get(id(t))
    if hit is not None and hit[0] is t:
        return hit[1], hit[2]
    table = weapons()
    rows = SB.location_rows(t, f, p)
    wrows = [SB.weapon_row(w, table, f, V.join(p, "weapons", i)) for i, w in enumerate(t["weapons"])]
    if any(t is b for b in bestiary().values()) and len(_PARTS) < 4096:
        _PARTS[id(t)] = (t, rows, wrows)
    return rows, wrows


def rolls_dice(t: Mapping[str, Any]) -> bool:
    """Whether the stat block has a characteristic given as dice."""
    return any(isinstance(v, str) for v in t["characteristics"].values())


def make_combatant(
    template: str,
    entry: Mapping[str, Any],
    side: int,
    pos: float,
    options: Mapping[str, Any],
    f: str = "<scenario>",
    p: str = "",
    roll: SB.Roll | None = None,
) -> Combatant:
    """A combatant from its stat block (a bestiary template, with the entry's changes, or its own) and the
    scenario entry's overrides (name, ready, skills, armour, mp); ``roll`` rolls dice characteristics."""
    e = dict(entry)
    if template and "stat_block" not in e:
        e["template"] = template
    label, t = entry_template(e, f, p)
    ch = SB.roll_characteristics(t, roll)
    rows, wrows = _parts(t, f, p)
    names = [r.name for r in rows]
    armour = SB.armour_map(entry.get("armour", t.get("armour", 0)), names, f, V.join(p, "armour"))
    skills = dict(t.get("skills", {}))
    overrides = V.mapping(entry.get("skills", {}), f, V.join(p, "skills"))
    wnames = [w["name"] for w in wrows]
    for k, v in overrides.items():
        V.choice(k, f, V.join(p, "skills", k), set(wnames) | SKILL_KEYS, "skill")
        V.integer(v, f, V.join(p, "skills", k), 0, 200)
    skills.update({k: v for k, v in overrides.items() if k in SKILL_KEYS})
    total = t.get("hp") or calc.total_hp(ch["CON"], ch["SIZ"], ch["POW"])
    locs = [Location(spec) for spec in SB.location_specs(t, total, armour, f, p)]
    wlist = [Weapon(spec, spec.max_hp, spec.ammo)
             for spec in (SB.weapon_spec(w, overrides.get(w["name"])) for w in wrows)]
    ready_names = V.sequence(entry.get("ready", t.get("ready", [])), f, V.join(p, "ready"), what="weapon names")
    ready = 0
    for i, r in enumerate(ready_names):
        ready |= 1 << wnames.index(V.choice(r, f, V.join(p, "ready", i), wnames, "weapon"))
    for i, w in enumerate(wlist):
        if w.spec.hands == 0:
            ready |= 1 << i
    several, venom = SB.several_of(t.get("several_attacks", False), wlist), t.get("poison")
    max_mp = t.get("magic_points", ch["POW"])  # a creature without POW uses its MP (Bestiary Q&A)
    mp = V.integer(entry.get("mp", max_mp), f, V.join(p, "mp"), 0, 99)
    spec = CombatantSpec(
        template=label,
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
        loc_table=t.get("locations", "custom" if "hit_locations" in t else "humanoid"),
        several=several,
        poison_weapon=-1 if venom is None else wnames.index(venom["weapon"]),
        poison_potency=0 if venom is None else poison.potency_of(venom, ch["CON"]),
        poison_delay=0 if venom is None else venom.get("delay", poison.DELAY_ROUNDS),
    )
    name = entry.get("name", label)
    return Combatant(
        V.string(name, f, V.join(p, "name")),
        side,
        spec,
        Status.ACTIVE,
        total,
        total,
        mp,
        max_mp,
        t.get("rune_points", 0),
        pos,
        wlist,
        locs,
        ready,
        label,
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
            _, t = entry_template(e, f, p)
            if rolls_dice(t):
                out[DICE_KEY] = True
            if "position" in e:
                V.number(e["position"], f, f"{p}.position", -V.MAX_METRES, V.MAX_METRES)
            if "name" in e:
                V.string(e["name"], f, f"{p}.name")
    return out


def build_state(scenario: Mapping[str, Any], options: Mapping[str, Any], roll: SB.Roll | None = None) -> RQState:
    """The opening state (before round 1) of a validated scenario; ``roll`` rolls the characteristics given as
    dice (``(dice, why) -> total``)."""
    f = str(scenario.get("file", "<scenario>"))
    if "file" not in scenario:
        scenario = validate_scenario(dict(scenario), f)
    combatants = []
    for si, side in enumerate(scenario["sides"]):
        for ci, e in enumerate(side["combatants"]):
            pos = float(e.get("position", 0.0 if si == 0 else scenario["distance"]))
            who = str(e.get("name", e.get("template", "stat_block")))
            named = None if roll is None else (lambda d, c, who=who: roll(d, f"{who} {c}"))
            combatants.append(
                make_combatant(
                    e.get("template", ""), e, si, pos, options, f, f"sides[{si}].combatants[{ci}]", named
                )
            )
    surprised = scenario.get("surprised")
    return RQState(
        combatants, 0, scenario["max_rounds"], surprised=() if surprised is None else (surprised,),
        options=read_only(options),
    )
