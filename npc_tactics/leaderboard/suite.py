"""A leaderboard suite: which agents meet on which scenarios of which systems, and for how many fights.

A suite is one YAML file, read with the project's strict loader and validated field by field (an error names
the file, the field and what was expected). Either one system at the top level::

    name: ose
    question: When does a wounded NPC leave the fight, and does it pay?
    system: ose
    scenarios: [goblin_duel, losing_band]      # names, YAML paths, or {name: ..., options: {...}}
    agents: [by-the-book, aggressive, cautious]
    fights: 100                                 # per ordered pairing and scenario (paired seeds)
    seed: 0

A section may also (or instead) list ``encounters:``: encounter distributions of its system (a shipped name
such as ``generalist`` or a YAML path; fight seed ``s`` plays the encounter drawn from seed ``2**33 + s``) or
held-out sets (``heldout:generalist``; fight seed ``s`` plays fight ``s mod size`` of the set). Each is a
"scenario" of the report, labelled ``encounters:NAME`` or ``heldout:NAME``, its fights begun with the drawn
wounds and spent resources (:class:`npc_tactics.rollouts.FromEncounter`).

or several under ``sections:`` (a cross-system suite), each with its own ``system``, ``scenarios``, ``agents``
and optional ``options`` / ``seats`` / ``label``. Agents are what ``evaluate --agents`` takes (scripted names,
trained run folders, ``card:BUNDLE``) and policy bundle folders; a relative path is read from the suite's folder
first, then from the working directory.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from npc_tactics.configs.validate import (
    choice,
    integer,
    mapping,
    sequence,
    string,
)
from npc_tactics.errors import ConfigError, UnknownNameError, UserError
from npc_tactics.limits import MAX_AGENTS, MAX_FIGHTS, SEED_MAX
from npc_tactics.plugin import System

__all__ = ["MAX_SUITE_FIGHTS", "Scenario", "Section", "Suite", "load_suite", "parse_suite"]

#: Most fights one suite may ask for, all sections, scenarios and pairings together (a typo in ``fights``
#: must not start a week-long run).
MAX_SUITE_FIGHTS = 20_000_000
MAX_SECTIONS = 16
MAX_SCENARIOS = 32

SECTION_KEYS = ("system", "label", "scenarios", "encounters", "agents", "options", "seats")
TOP_KEYS = ("name", "question", "description", "fights", "seed", "sections", *SECTION_KEYS)


#: kinds of a section's starts: a scenario, an encounter distribution, a held-out encounter set
KINDS = ("scenario", "encounters", "heldout")


@dataclass(frozen=True, slots=True)
class Scenario:
    """One start of a section: a scenario's name (or YAML path) and rules options over the section's, or (by
    ``kind``) an encounter distribution or held-out set of the section's system."""

    name: str
    options: dict[str, Any] = field(default_factory=dict)
    kind: str = "scenario"

    @property
    def label(self) -> str:
        stem = Path(self.name).stem if self.name.endswith((".yaml", ".yml")) else self.name
        return stem if self.kind == "scenario" else f"{self.kind}:{stem}"


@dataclass(frozen=True, slots=True)
class Section:
    """One system's round robin: every scenario, every ordered pair of agents that may take those seats."""

    system: str
    label: str
    scenarios: tuple[Scenario, ...]
    agents: tuple[str, ...]
    options: dict[str, Any]
    seats: dict[str, int]
    where: str = ""  #: the field path prefix of this section in its file (``sections[1].``), for errors

    @property
    def plugin(self) -> System:
        """The section's system (``system`` is its name, checked when the suite was read)."""
        from npc_tactics.registry import get_system

        return get_system(self.system)


@dataclass(frozen=True, slots=True)
class Suite:
    name: str
    question: str
    description: str
    fights: int
    seed: int
    sections: tuple[Section, ...]
    path: str

    def with_fights(self, fights: int) -> Suite:
        """The same suite with another fight budget (``--fights``), checked like the file's."""
        _check_budget(self.path, "fights", fights, self.sections)
        return Suite(self.name, self.question, self.description, fights, self.seed, self.sections, self.path)


def _agent_spec(raw: Any, file: str, fld: str, system: System, base: Path) -> str:
    """A scripted name of ``system``, ``card:DIR``, a bundle folder, a run folder or ``search:`` over one of
    them (``@BUDGET`` kept); paths resolved."""
    from npc_tactics.agents import agent_entries
    from npc_tactics.agents.resolve import is_search_spec, parse_search_spec

    spec = string(raw, file, fld, non_empty=True).strip()
    if spec in agent_entries(system):
        return spec
    if is_search_spec(spec):
        try:
            inner, budget = parse_search_spec(spec)
        except ConfigError as exc:
            raise ConfigError(file, fld, f"{spec}: {exc.message}") from None
        return f"search:{_agent_spec(inner, file, fld, system, base)}" + ("" if budget is None else f"@{budget}")
    prefix = "card:" if spec.startswith("card:") else ""
    target = spec.removeprefix(prefix)
    path = Path(target)
    if not prefix and "/" not in target and "\\" not in target and not target.startswith(".") and not path.exists():
        raise ConfigError(file, fld, str(UnknownNameError("agent", spec, agent_entries(system)))
                          + " (or a run folder, a bundle folder, card:BUNDLE)")
    if not path.is_absolute() and (base / path).exists():
        path = base / path
    if not path.is_dir():
        raise ConfigError(file, fld, f"{spec!r} is not a scripted {system.name} agent and no folder {path} exists")
    return prefix + str(path)


def _scenario(raw: Any, file: str, fld: str, known: list[str], base: Path) -> Scenario:
    options: dict[str, Any] = {}
    if isinstance(raw, dict):
        raw = mapping(raw, file, fld, allowed=("name", "options"), required=("name",))
        options = mapping(raw.get("options", {}), file, f"{fld}.options")
        raw = raw["name"]
    name = string(raw, file, fld, non_empty=True)
    if name.endswith((".yaml", ".yml")):
        path = Path(name)
        if not path.is_absolute() and (base / path).is_file():
            path = base / path
        if not path.is_file():
            raise ConfigError(file, fld, f"scenario file {name} not found")
        return Scenario(str(path), options)
    choice(name, file, fld, known, "scenario")
    return Scenario(name, options)


def _encounter(raw: Any, file: str, fld: str, system: System, base: Path) -> Scenario:
    """``NAME`` / a YAML path (a distribution) or ``heldout:NAME`` (a shipped held-out set), checked now."""
    from npc_tactics.encounters.heldout import heldout_path
    from npc_tactics.encounters.spec import load_encounter

    name = string(raw, file, fld, non_empty=True).strip()
    if name.startswith("heldout:"):
        dist = name.removeprefix("heldout:")
        if not heldout_path(system, dist).is_file():
            folder = heldout_path(system, dist).parent
            have = sorted(p.stem for p in folder.glob("*.yaml")) if folder.is_dir() else []
            raise ConfigError(file, fld, f"no held-out set {dist!r} for {system.name}; "
                              f"expected one of: {', '.join(have) or '(none)'}")
        return Scenario(dist, {}, "heldout")
    if name.endswith((".yaml", ".yml")) and not Path(name).is_absolute() and (base / name).is_file():
        name = str(base / name)
    try:
        load_encounter(name, system)
    except (ConfigError, UserError) as exc:
        raise ConfigError(file, fld, str(exc)) from None
    return Scenario(name, {}, "encounters")


def _section(raw: dict[str, Any], file: str, fld: str, base: Path) -> Section:
    from npc_tactics.registry import available_systems, get_system

    def at(key: str) -> str:
        return f"{fld}.{key}" if fld else key

    system = choice(raw.get("system"), file, at("system"), list(available_systems()), "system")
    plugin = get_system(system)  # the one place a section's system is resolved
    content = plugin.load("content")
    known = [name for name, _ in content.list_scenarios()]
    if "scenarios" not in raw and "encounters" not in raw:
        raise ConfigError(file, at("scenarios"), "expected scenarios:, encounters: or both")
    scen_raw = sequence(raw["scenarios"], file, at("scenarios"), 1, MAX_SCENARIOS, "scenarios") \
        if "scenarios" in raw else []
    enc_raw = sequence(raw["encounters"], file, at("encounters"), 1, MAX_SCENARIOS, "encounters") \
        if "encounters" in raw else []
    scenarios = tuple(_scenario(s, file, f"{at('scenarios')}[{i}]", known, base) for i, s in enumerate(scen_raw))
    scenarios += tuple(_encounter(e, file, f"{at('encounters')}[{i}]", plugin, base)
                       for i, e in enumerate(enc_raw))
    labels = [s.label for s in scenarios]
    if len(set(labels)) != len(labels):
        raise ConfigError(file, at("scenarios"), f"each scenario may appear once; got {', '.join(labels)}")
    agent_raw = sequence(raw.get("agents"), file, at("agents"), 2, MAX_AGENTS, "agents")
    agents = tuple(_agent_spec(a, file, f"{at('agents')}[{i}]", plugin, base) for i, a in enumerate(agent_raw))
    if len(set(agents)) != len(agents):
        dup = sorted({a for a in agents if agents.count(a) > 1})
        raise ConfigError(file, at("agents"), f"each agent may appear once; repeated: {', '.join(dup)}")
    options = mapping(raw.get("options", {}), file, at("options"))
    seats_raw = mapping(raw.get("seats", {}), file, at("seats"))
    raw_agents = [str(a).strip() for a in agent_raw]
    seats: dict[str, int] = {}
    for key, value in seats_raw.items():
        if key not in raw_agents:
            raise ConfigError(file, f"{at('seats')}.{key}", f"not one of the agents: {', '.join(raw_agents)}")
        seats[agents[raw_agents.index(key)]] = integer(value, file, f"{at('seats')}.{key}", 0, 1)
    label = string(raw.get("label", system), file, at("label"), non_empty=True)
    return Section(system, label, scenarios, agents, options, seats, f"{fld}." if fld else "")


def _check_budget(file: str, fld: str, fights: Any, sections: tuple[Section, ...]) -> int:
    fights = integer(fights, file, fld, 1, MAX_FIGHTS)
    total = sum(len(s.scenarios) * len(s.agents) * len(s.agents) * fights for s in sections)
    if total > MAX_SUITE_FIGHTS:
        raise ConfigError(file, fld, f"{fights} fights per pairing make up to {total:,} fights in this suite; "
                          f"at most {MAX_SUITE_FIGHTS:,} (lower fights or the number of agents)")
    return fights


def parse_suite(data: Any, file: str, base: Path | None = None) -> Suite:
    """Validate a suite document (the parsed YAML of ``file``); relative paths are read from ``base``."""
    base = base if base is not None else Path(file).parent
    top = mapping(data, file, "", allowed=TOP_KEYS, required=("fights",))
    if "sections" in top:
        clash = [k for k in SECTION_KEYS if k in top]
        if clash:
            raise ConfigError(file, clash[0], "give either sections: or one system at the top level, not both")
        raw_sections = sequence(top["sections"], file, "sections", 1, MAX_SECTIONS, "sections")
        sections = tuple(
            _section(mapping(s, file, f"sections[{i}]", allowed=SECTION_KEYS, required=("system",)),
                     file, f"sections[{i}]", base)
            for i, s in enumerate(raw_sections)
        )
    else:
        mapping(top, file, "", required=("system",))
        sections = (_section({k: v for k, v in top.items() if k in SECTION_KEYS}, file, "", base),)
    labels = [s.label for s in sections]
    if len(set(labels)) != len(labels):
        raise ConfigError(file, "sections", f"section labels must differ (add label:); got {', '.join(labels)}")
    fights = _check_budget(file, "fights", top["fights"], sections)
    seed = integer(top.get("seed", 0), file, "seed", 0, SEED_MAX - fights)
    name = string(top.get("name", Path(file).stem), file, "name", non_empty=True)
    question = string(top.get("question", ""), file, "question")
    description = string(top.get("description", ""), file, "description")
    return Suite(name, question, description, fights, seed, sections, file)


def load_suite(path: str | Path) -> Suite:
    """Read and validate a suite file (a shipped suite's name such as ``ose`` also works)."""
    from npc_tactics.configs import load_yaml

    p = Path(path)
    if not p.exists() and not p.suffix:
        shipped = Path(__file__).resolve().parents[1] / "configs" / "suites" / f"{p.name}.yaml"
        if shipped.is_file():
            p = shipped
    return parse_suite(load_yaml(p), str(path), p.parent)
