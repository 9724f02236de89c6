"""OSE scenarios from YAML (contract §4, §8), below the engine and the situation loader (:mod:`.content` adds
the situations).

Scenario keys: ``name``, ``description``, ``max_rounds``, ``options`` (rules options), ``escape_distance``
(metres; a combatant moving away that ends farther than this from every enemy has fled; 0 = off),
``field_length`` (metres; 0 = unbounded; side 0 escapes off the 0 edge, side 1 off the far edge), ``cover``
(list of ``{at: metres, level: 1-4 | full}``), ``daylight`` (bool: full daylight, goblins −1 to hit),
``sides`` (side 0 first = the NPCs) each ``{name, combatants, morale_mod?}`` (morale_mod: the referee's
situational ML modifier −2..+2 for that side, §4);
a combatant is ``{template, name?, position? (metres), hp?, ammo?, weapon?, missile?, morale?, spells?,
str?, dex? (characters), immune?}``, or ``{stat_block: "AC 6 [13], HD 2 ...", name?, ...}`` (a monster by its
OSE stat line, :mod:`.statline`) instead of ``template``. A monster's fields may be overridden one by one:
``ac``, ``hd``, ``thac0``, ``movement``, ``saves``, ``damage``, ``attacks`` (numbers, or the stat line's
notation: ``ac: "4 [15]"``, ``movement: "120' (40')"``, ``attacks: "1 × claw (1d6)"``).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from npc_tactics.configs import system_dir
from npc_tactics.configs import validate as V
from npc_tactics.errors import ConfigError
from npc_tactics.i18n import Said
from npc_tactics.rules import loading
from npc_tactics.rules.base import EventSink, Status, ally_slots, enemy_slots
from npc_tactics.systems.ose.rules.actions import MAX_PER_SIDE
from npc_tactics.systems.ose.rules.options import SPEC
from npc_tactics.systems.ose.rules.state import Combatant, Field, OSEState
from npc_tactics.systems.ose.rules.tables import FULL_COVER, metres_to_squares
from npc_tactics.systems.ose.rules.templates import (
    CLASS_SPEC_KEYS,
    Template,
    character_template,
    make_template,
    stat_block_template,
)

SCENARIO_DIR = system_dir("ose") / "scenarios"
SCENARIO_KEYS = (
    "name",
    "description",
    "max_rounds",
    "options",
    "escape_distance",
    "field_length",
    "cover",
    "daylight",
    "sides",
)
SIDE_KEYS = ("name", "combatants", "morale_mod")
#: A monster's fields a combatant may override (the template's stat line is then no longer checked against them).
FIELD_OVERRIDES = ("ac", "hd", "thac0", "movement", "saves", "damage", "attacks")
#: monster abilities a combatant may add or change (rules/monster_abilities.py), and a character's weapon
ABILITY_OVERRIDES = ("hit_by", "halved", "regenerate", "regenerate_after", "regenerate_not", "revives",
                     "paralysis_spares", "magic_weapon", "silver_weapon", "undead", "humanoid", "fly", "breath", "gaze",
                     "effect_saves", "constrict", "swallow")
COMBATANT_KEYS: tuple[str, ...] = (
    "template",
    "stat_block",
    "name",
    "position",
    "hp",
    "ammo",
    "weapon",
    "missile",
    "morale",
    "spells",
    "str",
    "dex",
    "immune",
    *FIELD_OVERRIDES,
    *ABILITY_OVERRIDES,
)
#: a character given by class and level also takes the class kit's keys (``class``, ``level``, ``con``, ...)
COMBATANT_KEYS += tuple(key for key in CLASS_SPEC_KEYS if key not in COMBATANT_KEYS)
OVERRIDES = ("weapon", "missile", "ammo", "morale", "spells", "str", "dex", "immune", *FIELD_OVERRIDES,
             *ABILITY_OVERRIDES)
DEFAULT_MAX_ROUNDS = 30
DEFAULT_ESCAPE_M = 30.0


@dataclass(frozen=True, slots=True)
class CombatantSpec:
    name: str
    side: int
    template: Template
    position: int  #: square
    hp: int | str | None  #: override (fixed or dice); None = the template's


@dataclass(frozen=True, slots=True)
class Scenario:
    """A validated scenario: what :meth:`OSEEngine.new_combat` accepts."""

    name: str
    description: str
    max_rounds: int
    options: Mapping[str, Any]
    field: Field
    side_names: tuple[str, ...]
    combatants: tuple[CombatantSpec, ...]
    file: str = ""
    morale_mod: tuple[int, int] = (0, 0)  #: the referee's situational ML modifier per side (§4)
    extra: Mapping[str, Any] = dataclasses.field(default_factory=dict)


def list_scenarios() -> list[tuple[str, str]]:
    """Shipped scenarios: (name, one-line description)."""
    return loading.list_scenarios(SCENARIO_DIR)


def load_scenario(name_or_path: str) -> Scenario:
    """A shipped scenario by name, or a YAML file path; validated."""
    return loading.load_scenario(name_or_path, SCENARIO_DIR, parse_scenario)


def _cover(data: Any, file: str) -> tuple[tuple[int, int], ...]:
    if data is None:
        return ()
    out = []
    for k, item in enumerate(V.sequence(data, file, "cover", what="{at, level} entries")):
        p = V.join("cover", k)
        item = V.mapping(item, file, p, ("at", "level"), required=("at", "level"))
        level = item["level"]
        if level == "full":
            level = FULL_COVER
        elif isinstance(level, bool) or not isinstance(level, int) or not 1 <= level <= 4:
            raise ConfigError(file, V.join(p, "level"), Said("expected 1-4 or 'full', got {got}", got=repr(level)))
        out.append((metres_to_squares(V.number(item["at"], file, V.join(p, "at"), -V.MAX_METRES, V.MAX_METRES)), level))
    return tuple(out)


def parse_scenario(data: Any, file: str) -> Scenario:
    """Validate a scenario mapping (see the module docstring); errors name ``file`` and the field path."""
    data = V.mapping(data, file, "", SCENARIO_KEYS, required=("sides",))
    options = loading.read_options(SPEC, data.get("options") or {}, file)
    specs: list[CombatantSpec] = []
    names = []
    mods = []
    for s, side in enumerate(V.two_sides(data["sides"], file)):
        sp = V.join("sides", s)
        side = V.mapping(side, file, sp, SIDE_KEYS, required=("combatants",))
        names.append(V.string(side.get("name", f"side {s}"), file, V.join(sp, "name")))
        mods.append(V.integer(side.get("morale_mod", 0), file, V.join(sp, "morale_mod"), -2, 2))
        cp = V.join(sp, "combatants")
        members = V.sequence(side["combatants"], file, cp, 1, MAX_PER_SIDE, "combatants")
        for k, raw in enumerate(members):
            specs.append(_combatant(raw, s, k, file, V.join(cp, k), extra_keys=()))
    _unique_names(specs, file)
    length = V.number(data.get("field_length", 0.0), file, "field_length", 0.0, 2 * V.MAX_METRES)
    escape = V.number(data.get("escape_distance", DEFAULT_ESCAPE_M), file, "escape_distance", 0.0, 2 * V.MAX_METRES)
    fld = Field(
        length=metres_to_squares(length),
        escape=metres_to_squares(escape),
        cover=_cover(data.get("cover"), file),
        daylight=V.boolean(data.get("daylight", False), file, "daylight"),
    )
    return Scenario(
        name=V.string(data.get("name", Path(file).stem), file, "name"),
        description=V.string(data.get("description", ""), file, "description").strip(),
        max_rounds=V.integer(data.get("max_rounds", DEFAULT_MAX_ROUNDS), file, "max_rounds", 1, 1000),
        options=options,
        field=fld,
        side_names=tuple(names),
        combatants=tuple(specs),
        file=file,
        morale_mod=(mods[0], mods[1]),
    )


def _unique_names(specs: list[CombatantSpec], file: str) -> None:
    seen: set[str] = set()
    for s in specs:
        if s.name in seen:
            raise ConfigError(file, "sides", Said("two combatants are called {name}; give them distinct names",
                                                  name=repr(s.name)))
        seen.add(s.name)


def _combatant(
    raw: Any, side: int, k: int, file: str, path: str, extra_keys: tuple[str, ...]
) -> CombatantSpec:
    raw = V.mapping(raw, file, path, COMBATANT_KEYS + extra_keys)
    given = [key for key in ("template", "stat_block", "class") if key in raw]
    if len(given) > 1:
        raise ConfigError(file, V.join(path, given[1]), Said("give one of template (a bestiary name), stat_block "
                                                             "(an OSE stat line) or class and level, not several"))
    if not given:
        raise ConfigError(file, V.join(path, "template"), Said("missing required key (or give stat_block, an OSE "
                                                               "stat line, or class and level)"))
    overrides = {key: raw[key] for key in OVERRIDES if key in raw}
    if "class" in raw:
        placement = ("name", "position", "hp") + extra_keys  # the combatant's, not its class kit's
        spec = {key: value for key, value in raw.items() if key not in placement}
        tname, template = character_template(spec, file, path)
        default_name = f"{tname} {k + 1}" if side == 0 else f"{tname} #{k + 1}"
        name = V.string(raw.get("name", default_name), file, V.join(path, "name"))
    elif "stat_block" in raw:
        tname = "monster"
        default_name = f"{tname} {k + 1}" if side == 0 else f"{tname} #{k + 1}"
        name = V.string(raw.get("name", default_name), file, V.join(path, "name"))
        template = stat_block_template(_kind(name), raw["stat_block"], overrides, file, path)
    else:
        tname = V.string(raw["template"], file, V.join(path, "template"))
        template = make_template(
            tname, overrides or None, file, V.join(path, "template") if not overrides else path
        )
        default_name = f"{tname} {k + 1}" if side == 0 else f"{tname} #{k + 1}"
        name = V.string(raw.get("name", default_name), file, V.join(path, "name"))
    default_pos = (-k if side == 0 else 8 + k) * 1.5
    pos = V.number(raw.get("position", default_pos), file, V.join(path, "position"), -V.MAX_METRES, V.MAX_METRES)
    hp = V.dice(raw["hp"], file, V.join(path, "hp"), allow_int=True) if "hp" in raw else None
    return CombatantSpec(
        name=name,
        side=side,
        template=template,
        position=metres_to_squares(pos),
        hp=hp,
    )


def _kind(name: str) -> str:
    """What a stat-block monster is called in notes and logs: its name without the number (``Ghoul 2`` ->
    ``Ghoul``)."""
    return re.sub(r"\s*#?\d+$", "", name).strip() or name


def build_state(scenario: Scenario, options: Mapping[str, Any], sink: EventSink) -> OSEState:
    """Combatants at their positions with hit points rolled (minimum 1); round 1 not yet started."""
    cs = []
    for spec in scenario.combatants:
        t = spec.template
        hp_src = spec.hp if spec.hp is not None else t.hp
        hp = hp_src if isinstance(hp_src, int) else sink.roll(hp_src, "hit points").total
        hp = max(1, hp)
        cs.append(
            Combatant(
                spec.name,
                spec.side,
                t.profile.template,
                t.profile,
                Status.ACTIVE,
                hp,
                hp,
                spec.position,
                t.ammo,
                list(t.spells),
                scenario.field.cover_at(spec.position),
            )
        )
    state = OSEState(cs, 1, scenario.max_rounds, scenario.field, options, scenario.name)
    state.morale_mod = scenario.morale_mod
    state.enemies = tuple(tuple(enemy_slots(cs, i)) for i in range(len(cs)))
    state.allies = tuple(tuple(ally_slots(cs, i)) for i in range(len(cs)))
    state.recount()
    return state
