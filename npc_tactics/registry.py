"""The registry of rules systems: the one list of system packages.

Each system is one package, ``npc_tactics/systems/<name>/``, whose ``__init__`` exports ``SYSTEM``, a typed
:class:`~npc_tactics.plugin.System` (its names and where each of its parts lives). Adding a system is one line
of :data:`PACKAGES`. Importing a package's ``__init__`` imports nothing but that small object, so listing
systems stays cheap; the parts are imported when a hook is first called.

Resolve a system's name once, where it comes in (a CLI argument, an HTTP body, a config file), with
:func:`get_system`, and pass the :class:`System` down.
"""

from __future__ import annotations

import importlib
from typing import Any

from npc_tactics.errors import UnknownNameError
from npc_tactics.plugin import System

__all__ = ["DEFAULT_SYSTEM", "PACKAGES", "SYSTEMS", "System", "SystemInfo", "available_systems", "get_system",
           "make_engine"]

#: the system packages, in the order help texts and the web page list them
PACKAGES: tuple[str, ...] = (
    "npc_tactics.systems.ose",
    "npc_tactics.systems.runequest",
    "npc_tactics.systems.mrq",
    "npc_tactics.systems.dicepool",
)

#: the system a command or an env uses when none is named
DEFAULT_SYSTEM = "ose"


def _plugin(package: str) -> System:
    system = getattr(importlib.import_module(package), "SYSTEM", None)
    if not isinstance(system, System):
        raise TypeError(f"{package} exports no SYSTEM (a npc_tactics.plugin.System)")
    return system


#: name -> plugin, for every registered system (tests add their fake system here for a ``with`` block)
SYSTEMS: dict[str, System] = {s.name: s for s in map(_plugin, PACKAGES)}

#: the former name of :class:`System` (kept for callers outside the package)
SystemInfo = System


def available_systems() -> dict[str, System]:
    """Every registered system (all four ship complete; a broken import is a bug and must surface)."""
    return dict(SYSTEMS)


def get_system(name: str) -> System:
    """The registered system called ``name``; an unknown name lists the valid ones."""
    info = SYSTEMS.get(name)
    if info is None:
        raise UnknownNameError("system", name, SYSTEMS)
    return info


def make_engine(system: str, options: dict[str, Any] | None = None) -> Any:
    return get_system(system).make_engine(options)
