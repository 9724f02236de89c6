"""The GM's own bestiary files, read the same way for every system.

A user bestiary is a YAML mapping ``name -> entry`` (an entry is text, e.g. a pasted stat block, or a mapping of
the system's template fields). An optional top-level ``system: <name>`` says which game the file is for; a
file without it belongs to the system that reads untagged files (the first format, OSE stat lines), so the
files written before the key existed keep working. The files named by ``NPC_TACTICS_BESTIARY``
(``os.pathsep``-separated; ``--bestiary FILE`` adds to it) are read once per process through the package's
safe reader, and never inside a request that may not name files (:func:`npc_tactics.configs.files.paths_allowed`).
What an entry means is the system's business: this module only finds, reads and names the entries.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from npc_tactics.configs import parse_yaml
from npc_tactics.configs import validate as V
from npc_tactics.configs.files import paths_allowed, read_text
from npc_tactics.errors import ConfigError, shown

__all__ = ["ENV", "MAX_ENTRIES", "NAME", "SYSTEM_KEY", "UserBestiary", "bestiary_paths", "read_bestiary",
           "user_entries"]

ENV = "NPC_TACTICS_BESTIARY"
SYSTEM_KEY = "system"
MAX_BESTIARY_BYTES = 1024 * 1024
MAX_ENTRIES = 2000
NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_-]{0,59}")


class UserBestiary:
    """One file: the system it declares (None: untagged) and its entries, ``name -> text or mapping``."""

    __slots__ = ("path", "system", "entries")

    def __init__(self, path: str, system: str | None, entries: dict[str, str | dict[str, Any]]) -> None:
        self.path, self.system, self.entries = path, system, entries

    def belongs_to(self, system: str, untagged: bool) -> bool:
        """Whether ``system`` reads this file (``untagged``: that system also takes files with no ``system:``)."""
        return self.system == system or (self.system is None and untagged)


def read_bestiary(path: str) -> UserBestiary:
    """One user bestiary file; a :class:`~npc_tactics.errors.ConfigError` names the file and the entry."""
    data = parse_yaml(read_text(path, MAX_BESTIARY_BYTES, "bestiary file"), path)
    if data is None:
        return UserBestiary(path, None, {})
    data = dict(V.mapping(data, path, ""))
    system = data.pop(SYSTEM_KEY, None)
    if system is not None and (not isinstance(system, str) or not NAME.fullmatch(system)):
        raise ConfigError(path, SYSTEM_KEY, f"expected the name of an installed rules system, got {shown(system)}")
    if len(data) > MAX_ENTRIES:
        raise ConfigError(path, "", f"{len(data)} entries; a bestiary file may have at most {MAX_ENTRIES}")
    entries: dict[str, str | dict[str, Any]] = {}
    for name, value in data.items():
        if not isinstance(name, str) or not NAME.fullmatch(name):
            raise ConfigError(path, str(name)[:60], "an entry name is letters, digits, _ and - (e.g. giant_rat), "
                                                    f"got {shown(name)}")
        if isinstance(value, str):
            entries[name] = value
        elif isinstance(value, Mapping):
            entries[name] = dict(value)
        else:
            raise ConfigError(path, name, "expected a stat line or stat block (text) or a mapping of template fields, "
                                          f"got {shown(value)}")
    return UserBestiary(path, system, entries)


def bestiary_paths() -> tuple[str, ...]:
    """The user bestiary files named by ``NPC_TACTICS_BESTIARY``, in order."""
    return tuple(p for p in os.environ.get(ENV, "").split(os.pathsep) if p.strip())


def user_entries(system: str, untagged: bool = False) -> dict[str, tuple[str, str | dict[str, Any]]]:
    """``{name: (file, entry)}`` of the user bestiaries of ``system``, in file order; empty where files may not
    be read. A name defined twice is an error naming both files. The mapping is shared (cached): copy first."""
    if not paths_allowed():
        return {}
    paths = bestiary_paths()
    return _entries(paths, system, untagged) if paths else {}


@lru_cache(maxsize=8)
def _read(path: str) -> UserBestiary:
    return read_bestiary(path)


@lru_cache(maxsize=16)
def _entries(paths: tuple[str, ...], system: str, untagged: bool) -> dict[str, tuple[str, str | dict[str, Any]]]:
    out: dict[str, tuple[str, str | dict[str, Any]]] = {}
    for path in paths:
        book = _read(path)
        if not book.belongs_to(system, untagged):
            continue
        for name, entry in book.entries.items():
            if name in out:
                raise ConfigError(path, name, f"already defined in {out[name][0]}")
            out[name] = (path, entry)
    return out
