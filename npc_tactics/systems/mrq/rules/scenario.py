"""MRQ scenarios from YAML: validated into a :class:`Scenario`, what ``MRQEngine.new_combat`` takes."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from npc_tactics.configs import validate as V
from npc_tactics.errors import ConfigError
from npc_tactics.i18n import Said
from npc_tactics.rules import loading
from npc_tactics.systems.mrq.rules.actions import MAX_PER_SIDE
from npc_tactics.systems.mrq.rules.bestiary import (
    DIR,
    SHIPPED_FILES,
    TEMPLATE_KEYS,
    build_profile,
    dice_characteristics,
    load_weapons,
)
from npc_tactics.systems.mrq.rules.options import SPEC
from npc_tactics.systems.mrq.rules.statblock_files import load_bestiary
from npc_tactics.systems.mrq.rules.state import Profile
from npc_tactics.systems.mrq.rules.tables import DISTANCE_NAMES, MAX_GAP


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
    range: int = 0  #: metres between the sides when they start apart (missiles, §11)
    #: (rider index, mount index): a rider's mount is a combatant of its own, added after everyone (§13)
    mounts: tuple[tuple[int, int], ...] = ()
    #: combatants whose characteristics are dice: (index, raw fields, file, path, overrides), rolled per fight
    #: (:func:`roll_characteristics`); their profile above uses the dice's averages
    rolled: tuple[tuple[int, Any, str, str, Mapping[str, Any]], ...] = ()
    #: per pair of opponents, where it differs from ``distance``: (a, b, distance, metres or -1) (A23: engagement
    #: is a pair's, e.g. a spearman engaged while a knight stands apart)
    distances: tuple[tuple[int, int, int, int], ...] = ()


def list_scenarios() -> list[tuple[str, str]]:
    """Shipped scenarios: (name, one-line description)."""
    return loading.list_scenarios(DIR / "scenarios")


def load_scenario(name_or_path: str) -> Scenario:
    """A shipped scenario by name or a YAML file path, validated."""
    return loading.load_scenario(name_or_path, DIR / "scenarios", scenario_from_mapping)


#: a combatant naming a template, with the few fields a scenario may adjust; or the GM's own creature:
#: ``stat_block`` (text in the book's layout or a mapping of template fields) or the template fields in full
OVERRIDE_KEYS = ("template", "name", "skill", "armour", "condition")
COMBATANT_KEYS = OVERRIDE_KEYS + ("stat_block",) + tuple(k for k in TEMPLATE_KEYS if k not in OVERRIDE_KEYS)


def sides_of(value: Any, file: str, extra_keys: tuple[str, ...] = ()) -> list[tuple[str, list[dict[str, Any]]]]:
    templates = load_bestiary()
    out = []
    for s, side in enumerate(V.two_sides(value, file)):
        sd = V.mapping(side, file, V.join("sides", s), ("name", "combatants"), ("combatants",))
        cp = V.join("sides", s, "combatants")
        entries = []
        for k, raw in enumerate(V.sequence(sd["combatants"], file, cp, 1, MAX_PER_SIDE, "combatants")):
            p = V.join(cp, k)
            own = tuple(k for k in COMBATANT_KEYS if k not in extra_keys)
            e = V.mapping(raw, file, p, own + extra_keys)
            if "template" in e:
                if not isinstance(e["template"], str) or e["template"] not in templates:
                    # the first bestiary file's names first: a long error line is cut short
                    first = sorted(load_bestiary(str(DIR / SHIPPED_FILES[0])))
                    names = first + sorted(set(templates) - set(first))
                    raise ConfigError(file, f"{p}.template", V.unknown("template", repr(e["template"]),
                                                                       ", ".join(names)))
                extra = [k for k in e if k not in OVERRIDE_KEYS + extra_keys]
                if extra:
                    raise ConfigError(file, f"{p}.{extra[0]}", Said("a combatant with a template may only adjust "
                                                                     "skill, armour and condition; leave template out "
                                                                     "to give the whole stat block"))
            else:
                e["_raw"] = inline_fields(e, extra_keys, file, p)
            e["_path"] = p
            entries.append(e)
        out.append((V.string(sd.get("name", f"side {s}"), file, V.join("sides", s, "name")), entries))
    return out


def scenario_from_mapping(data: Any, file: str = "<scenario>") -> Scenario:
    """Validate a scenario mapping (see docs/mrq.md, "Scenarios")."""
    d = V.mapping(
        data,
        file,
        "",
        ("name", "description", "max_rounds", "options", "distance", "range", "distances", "sides"),
        ("sides",),
    )
    templates, weapons = load_bestiary(), load_weapons()
    combatants: list[tuple[str, int, Profile]] = []
    rolled: list[tuple[int, Any, str, dict[str, Any]]] = []
    names: set[str] = set()
    sides = sides_of(d["sides"], file)
    for s, (_, entries) in enumerate(sides):
        for e in entries:
            p = e["_path"]
            tname = e.get("template", "stat_block")
            name = V.string(e.get("name", f"{tname}_{len(combatants)}"), file, f"{p}.name")
            if name in names:
                raise ConfigError(file, f"{p}.name", Said("duplicate combatant name {name}", name=repr(name)))
            names.add(name)
            if "_raw" in e:  # the GM's own stat block: its fields in full, named after the combatant
                raw, over = e["_raw"], {"condition": e["condition"]} if "condition" in e else {}
                tname = name
            else:
                raw, over = templates[tname], {k: e[k] for k in ("skill", "armour", "condition") if k in e}
            prof = build_profile(tname, raw, file, p, weapons, over)
            if dice_characteristics(raw):
                rolled.append((len(combatants), raw, p, over))
            combatants.append((name, s, prof))
    mounts = add_mounts(combatants, templates, weapons, file)
    return Scenario(
        name=V.string(d.get("name", Path(file).stem), file, "name"),
        description=V.string(d.get("description", ""), file, "description"),
        max_rounds=V.integer(d.get("max_rounds", 20), file, "max_rounds", 1, 1000),
        options=loading.read_options(SPEC, d.get("options", {}), file),
        distance=DISTANCE_NAMES.index(
            V.choice(d.get("distance", "long"), file, "distance", DISTANCE_NAMES, "distance")
        ),
        combatants=tuple(combatants),
        range=V.integer(d.get("range", 0), file, "range", 0, MAX_GAP),
        side_names=(sides[0][0], sides[1][0]),
        mounts=mounts,
        rolled=tuple((i, raw, file, p, over) for i, raw, p, over in rolled),
        distances=pair_distances(d.get("distances", []), combatants, file),
    )


def add_mounts(
    combatants: list[tuple[str, int, Profile]], templates: Mapping[str, Any], weapons: Any, file: str
) -> tuple[tuple[int, int], ...]:
    """Append each rider's mount (its bestiary template, full HP) to ``combatants``; return the links. The
    mounts come after every described combatant so the indices of the described ones do not move."""
    links = []
    for i, (name, side, prof) in enumerate(list(combatants)):
        if not prof.mount_template:
            continue
        t = prof.mount_template
        mprof = build_profile(t, templates[t], file, f"templates.{t}", weapons)
        combatants.append((f"{name}'s {t}", side, mprof))
        links.append((i, len(combatants) - 1))
    for s in (0, 1):
        if sum(1 for c in combatants if c[1] == s) > MAX_PER_SIDE:
            raise ConfigError(file, "sides", Said("at most {n} combatants a side, mounts included", n=MAX_PER_SIDE))
    return tuple(links)


def inline_fields(e: Mapping[str, Any], extra_keys: tuple[str, ...], file: str, p: str) -> dict[str, Any]:
    """The template fields of a combatant without ``template``: its ``stat_block`` (text or mapping), completed by
    the entry's own template fields."""
    from npc_tactics.systems.mrq.rules.statblock_files import expand

    fields = {k: v for k, v in e.items() if k not in ("name", "condition", "template") + extra_keys}
    if not fields:
        raise ConfigError(file, p, Said("expected template (a bestiary name), stat_block, or the stat block's "
                                        "fields"))
    return expand(fields, file, p)


def roll_characteristics(scen: Scenario, roll: Callable[[int, str, str], int]) -> Scenario:
    """``scen`` with the profiles of its dice-characteristic combatants rebuilt from rolled characteristics;
    ``roll(index, expression, characteristic)`` rolls one (the fight's roller, so the seed decides)."""
    if not scen.rolled:
        return scen
    combatants = list(scen.combatants)
    weapons = load_weapons()
    for i, raw, file, path, over in scen.rolled:
        name, side, prof = combatants[i]

        def one(expr: str, key: str, i: int = i) -> int:
            return roll(i, expr, key)

        combatants[i] = (name, side, build_profile(prof.template, raw, file, path, weapons, over, one))
    return replace(scen, combatants=tuple(combatants))


def pair_distances(
    value: Any, combatants: list[tuple[str, int, Profile]], file: str
) -> tuple[tuple[int, int, int, int], ...]:
    """``distances: [{a, b, distance, metres?}]`` (as in situations): one pair of opponents' own band."""
    by_name = {name: i for i, (name, _, _) in enumerate(combatants)}
    out = []
    for k, raw in enumerate(V.sequence(value or [], file, "distances", 0, 100, "distances")):
        p = f"distances[{k}]"
        dd = V.mapping(raw, file, p, ("a", "b", "distance", "metres"), ("a", "b", "distance"))
        a = by_name[V.choice(dd["a"], file, f"{p}.a", sorted(by_name), "combatant")]
        b = by_name[V.choice(dd["b"], file, f"{p}.b", sorted(by_name), "combatant")]
        if combatants[a][1] == combatants[b][1]:
            raise ConfigError(file, f"{p}.b", Said("{b} is on the side of {a}: distances are between opponents",
                                                   b=repr(dd["b"]), a=repr(dd["a"])))
        band = DISTANCE_NAMES.index(V.choice(dd["distance"], file, f"{p}.distance", DISTANCE_NAMES, "distance"))
        metres = -1
        if "metres" in dd:
            if band != DISTANCE_NAMES.index("apart"):
                raise ConfigError(file, f"{p}.metres", Said("metres only apply when apart"))
            metres = V.integer(dd["metres"], file, f"{p}.metres", 0, MAX_GAP)
        out.append((a, b, band, metres))
    return tuple(out)
