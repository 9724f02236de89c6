"""``npc-tactics import FORMAT FILE``: a creature or character written by another program (a virtual tabletop's
export) as a user-bestiary entry or a situation combatant of one system, in YAML.

Why a table of formats: each importer belongs to its system (it writes that system's notation) and is declared by
its plugin (``System.importers``); this command only reads the file's name, calls the importer and writes its
document. The entries are module paths, so nothing is imported until a format is asked for. An importer is a
function ``(path) -> result`` where the result has ``name``, ``kind``, ``document(mode)`` (mode ``entry`` or
``combatant``), ``unused`` and ``notes``; it reads the file through
:func:`npc_tactics.configs.files.read_text` (size-limited, regular files only) and executes nothing from it.
"""

from __future__ import annotations

import importlib
import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer
import yaml

from npc_tactics.errors import UserError

__all__ = ["IMPORTERS", "MODES", "Importer", "import_command", "write_atomic"]

MODES = ("entry", "combatant")


@dataclass(frozen=True, slots=True)
class Importer:
    """One format: the system it writes for, where its function lives, and what it reads (for ``--help``)."""

    system: str
    module: str
    function: str
    reads: str

    def load(self) -> Any:
        return getattr(importlib.import_module(self.module), self.function)


def _importers() -> dict[str, Importer]:
    """Every system's importers (its plugin's ``importers``), by format."""
    from npc_tactics.registry import available_systems

    out: dict[str, Importer] = {}
    for system in available_systems().values():
        for fmt, target, reads in system.importers:
            module, _, function = target.partition(":")
            out[fmt] = Importer(system.name, module, function, reads)
    return out


IMPORTERS: dict[str, Importer] = _importers()


def write_atomic(path: Path, text: str, force: bool) -> None:
    """Write ``text`` to ``path`` all or nothing: a temp file in the same folder, fsynced, then ``os.replace``.
    An existing file is refused unless ``force``; a folder always."""
    if path.is_dir():
        raise UserError(f"--out: {path} is a directory, expected a file name")
    if path.exists() and not force:
        raise UserError(f"--out: {path} exists; give --force to overwrite it")
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise UserError(f"--out: {folder} is not a folder")
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _yaml(document: dict[str, Any]) -> str:
    """Block YAML, keys in the importer's order, a stat line on one line and its ``×`` as written."""
    return yaml.safe_dump(document, sort_keys=False, allow_unicode=True, width=10_000, default_flow_style=False)


def _renamed(result: Any, mode: str, name: str | None) -> dict[str, Any]:
    from npc_tactics.configs.bestiaries import NAME

    document = dict(result.document(mode))
    if name is None:
        return document
    if mode == "combatant":
        return {**document, "name": name}
    if not NAME.fullmatch(name) or name == "system":
        raise UserError(f"--name: {name!r}: an entry name is letters, digits, _ and - (e.g. giant_rat)")
    return {(name if key == result.name else key): value for key, value in document.items()}


def import_command(
    fmt: Annotated[str, typer.Argument(metavar="FORMAT", help="The file's format: " + ", ".join(
        f"{k} ({v.reads})" for k, v in IMPORTERS.items()) + ".")],
    file: Annotated[Path, typer.Argument(metavar="FILE", help="The exported file (e.g. FILE.json).")],
    as_: Annotated[str, typer.Option("--as", metavar="entry|combatant", help="entry: a user-bestiary file with one "
                                     "entry (check it with `npc-tactics bestiary check`); combatant: one "
                                     "combatant of a situation's side.")] = "entry",
    out: Annotated[Path | None, typer.Option(metavar="FILE", help="Write the YAML to FILE (atomically) instead "
                                             "of stdout.")] = None,
    force: Annotated[bool, typer.Option("--force", metavar="", help="With --out: overwrite FILE.")] = False,
    name: Annotated[str | None, typer.Option(metavar="NAME", help="The entry's (or combatant's) name instead of "
                                             "the actor's.")] = None,
    as_json: Annotated[bool, typer.Option("--json", metavar="", help="Print one JSON object (the document, "
                                          "unused fields, notes).")] = False,
) -> None:
    """Import a creature or character from another program: YAML on stdout (or --out FILE), and on stderr the
    actor's fields the engine does not use. A file that is not of FORMAT is one line naming the file and the
    field, exit 2."""
    if fmt not in IMPORTERS:
        raise UserError(f"import: unknown format {fmt!r} (formats: {', '.join(IMPORTERS)})")
    if as_ not in MODES:
        raise UserError(f"import: --as {as_!r}: expected {' or '.join(MODES)}")
    if force and out is None:
        raise UserError("import: --force goes with --out FILE")
    importer = IMPORTERS[fmt]
    result = importer.load()(str(file))
    document = _renamed(result, as_, name)
    text = _yaml(document)
    if out is not None:
        write_atomic(out, text, force)
    if as_json:
        typer.echo(json.dumps({"format": fmt, "system": importer.system, "file": str(file), "kind": result.kind,
                               "as": as_, "document": document, "yaml": text, "out": str(out) if out else None,
                               "unused": list(result.unused), "notes": list(result.notes)},
                              indent=2, ensure_ascii=False))
        return
    if out is None:
        typer.echo(text, nl=False)
    else:
        typer.echo(f"{out}: {result.kind} {document.get('name', name or result.name)!s} written ({as_})", err=True)
    for line in result.notes:
        typer.echo(f"npc-tactics: note: {file}: {line}", err=True)
    for line in result.unused:
        typer.echo(f"npc-tactics: unused: {file}: {line}", err=True)
