"""MRQ scenarios from YAML: validated into a :class:`Scenario`, what ``MRQEngine.new_combat`` takes."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from npc_tactics.configs import load_yaml, named_files, resolve_named
from npc_tactics.configs import validate as V
from npc_tactics.errors import ConfigError
from npc_tactics.rules.base import option_error
from npc_tactics.rules.mrq.actions import MAX_PER_SIDE
from npc_tactics.rules.mrq.bestiary import DIR, build_profile, load_bestiary, load_weapons
from npc_tactics.rules.mrq.options import DEFAULT_OPTIONS, SPEC
from npc_tactics.rules.mrq.state import Profile
from npc_tactics.rules.mrq.tables import DISTANCE_NAMES, MAX_GAP


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
    opts = V.mapping(value, file, path, tuple(DEFAULT_OPTIONS))
    for k, v in opts.items():
        if (err := option_error(SPEC, k, v)) is not None:
            raise ConfigError(file, f"{path}.{k}", err)
    return opts


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
        out.append((str(sd.get("name", f"side {s}")), entries))
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
    return Scenario(
        name=V.string(d.get("name", Path(file).stem), file, "name"),
        description=V.string(d.get("description", ""), file, "description"),
        max_rounds=V.integer(d.get("max_rounds", 20), file, "max_rounds", 1, 1000),
        options=_options(d.get("options", {}), file, "options"),
        distance=DISTANCE_NAMES.index(
            V.choice(d.get("distance", "long"), file, "distance", DISTANCE_NAMES, "distance")
        ),
        combatants=tuple(combatants),
        range=V.integer(d.get("range", 0), file, "range", 0, MAX_GAP),
        side_names=(sides[0][0], sides[1][0]),
    )
