"""Which system wrote this file? Named in the error when a situation or scenario of one system is given
to another (a RuneQuest situation to an OSE run) instead of ``name: unknown key 'name'``.

Only called on the error path: it tries the other systems' own loaders on the file, first for a clean
load, then for an error that is not about unknown keys (the file fits that system's schema but has a
mistake of its own).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from npc_tactics.errors import ConfigError, UserError

__all__ = ["other_system", "wrong_system_error"]

Kind = Literal["situation", "scenario"]


def _try(info: Any, kind: Kind, source: str | Path | Mapping[str, Any]) -> ConfigError | None:
    """None if ``info``'s loader accepts ``source``; its ConfigError if it rejects it."""
    import numpy as np

    from npc_tactics.dice import RngRoller

    content = info.load("content")
    if kind == "situation":
        engine = info.load("engine")({})
        content.load_situation(engine, source, RngRoller(np.random.default_rng(0)))
    else:
        content.load_scenario(str(source))
    return None


def _depth(field: str) -> int:
    """How far into the file a field is: ``distance`` 1, ``sides[1].combatants[0].mount`` 5."""
    return len([part for part in field.replace("[", ".").split(".") if part]) if field else 0


def other_system(source: str | Path | Mapping[str, Any], kind: Kind, current: str, depth: int = 0) -> str | None:
    """The name of another system whose loader reads ``source`` as a ``kind``, or None. A loader that rejects
    it for a reason other than its keys counts only if it got at least ``depth`` fields deep, as far as the
    current system's loader did: an MRQ situation with one wrong key deep inside is not a RuneQuest situation
    because RuneQuest stops at its first field."""
    from npc_tactics.registry import available_systems

    near: list[str] = []
    for name, info in available_systems().items():
        if name == current:
            continue
        try:
            _try(info, kind, source)
        except ConfigError as exc:
            if ("unknown key" not in exc.message and "missing required key" not in exc.message
                    and _depth(exc.field) >= depth):
                near.append(name)
            continue
        except Exception:  # noqa: BLE001  (any failure of a foreign loader means: not this system)
            continue
        return name
    return near[0] if len(near) == 1 else None


def wrong_system_error(
    error: ConfigError, source: str | Path | Mapping[str, Any], kind: Kind, current: str, whose: str
) -> UserError:
    """``error`` itself, or a clearer one when ``source`` is a ``kind`` of another system; ``whose`` says
    what is ``current`` ("the run runs/goblin is", "the simulation is")."""
    if "unknown key" not in error.message and "missing required key" not in error.message:
        return error
    other = other_system(source, kind, current, _depth(error.field))
    if other is None:
        return error
    where = f"{error.field}: " if error.field else ""
    return UserError(
        f"{error.file}: this looks like a {other} {kind}; {whose} {current} (read as {current}: {where}{error.message})"
    )
