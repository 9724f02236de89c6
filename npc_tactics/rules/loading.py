"""The loaders every system shares: shipped scenarios by name or path, rules options of a file, the ``acting``
combatant of a situation and the notes a loader writes for the GM.

What stays in each system is what differs: the fields of its combatants and sides and the state it builds.
Every error is a one-line :class:`~npc_tactics.errors.ConfigError` naming the file and the field.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

from npc_tactics.configs import load_yaml, named_files, resolve_named
from npc_tactics.configs import validate as V
from npc_tactics.errors import ConfigError
from npc_tactics.rules.base import Status, SystemSpec, option_error

__all__ = ["acting_index", "list_scenarios", "load_scenario", "note_taker", "read_options"]

T = TypeVar("T")


def list_scenarios(directory: Path) -> list[tuple[str, str]]:
    """(name, first line of its description) of every scenario file shipped in ``directory``."""
    out = []
    for name, path in named_files(directory).items():
        data = load_yaml(path)
        desc = str(data.get("description", "")).strip() if isinstance(data, Mapping) else ""
        out.append((name, desc.splitlines()[0] if desc else ""))
    return out


def load_scenario(name_or_path: str, directory: Path, parse: Callable[[Any, str], T]) -> T:
    """A shipped scenario by name (in ``directory``) or a YAML file path, read and validated by ``parse(data,
    file)``, the system's own scenario parser."""
    path = resolve_named(name_or_path, directory, "scenario")
    return parse(load_yaml(path), str(path))


def read_options(spec: SystemSpec, raw: Any, file: str, field: str = "options") -> dict[str, Any]:
    """The rules options of a scenario or situation: a mapping of known keys, each value passing the one option
    check of every system (:func:`~npc_tactics.rules.base.option_error`); errors name ``field.<key>``."""
    options = V.mapping(raw, file, field)
    for key, value in options.items():
        path = V.join(field, str(key))
        V.choice(key, file, path, spec.default_options, "rules option")
        if (err := option_error(spec, key, value)) is not None:
            raise ConfigError(file, path, err)
    return options


def acting_index(value: Any, combatants: Sequence[Any], file: str, field: str = "acting") -> int:
    """The index of the combatant a situation names as deciding now: one of ``combatants`` (by ``name``) and
    active, or an error naming ``field``."""
    names = [c.name for c in combatants]
    index = names.index(V.choice(value, file, field, names, "combatant"))
    status = combatants[index].status
    if status != Status.ACTIVE:
        raise ConfigError(file, field, f"{names[index]!r} is {status.name.lower()}, cannot act")
    return index


def note_taker(notes: list[str] | None) -> Callable[[str], None]:
    """Where a loader writes one plain-English line per assumption it made (nowhere when ``notes`` is None)."""
    if notes is None:
        return lambda _line: None
    return notes.append
