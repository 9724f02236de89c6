"""MRQ scenarios from YAML: validated into a :class:`Scenario`, what ``MRQEngine.new_combat`` takes."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from npc_tactics.configs import validate as V
from npc_tactics.errors import ConfigError
from npc_tactics.rules import loading
from npc_tactics.systems.mrq.rules.actions import MAX_PER_SIDE
from npc_tactics.systems.mrq.rules.bestiary import DIR, build_profile, load_bestiary, load_weapons
from npc_tactics.systems.mrq.rules.options import SPEC
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


def list_scenarios() -> list[tuple[str, str]]:
    """Shipped scenarios: (name, one-line description)."""
    return loading.list_scenarios(DIR / "scenarios")


def load_scenario(name_or_path: str) -> Scenario:
    """A shipped scenario by name or a YAML file path, validated."""
    return loading.load_scenario(name_or_path, DIR / "scenarios", scenario_from_mapping)


COMBATANT_KEYS = ("template", "name", "skill", "armour", "condition")


def sides_of(value: Any, file: str, extra_keys: tuple[str, ...] = ()) -> list[tuple[str, list[dict[str, Any]]]]:
    templates = load_bestiary()
    out = []
    for s, side in enumerate(V.two_sides(value, file)):
        sd = V.mapping(side, file, V.join("sides", s), ("name", "combatants"), ("combatants",))
        cp = V.join("sides", s, "combatants")
        entries = []
        for k, raw in enumerate(V.sequence(sd["combatants"], file, cp, 1, MAX_PER_SIDE, "combatants")):
            p = V.join(cp, k)
            e = V.mapping(raw, file, p, COMBATANT_KEYS + extra_keys, ("template",))
            V.choice(e["template"], file, f"{p}.template", sorted(templates), "template")
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
        ("name", "description", "max_rounds", "options", "distance", "range", "sides"),
        ("sides",),
    )
    templates, weapons = load_bestiary(), load_weapons()
    combatants: list[tuple[str, int, Profile]] = []
    names: set[str] = set()
    sides = sides_of(d["sides"], file)
    for s, (_, entries) in enumerate(sides):
        for e in entries:
            p = e["_path"]
            name = V.string(e.get("name", f"{e['template']}_{len(combatants)}"), file, f"{p}.name")
            if name in names:
                raise ConfigError(file, f"{p}.name", f"duplicate combatant name {name!r}")
            names.add(name)
            over: dict[str, Any] = {k: e[k] for k in ("skill", "armour", "condition") if k in e}
            prof = build_profile(e["template"], templates[e["template"]], file, p, weapons, over)
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
            raise ConfigError(file, "sides", f"at most {MAX_PER_SIDE} combatants a side, mounts included")
    return tuple(links)
