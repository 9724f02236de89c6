"""Probe files: situations (the GM-query format ``suggest`` reads) where the best move is found by brute force.

A probe file (``systems/<system>/content/probes/*.yaml``) names its system and a list of probes::

    system: runequest
    rollouts: 200                 # per legal move (optional; --rollouts overrides)
    seed: 0                       # of the rollouts (optional)
    probes:
      - name: dodge_the_maul
        tactic: dodge vs parry    # what the probe measures (groups the report)
        why: why the rules make the best move best
        measure: win              # win (the NPC side wins) or survival (the acting NPC ends on its feet or away)
        continuations:            # who plays the rest of the fight; the first is the reference
          - {npc: by-the-book, other: by-the-book}
          - {npc: agent, other: aggressive}    # `agent`: the probed agent plays on
        changes_with_continuation: false       # the file's claim; the report checks it
        tolerance: 0              # points of the measure a move may lag the best by and still pass (0-25)
        situation: {...}          # a situation mapping, or a path relative to the probe file

Every field is checked; an error names the file and the field (``configs.validate``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from npc_tactics.configs import named_files, system_dir
from npc_tactics.configs.validate import (
    boolean,
    choice,
    document,
    integer,
    join,
    mapping,
    sequence,
    string,
)
from npc_tactics.errors import ConfigError, UnknownNameError
from npc_tactics.plugin import System
from npc_tactics.registry import available_systems, get_system

__all__ = ["AGENT", "MEASURES", "Continuation", "Probe", "ProbeFile", "load_probe_file", "probe_files"]

#: In a continuation, the probed agent itself.
AGENT = "agent"
MEASURES = ("win", "survival")
_TOP = ("system", "description", "rollouts", "seed", "options", "probes")
_PROBE = ("name", "tactic", "why", "measure", "continuations", "changes_with_continuation", "tolerance", "situation")
MAX_ROLLOUTS = 100_000
#: Most points of the measure a probe may forgive (a larger tolerance would pass moves that are plainly worse).
MAX_TOLERANCE = 25


@dataclass(frozen=True)
class Continuation:
    """Who plays the rest of the fight: ``npc`` the acting NPC's side, ``other`` the other side (agent specs,
    or :data:`AGENT`)."""

    npc: str
    other: str

    @property
    def label(self) -> str:
        return f"{self.npc} / {self.other}"


@dataclass(frozen=True)
class Probe:
    system: str
    name: str
    tactic: str
    why: str
    measure: str
    continuations: tuple[Continuation, ...]
    changes_with_continuation: bool
    situation: Any  # a mapping, or a Path
    file: str
    field: str
    #: points of the measure (0-25) the agent's move may lag the best move by and still pass: for probes whose
    #: moves are near-equal by the rules (their ``why`` says so), so the verdict is not a coin flip between them
    tolerance: int = 0

    @property
    def plugin(self) -> System:
        """The probe's system: the one place its ``system`` name (checked when the file was read) is resolved."""
        return get_system(self.system)


@dataclass(frozen=True)
class ProbeFile:
    path: str
    system: str
    description: str
    rollouts: int
    seed: int
    options: dict[str, Any]
    probes: tuple[Probe, ...]


def _continuation(value: Any, file: str, field: str) -> Continuation:
    data = mapping(value, file, field, ("npc", "other"), ("npc", "other"))
    return Continuation(string(data["npc"], file, join(field, "npc"), non_empty=True),
                        string(data["other"], file, join(field, "other"), non_empty=True))


def _probe(value: Any, file: str, field: str, base: Path, system: str) -> Probe:
    data = mapping(value, file, field, _PROBE, ("name", "why", "situation"))
    conts = data.get("continuations", [{"npc": "by-the-book", "other": "by-the-book"}])
    items = sequence(conts, file, join(field, "continuations"), 1, 4, "continuations")
    continuations = tuple(_continuation(c, file, join(field, "continuations", i)) for i, c in enumerate(items))
    situation = data["situation"]
    if isinstance(situation, str):
        path = (base / situation).resolve()
        if not path.exists():
            raise ConfigError(file, join(field, "situation"), f"file not found: {path}")
        situation = path
    else:
        situation = mapping(situation, file, join(field, "situation"))
    changes = boolean(data.get("changes_with_continuation", False), file, join(field, "changes_with_continuation"))
    if changes and len(continuations) < 2:
        raise ConfigError(file, join(field, "changes_with_continuation"),
                          "a best move that changes with the continuation needs at least two continuations")
    return Probe(
        system=system,
        name=string(data["name"], file, join(field, "name"), non_empty=True),
        tactic=string(data.get("tactic", "other"), file, join(field, "tactic"), non_empty=True),
        why=" ".join(string(data["why"], file, join(field, "why"), non_empty=True).split()),
        measure=choice(data.get("measure", "win"), file, join(field, "measure"), MEASURES, "measure"),
        continuations=continuations, changes_with_continuation=changes, situation=situation, file=file,
        field=field, tolerance=integer(data.get("tolerance", 0), file, join(field, "tolerance"), 0, MAX_TOLERANCE))


def load_probe_file(source: str | Path) -> ProbeFile:
    """Read and check a probe file (the situations themselves are checked when loaded by the system)."""
    file, raw = document(source)
    data = mapping(raw, file, "", _TOP, ("system", "probes"))
    system = choice(data["system"], file, "system", available_systems(), "system")
    items = sequence(data["probes"], file, "probes", 1, None, "probes")
    base = Path(file).resolve().parent
    probes = tuple(_probe(p, file, join("probes", i), base, system) for i, p in enumerate(items))
    names = [p.name for p in probes]
    for i, name in enumerate(names):
        if name in names[:i]:
            raise ConfigError(file, join("probes", i, "name"), f"probe {name!r} appears twice")
    return ProbeFile(
        path=file, system=system,
        description=" ".join(string(data.get("description", ""), file, "description").split()),
        rollouts=integer(data.get("rollouts", 200), file, "rollouts", 1, MAX_ROLLOUTS),
        seed=integer(data.get("seed", 0), file, "seed", 0, 2**31 - 1),
        options=mapping(data.get("options", {}), file, "options"),
        probes=probes)


def probe_files(names: list[str]) -> list[Path]:
    """Probe files from names: a YAML file, a folder of them, a system name (its shipped probes) or ``all``."""
    out: list[Path] = []
    systems = available_systems()
    for name in names:
        path = Path(name)
        if path.is_file() or path.suffix in (".yaml", ".yml"):
            if not path.exists():  # a FIFO or device is left to the reader, which refuses it in one line
                raise ConfigError(name, "", "file not found")
            out.append(path)
        elif path.is_dir():
            out.extend(sorted(path.glob("*.yaml")))
        elif name == "all":
            out.extend(p for s in sorted(systems) for p in named_files(system_dir(s) / "probes").values())
        elif name in systems:
            out.extend(named_files(system_dir(name) / "probes").values())
        else:
            raise UnknownNameError("probe set", name, ["all", *sorted(systems)])
    if not out:
        raise ConfigError(", ".join(names), "", "no probe file found")
    return out
