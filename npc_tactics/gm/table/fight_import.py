"""What the tracker shows and takes of a combatant's stat block: its line in the game's notation, and an actor
file of another program (a virtual tabletop's export) read into a combatant.

Why here and not in each system: the tracker names no system. The formats are the registry's plugins'
``importers`` (``(format, "module:function", what it reads)``, the function taking a path, for the CLI); the
page sends the file's parsed JSON, so the importer's module is asked for its data entry point, a function
``(data, where) -> result`` named ``read_data`` (or ``read_actor``, as the Foundry importers call it). Its
result has ``kind``, ``name``, ``combatant``, ``unused`` and ``notes`` (see :mod:`npc_tactics.cli.importer`).
The file is JSON the server parsed as data: nothing in it is executed, and it is at most
:data:`MAX_IMPORT_BYTES`.

The stat line comes from the system, in the GM's language: its content module's optional hook
``stat_line(entry, lang)`` prints the entry (a template with its changes, a pasted stat block read by the
system's own parser) as its bestiary prints its own, in English or in the French edition's words (None: it
cannot read the entry). When it says nothing, the line is the stat block the GM typed (squashed to one line),
else the row of ``bestiary_listing()`` for the entry's template (or its ``{class}_{level}`` template), else class
and level as given. A system with no such hook (OSE) has that English line shown in the GM's language by
:func:`~npc_tactics.gm.table.stat_words.stat_line_in`, which rewrites the OSE notation field by field and leaves
any other as written.
"""

from __future__ import annotations

import functools
import importlib
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from npc_tactics.errors import ConfigError, UserError
from npc_tactics.gm.table.stat_words import stat_line_in
from npc_tactics.i18n import Said
from npc_tactics.plugin import System
from npc_tactics.registry import available_systems

__all__ = ["MAX_IMPORT_BYTES", "Format", "Imported", "edit_text", "formats", "import_data", "stat_line"]

#: Largest actor file the page may send (its JSON as the server re-encodes it).
MAX_IMPORT_BYTES = 1024 * 1024
#: Names of an importer module's data entry point, in the order asked.
DATA_ENTRY = ("read_data", "read_actor")


@dataclass(frozen=True, slots=True)
class Format:
    """One file format a fight of ``system`` can take (from its plugin's ``importers``)."""

    name: str
    system: str
    module: str
    reads: str

    def reader(self) -> Callable[[Any, str], Any]:
        module = importlib.import_module(self.module)
        for attr in DATA_ENTRY:
            found = getattr(module, attr, None)
            if callable(found):
                return found
        raise UserError(f"the {self.system} importer {self.name!r} reads files only (its module {self.module} has "
                        f"no {' or '.join(DATA_ENTRY)}(data, where))")


def formats() -> dict[str, Format]:
    """Every registered system's import formats, by name."""
    out: dict[str, Format] = {}
    for system in available_systems().values():
        for fmt, target, reads in system.importers:
            out[fmt] = Format(fmt, system.name, target.partition(":")[0], reads)
    return out


@dataclass(frozen=True, slots=True)
class Imported:
    kind: str
    name: str
    combatant: dict[str, Any]
    unused: tuple[str, ...]
    notes: tuple[str, ...]


def import_data(fmt: str, system: System, data: Any, where: str = "file") -> Imported:
    """The combatant an actor's parsed JSON ``data`` (format ``fmt``) makes in a fight of ``system``; a bad
    format is a :class:`ConfigError` at ``format``, a bad file one at the importer's field (``where`` names
    the file)."""
    known = {k: f for k, f in formats().items() if f.system == system.name}
    if fmt not in known:
        raise ConfigError(where, "format", Said("unknown format {format} for a {system} fight (formats: {listed})",
                                                format=repr(str(fmt)[:60]), system=system.name,
                                                listed=", ".join(known) or Said("none")))
    size = len(json.dumps(data, ensure_ascii=False).encode("utf-8"))
    if size > MAX_IMPORT_BYTES:
        raise ConfigError(where, "data", Said("the file is {size} bytes; at most {most} are read", size=size,
                                              most=MAX_IMPORT_BYTES))
    result = known[fmt].reader()(data, where)
    combatant, notes = scenario_entry(result.combatant)
    return Imported(str(result.kind), str(result.name), combatant, tuple(result.unused),
                    (*result.notes, *notes))


def scenario_entry(combatant: Mapping[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """A situation combatant (an importer's, hit points now and at most, status) as the scenario entry a fight
    starts from: its hit points now, the rest as given, with a note when that is not its maximum."""
    entry = {k: v for k, v in combatant.items() if k not in ("max_hp", "status")}
    notes: list[str] = []
    hp, top = combatant.get("hp"), combatant.get("max_hp")
    if combatant.get("status") == "dead" or (isinstance(hp, int) and hp < 1):
        if isinstance(top, int) and top >= 1:
            entry["hp"] = top
            notes.append(f"hp: the actor is at 0 hp; it is added with its full {top} hp")
        else:
            entry.pop("hp", None)
    elif isinstance(hp, int) and isinstance(top, int) and hp < top:
        notes.append(f"hp: the fight starts it with the {hp} hp it has now (of {top})")
    return entry, notes


@functools.lru_cache(maxsize=8)
def _listing(system: System) -> dict[str, str]:
    """Template name -> stat line (the system's ``bestiary ose`` listing); empty when it offers none."""
    try:
        rows = system.content_module().bestiary_listing()
    except (UserError, AttributeError):
        return {}
    return {str(r["name"]): str(r.get("stat_line", "")) for r in rows if r.get("stat_line")}


def _key(text: Any) -> str:
    return "_".join(str(text).lower().replace("-", " ").split())


def _said_by_system(system: System, entry: Mapping[str, Any], lang: str) -> tuple[str | None, bool]:
    """(the line the system's ``stat_line`` hook prints in ``lang``, or None; whether the system has the hook)."""
    hook = getattr(system.content_module(), "stat_line", None)
    if not callable(hook):
        return None, False
    try:
        line = hook(dict(entry), lang)
    except UserError:
        line = None
    return (str(line) if line else None), True


def _given(system: System, entry: Mapping[str, Any]) -> str | None:
    """The line of an entry its system's hook does not print: the stat block as typed, its template's listing
    row, its class and level."""
    block = entry.get("stat_block")
    if isinstance(block, str) and block.strip():
        return " ".join(block.split())
    listing = _listing(system)
    template = entry.get("template")
    if isinstance(template, str) and template in listing:
        return listing[template]
    if "class" in entry and "level" in entry:
        named = f"{_key(entry['class'])}_{entry['level']}"
        if named in listing and set(entry) <= {"name", "class", "level", "position", "template"}:
            return listing[named]
        return f"{entry['class']} {entry['level']}"
    return None


def stat_line(system: System, entry: Mapping[str, Any], lang: str = "en") -> str | None:
    """The stat line of one combatant entry in its game's notation, in ``lang`` (None when nothing says it);
    see the module docstring for where it comes from."""
    line, hooked = _said_by_system(system, entry, lang)
    if line is not None:
        return line
    given = _given(system, entry)
    return given if hooked else stat_line_in(given, lang)  # a block its system cannot read: as the GM typed it


def edit_text(system: System, entry: Mapping[str, Any]) -> str | None:
    """The text the tracker's Edit box starts from: the system's full stat block of ``entry`` in the book layout
    its parser reads back (the content module's optional ``stat_block(entry)``), else the English stat line (OSE's
    one-line stat line is itself what its parser reads)."""
    hook = getattr(system.content_module(), "stat_block", None)
    if callable(hook):
        try:
            text = hook(dict(entry))
        except UserError:
            text = None
        if text:
            return str(text)
    return stat_line(system, entry)
