"""An encounter distribution, read from YAML and validated (file, field, what was expected).

Shipped distributions live in ``systems/<system>/content/encounters/<name>.yaml``; the schema (docs/encounters.md)::

    name: generalist
    description: ...
    system: ose
    sides:                          # side 0 = the NPCs the policy plays, side 1 = their opponents
      - size: [1, 4]                # how many combatants, drawn uniformly
        templates: {goblin: 3, orc: 2}   # template -> weight
        at_most: {orc: 1}           # optional: no more than this many of a template on the side
      - size: [1, 4]
        templates: {fighter_1: 3, cleric_1: 1}
    budget: [0.5, 1.6]              # side 1's threat / side 0's, drawn uniformly; side 1 is filled to it
    distance: [3, 24]               # metres between the front ranks (uniform, to 0.5 m)
    max_rounds: 20
    variants:                       # optional equipment variants per template (entry overrides, weighted)
      fighter_1: [{weight: 3}, {weight: 1, set: {weapon: spear}}]
    wounds: {chance: 0.3, fraction: [0.1, 0.6]}   # per combatant: wounded with `chance`, by that share of HP
    spent: {chance: 0.3, fraction: [0.2, 1.0]}    # per combatant: that share of its resources used up
    midfight: {chance: 0.25, decisions: [2, 12]}  # optional: with `chance`, the fight starts after that many
                                    # opening decisions were played (random legal moves; encounters.midfight)
    options:                        # rules options drawn per fight: option -> [{value, weight}]
      individual_initiative: [{value: false, weight: 3}, {value: true, weight: 1}]
    scenarios:                      # optional: mix the system's shipped scenarios into training draws
      share: 0.2                    # this share of draws is a shipped scenario (never in held-out sets)
      weights: {goblin_duel: 1, goblin_band: 1}
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from npc_tactics.configs import load_yaml, named_files, resolve_named, system_dir
from npc_tactics.configs import validate as V
from npc_tactics.encounters.compose import MAX_PER_SIDE, adapter, check_template, resolved, scenario_mapping, templates
from npc_tactics.errors import ConfigError, UnknownNameError
from npc_tactics.plugin import System
from npc_tactics.registry import DEFAULT_SYSTEM, get_system

KEYS = ("name", "description", "system", "sides", "budget", "distance", "max_rounds", "variants", "wounds",
        "spent", "midfight", "options", "scenarios")
#: the most opening decisions a mid-fight start plays (``midfight.decisions``, an encounter's ``warmup``)
MAX_WARMUP = 500
Range = tuple[float, float]


@dataclass(frozen=True)
class SideSpec:
    size: tuple[int, int]
    templates: tuple[tuple[str, float], ...]  #: (template, weight), weights > 0
    #: (template, most on the side): a capped template leaves the draw once the side holds that many (a rider
    #: and its mount are two combatants, so a side of riders can overflow the engine's six a side)
    at_most: tuple[tuple[str, int], ...] = ()

    def allowed(self, drawn: list[str]) -> list[tuple[str, float]]:
        """The (template, weight) pairs still drawable once ``drawn`` is on the side (all, without caps)."""
        if not self.at_most:
            return list(self.templates)
        caps = dict(self.at_most)
        return [(t, w) for t, w in self.templates if t not in caps or drawn.count(t) < caps[t]]


@dataclass(frozen=True)
class WearSpec:
    chance: float = 0.0
    fraction: Range = (0.0, 0.0)


@dataclass(frozen=True)
class MidfightSpec:
    """Mid-fight starts: with probability ``chance`` a draw starts after a number of opening decisions drawn
    uniformly in ``decisions`` (inclusive) were played (:mod:`npc_tactics.encounters.midfight`)."""

    chance: float = 0.0
    decisions: tuple[int, int] = (0, 0)


@dataclass(frozen=True)
class EncounterSpec:
    """A validated encounter distribution (what :class:`~npc_tactics.encounters.generator.Generator` draws
    from)."""

    name: str
    system: str
    sides: tuple[SideSpec, SideSpec]
    budget: Range
    distance: Range
    max_rounds: int
    description: str = ""
    variants: Mapping[str, tuple[tuple[Mapping[str, Any], float], ...]] = field(default_factory=dict)
    wounds: WearSpec = WearSpec()
    spent: WearSpec = WearSpec()
    midfight: MidfightSpec = MidfightSpec()
    options: tuple[tuple[str, tuple[tuple[Any, float], ...]], ...] = ()
    #: the share of training draws that are shipped scenarios instead (held-out sets never are), and their weights
    scenario_share: float = 0.0
    scenarios: tuple[tuple[str, float], ...] = ()
    file: str = "<encounter>"

    @property
    def plugin(self) -> System:
        """The distribution's system (its ``system`` is the name the file gives, checked when it was read)."""
        return get_system(self.system)


def encounter_dir(system: str | System) -> Path:
    return system_dir(resolved(system).name) / "encounters"


def list_encounters(system: str | System) -> list[tuple[str, str]]:
    """Shipped distributions of ``system``: (name, one-line description)."""
    out = []
    for name, path in named_files(encounter_dir(system)).items():
        data = load_yaml(path)
        out.append((name, str(data.get("description", "")).strip() if isinstance(data, dict) else ""))
    return out


def load_encounter(name_or_path: str | Path, system: str | System | None = None) -> EncounterSpec:
    """A distribution by shipped name (of ``system``, the System or its name) or YAML path, validated. A file of
    another system than ``system`` is refused naming both."""
    plugin = resolved(system) if system is not None else None
    if plugin is not None and not Path(name_or_path).suffix and not Path(name_or_path).exists():
        folder = encounter_dir(plugin)
        names = named_files(folder)
        if str(name_or_path) not in names:
            raise UnknownNameError(f"{plugin.name} encounter distribution", str(name_or_path), names)
        path = names[str(name_or_path)]
    else:
        path = resolve_named(name_or_path, encounter_dir(plugin or DEFAULT_SYSTEM), "encounter distribution")
    spec = parse_encounter(load_yaml(path), str(path))
    if plugin is not None and spec.system != plugin.name:
        raise ConfigError(str(path), "system", f"this distribution is for {spec.system}, not {plugin.name}")
    return spec


def _range(value: Any, file: str, path: str, low: float, high: float, integer: bool = False) -> Range:
    """``[lo, hi]`` (or one number: lo = hi) within low..high, lo <= hi."""
    if not isinstance(value, list):
        value = [value, value]
    if len(value) != 2:
        raise ConfigError(file, path, f"expected [low, high], got a list of {len(value)}")
    read = V.integer if integer else V.number
    lo, hi = (float(read(v, file, V.join(path, k), low, high)) for k, v in enumerate(value))  # type: ignore[arg-type]
    if lo > hi:
        raise ConfigError(file, path, f"expected low <= high, got [{lo:g}, {hi:g}]")
    return lo, hi


def _weights(value: Any, file: str, path: str) -> float:
    return V.number(value, file, path, 0.0, 1e6)


def _side(system: System, raw: Any, file: str, path: str) -> SideSpec:
    d = V.mapping(raw, file, path, ("size", "templates", "at_most"), ("templates",))
    lo, hi = _range(d.get("size", [1, 1]), file, V.join(path, "size"), 1, MAX_PER_SIDE, integer=True)
    table = V.mapping(d["templates"], file, V.join(path, "templates"))
    if not table:
        raise ConfigError(file, V.join(path, "templates"), "expected at least one template")
    pairs = []
    for name, w in table.items():
        p = V.join(path, "templates", str(name))
        pairs.append((check_template(system, name, file, p), _weights(w, file, p)))
    if sum(w for _, w in pairs) <= 0:
        raise ConfigError(file, V.join(path, "templates"), "expected at least one weight above 0")
    caps = []
    for name, n in V.mapping(d.get("at_most") or {}, file, V.join(path, "at_most")).items():
        p = V.join(path, "at_most", str(name))
        if name not in dict(pairs):
            raise ConfigError(file, p, f"expected a template of this side's `templates`, got {name!r}")
        caps.append((str(name), V.integer(n, file, p, 0, MAX_PER_SIDE)))
    capped = dict(caps)
    room = sum(MAX_PER_SIDE if t not in capped else capped[t] for t, w in pairs if w > 0)
    if room < lo:
        raise ConfigError(file, V.join(path, "at_most"),
                          f"expected room for the side's smallest size {int(lo)}; the caps allow {room}")
    return SideSpec((int(lo), int(hi)), tuple(pairs), tuple(caps))


def _wear(raw: Any, file: str, path: str) -> WearSpec:
    if raw is None:
        return WearSpec()
    d = V.mapping(raw, file, path, ("chance", "fraction"), ("chance", "fraction"))
    return WearSpec(V.number(d["chance"], file, V.join(path, "chance"), 0.0, 1.0),
                    _range(d["fraction"], file, V.join(path, "fraction"), 0.0, 1.0))


def _midfight(raw: Any, file: str) -> MidfightSpec:
    if raw is None:
        return MidfightSpec()
    d = V.mapping(raw, file, "midfight", ("chance", "decisions"), ("chance", "decisions"))
    chance = V.number(d["chance"], file, "midfight.chance", 0.0, 1.0)
    lo, hi = _range(d["decisions"], file, "midfight.decisions", 1, MAX_WARMUP, integer=True)
    return MidfightSpec(chance, (int(lo), int(hi)))


def _variants(system: System, raw: Any, file: str) -> dict[str, tuple[tuple[Mapping[str, Any], float], ...]]:
    out: dict[str, tuple[tuple[Mapping[str, Any], float], ...]] = {}
    for tname, items in V.mapping(raw or {}, file, "variants").items():
        p = V.join("variants", str(tname))
        check_template(system, tname, file, p)
        entries = []
        for k, item in enumerate(V.sequence(items, file, p, 1, 32, "variants")):
            ip = V.join(p, k)
            d = V.mapping(item, file, ip, ("weight", "set"))
            overrides = V.mapping(d.get("set", {}), file, V.join(ip, "set"))
            for bad in ("template", "name", "position"):
                if bad in overrides:
                    raise ConfigError(file, V.join(ip, "set", bad), "a variant changes equipment, not this")
            try:  # the system's own parser checks the overrides (weapon names, armour, skills...)
                data = scenario_mapping(system, [[(tname, 1)], [(tname, 1)]], extras=[[overrides]])
                adapter(system).parse(data, "<variant>")
            except ConfigError as exc:
                raise ConfigError(file, V.join(ip, "set"), exc.message) from None
            entries.append((overrides, _weights(d.get("weight", 1), file, V.join(ip, "weight"))))
        out[str(tname)] = tuple(entries)
    return out


def _options(system: System, raw: Any, file: str) -> tuple[tuple[str, tuple[tuple[Any, float], ...]], ...]:
    out = []
    for key, items in V.mapping(raw or {}, file, "options").items():
        p = V.join("options", str(key))
        choices = []
        for k, item in enumerate(V.sequence(items, file, p, 1, 32, "{value, weight} entries")):
            ip = V.join(p, k)
            d = V.mapping(item, file, ip, ("value", "weight"), ("value",))
            try:
                system.make_engine({str(key): d["value"]})
            except (ValueError, TypeError) as exc:
                raise ConfigError(file, V.join(ip, "value"), str(exc)) from None
            choices.append((d["value"], _weights(d.get("weight", 1), file, V.join(ip, "weight"))))
        out.append((str(key), tuple(choices)))
    return tuple(out)


def _scenarios(system: System, raw: Any, file: str) -> tuple[float, tuple[tuple[str, float], ...]]:
    if raw is None:
        return 0.0, ()
    d = V.mapping(raw, file, "scenarios", ("share", "weights"), ("share", "weights"))
    share = V.number(d["share"], file, "scenarios.share", 0.0, 1.0)
    shipped = [n for n, _ in system.load("content").list_scenarios()]
    pairs = []
    for name, w in V.mapping(d["weights"], file, "scenarios.weights").items():
        p = V.join("scenarios.weights", str(name))
        pairs.append((V.choice(name, file, p, shipped, "scenario"), _weights(w, file, p)))
    if share > 0 and sum(w for _, w in pairs) <= 0:
        raise ConfigError(file, "scenarios.weights", "expected at least one weight above 0 when share > 0")
    return share, tuple(pairs)


def parse_encounter(data: Any, file: str) -> EncounterSpec:
    """Validate a distribution mapping (see the module docstring)."""
    d = V.mapping(data, file, "", KEYS, ("system", "sides"))
    try:  # the one place a distribution file's system is resolved
        plugin = get_system(V.string(d["system"], file, "system"))
    except UnknownNameError as exc:
        raise ConfigError(file, "system", str(exc)) from None
    system = plugin.name
    raw_sides = V.two_sides(d["sides"], file)
    sides = (_side(plugin, raw_sides[0], file, "sides[0]"), _side(plugin, raw_sides[1], file, "sides[1]"))
    assert templates(plugin)  # the bestiary loads
    share, scenarios = _scenarios(plugin, d.get("scenarios"), file)
    return EncounterSpec(
        name=V.string(d.get("name", Path(file).stem), file, "name", non_empty=True),
        system=system,
        sides=sides,
        budget=_range(d.get("budget", [1.0, 1.0]), file, "budget", 0.05, 20.0),
        distance=_range(d.get("distance", [2.0, 12.0]), file, "distance", 0.0, 200.0),
        max_rounds=V.integer(d.get("max_rounds", 20), file, "max_rounds", 1, 200),
        description=str(d.get("description", "")).strip(),
        variants=_variants(plugin, d.get("variants"), file),
        wounds=_wear(d.get("wounds"), file, "wounds"),
        spent=_wear(d.get("spent"), file, "spent"),
        midfight=_midfight(d.get("midfight"), file),
        options=_options(plugin, d.get("options"), file),
        scenario_share=share,
        scenarios=scenarios,
        file=file,
    )
