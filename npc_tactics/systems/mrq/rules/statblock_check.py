"""What ``npc-tactics bestiary mrq`` shows and ``bestiary check FILE`` checks: every MRQ template with its stat
block in the book's layout, and a user bestiary validated entry by entry (one line per mistake)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from npc_tactics.configs.bestiaries import read_bestiary
from npc_tactics.errors import ConfigError
from npc_tactics.i18n import Said
from npc_tactics.systems.mrq.rules.bestiary import check_templates, shipped_templates, tags
from npc_tactics.systems.mrq.rules.statblock_files import SYSTEM, all_templates, expand
from npc_tactics.systems.mrq.rules.statblock_print import format_stat_block

__all__ = ["bestiary_listing", "check_bestiary"]


def _summary(block: str) -> str:
    """The one-line form of a stat block: its characteristics and weapon rows."""
    lines = block.splitlines()
    chars = next(x for x in lines if x.startswith("STR "))
    weapons = lines[lines.index("Weapons") + 2:]
    weapons = weapons[: next((k for k, x in enumerate(weapons) if x.startswith("Skills")), len(weapons))]
    return f"{chars}; {', '.join(weapons)}"


def bestiary_listing() -> list[dict[str, Any]]:
    """Every template (shipped and the user's) with its tags, stat block, description and file."""
    shipped = shipped_templates()
    rows = []
    for name, (file, raw) in sorted(all_templates().items()):
        block = format_stat_block(name, raw, file)
        rows.append({
            "name": name,
            **tags(raw, file, name),
            "stat_line": _summary(block),
            "stat_block": block,
            "description": str(raw.get("description", "")),
            "source": Path(file).name if name in shipped else file,
            "shipped": name in shipped,
        })
    return rows


def check_bestiary(path: str) -> dict[str, Any]:
    """``{"file", "entries": [{name, stat_line, stat_block}], "errors": [one line each]}`` for one file."""
    try:
        book = read_bestiary(path)
        if not book.belongs_to(SYSTEM, untagged=False):
            raise ConfigError(path, "system", Said("is {system}: write 'system: mrq' in an MRQ bestiary file",
                                                   system=repr(book.system)))
    except ConfigError as exc:
        return {"file": path, "entries": [], "errors": [str(exc)]}
    shipped = shipped_templates()
    entries: dict[str, dict[str, Any]] = {}
    good, errors = [], []
    for name, entry in book.entries.items():
        try:
            if name in shipped:
                raise ConfigError(path, name, Said("is a shipped template; give the entry another name (e.g. "
                                                   "my_{name})", name=name))
            entries[name] = expand(entry, path, name)
        except ConfigError as exc:
            errors.append(str(exc))
    known = {**shipped, **{n: (path, r) for n, r in entries.items()}}
    for name, raw in entries.items():
        try:
            check_templates({name: (path, raw)}, known, "")
            block = format_stat_block(name, raw, path)
            good.append({"name": name, **tags(raw, path, name), "stat_line": _summary(block), "stat_block": block})
        except ConfigError as exc:
            errors.append(str(exc))
    return {"file": path, "entries": good, "errors": errors}
