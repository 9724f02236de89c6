"""``npc-tactics bestiary``: a system's templates with their stat lines, and the check of a user bestiary; and
``--bestiary FILE``, the option of the commands that read scenarios and situations.

The option puts its files first on ``NPC_TACTICS_BESTIARY`` (an ``os.pathsep``-separated list), which a
system's template loader reads, so that worker processes (rollouts, odds) see the same bestiary. A system
offers the two listings through its ``content`` part (``bestiary_listing()``, ``check_bestiary(path)``);
nothing here names a system.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Annotated, Any

import typer

from npc_tactics.errors import UserError

__all__ = ["BESTIARY_ENV", "BestiaryOption", "bestiary_command", "use_bestiaries"]

#: The environment variable the systems' template loaders read (docs/ose.md "Stat lines and user bestiaries").
BESTIARY_ENV = "NPC_TACTICS_BESTIARY"


def use_bestiaries(value: list[Path] | None) -> list[Path] | None:
    """Typer callback of ``--bestiary``: each file must exist; they go first on :data:`BESTIARY_ENV`."""
    if not value:
        return value
    for path in value:
        if os.pathsep in str(path):
            raise typer.BadParameter(f"{path}: a path with {os.pathsep!r} cannot go on {BESTIARY_ENV}")
        if not path.is_file():
            raise typer.BadParameter(f"{path}: no such file" if not path.exists() else f"{path}: not a file")
    before = os.environ.get(BESTIARY_ENV, "")
    os.environ[BESTIARY_ENV] = os.pathsep.join([str(p) for p in value] + ([before] if before else []))
    return value


BestiaryOption = Annotated[
    list[Path] | None,
    typer.Option("--bestiary", metavar="FILE", callback=use_bestiaries,
                 help=f"A user bestiary (YAML: name -> stat line or template fields), repeatable; added to "
                 f"{BESTIARY_ENV} (files separated by {os.pathsep!r}).")]


def _content(system: str, part: str) -> Any:
    """The system's ``part`` listing function, or a one-line error when it has none."""
    from npc_tactics.registry import get_system

    plugin = get_system(system)
    found = getattr(plugin.content_module(), part, None)
    if found is None:
        raise UserError(f"bestiary: the {plugin.name} system has no stat-line bestiary")
    return found


def _check_system(system: str | None, file: Path) -> str:
    """The system of a bestiary FILE: ``--system``, else the file's ``system:`` key, else the one system that reads
    files without that key."""
    from npc_tactics.configs.bestiaries import read_bestiary
    from npc_tactics.errors import ConfigError
    from npc_tactics.registry import available_systems

    if system is not None:
        return system
    try:
        declared = read_bestiary(str(file)).system
    except ConfigError:
        declared = None  # the system's own check reports the file's mistake
    if declared is not None:
        if declared not in available_systems():
            raise UserError(f"bestiary check: {file}: system: {declared!r} is not installed (installed: "
                            f"{', '.join(sorted(available_systems()))})")
        return declared
    able = [n for n, s in available_systems().items()
            if getattr(s.content_module(), "READS_UNTAGGED_BESTIARIES", False)]
    if len(able) != 1:
        raise UserError(f"bestiary check: {file} has no 'system:' key; give --system")
    return able[0]


def bestiary_command(
    what: Annotated[str, typer.Argument(metavar="SYSTEM|check", help="A system (list its templates with their "
                                        "stat lines) or 'check' (validate FILE).")],
    file: Annotated[Path | None, typer.Argument(metavar="[FILE]", help="With check: the user bestiary file.")] = None,
    system: Annotated[str | None, typer.Option(metavar="SYSTEM", help="With check: the system of FILE (default: "
                                               "the only one that reads user bestiaries).")] = None,
    as_json: Annotated[bool, typer.Option("--json", metavar="", help="Print one JSON object.")] = False,
    bestiary: BestiaryOption = None,
) -> None:
    """List every template of SYSTEM with its stat line (user bestiaries included), or check a user bestiary:
    exit 0 when every entry reads, exit 2 with one line per mistake naming the file, the entry and the token."""
    if what != "check":
        if file is not None or system is not None:
            raise UserError("bestiary: FILE and --system go with 'check' (bestiary check FILE)")
        rows = _content(what, "bestiary_listing")()
        if as_json:
            typer.echo(json.dumps({"system": what, "templates": rows}, indent=2, sort_keys=True))
            return
        width = max((len(r["name"]) for r in rows), default=0)
        for r in rows:
            source = "" if r.get("shipped", True) else f"  [{r['source']}]"
            typer.echo(f"{r['name']:<{width}}  {r['stat_line']}{source}")
        return
    if file is None:
        raise UserError("bestiary check: expected FILE, the user bestiary to check")
    result = _content(_check_system(system, file), "check_bestiary")(str(file))
    if as_json:
        typer.echo(json.dumps({**result, "ok": not result["errors"]}, indent=2, sort_keys=True))
    else:
        for entry in result["entries"]:
            typer.echo(f"{entry['name']}: {entry['stat_line']}")
        for line in result["errors"]:
            typer.echo(f"npc-tactics: error: {line}", err=True)
        if not result["errors"]:
            typer.echo(f"{file}: {len(result['entries'])} entries, all read")
    if result["errors"]:
        raise typer.Exit(2)
