"""What ``npc-tactics bestiary runequest`` shows and ``bestiary check FILE`` checks: every RQG template with its
stat line and full stat block in the book's layout, and a user bestiary validated entry by entry (each mistake
one line naming the file, the entry and the token)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from npc_tactics.configs.bestiaries import read_bestiary
from npc_tactics.errors import ConfigError
from npc_tactics.i18n import Said
from npc_tactics.systems.runequest.rules.bestiary_files import SYSTEM, fields_of, shipped_bestiary, user_templates
from npc_tactics.systems.runequest.rules.scenario import bestiary
from npc_tactics.systems.runequest.rules.statblock_print import format_stat_block, stat_line

__all__ = ["bestiary_listing", "check_bestiary"]


def _row(name: str, t: dict[str, Any], source: str, shipped: bool) -> dict[str, Any]:
    return {
        "name": name,
        "kind": str(t.get("kind", "")),
        "faction": str(t.get("faction", "")),
        "player_character": bool(t.get("player_character", False)),
        "stat_line": stat_line(t),
        "stat_block": format_stat_block(t),
        "description": str(t.get("description", "")),
        "source": source,
        "shipped": shipped,
    }


def bestiary_listing() -> list[dict[str, Any]]:
    """Every template (shipped, then the user's bestiaries) with its tags, stat line and stat block."""
    shipped = shipped_bestiary()
    user = user_templates()
    return [_row(name, t, "bestiary.yaml" if name in shipped else user[name][0], name in shipped)
            for name, t in sorted(bestiary().items())]


def check_bestiary(path: str) -> dict[str, Any]:
    """``{"file", "entries": [{name, stat_line}], "errors": [one line each]}`` for one user bestiary file."""
    try:
        book = read_bestiary(path)
        if book.system != SYSTEM:
            raise ConfigError(path, "system", Said("is {system}: a RuneQuest bestiary says system: runequest",
                                                   system=repr(book.system))
                              if book.system else Said("missing: a RuneQuest bestiary says system: runequest"))
    except ConfigError as exc:
        return {"file": path, "entries": [], "errors": [str(exc)]}
    shipped = shipped_bestiary()
    good, errors = [], []
    for name, entry in book.entries.items():
        try:
            if name in shipped:
                raise ConfigError(path, name, Said("is a shipped template; give the entry another name (e.g. "
                                                   "my_{name})", name=name))
            t = fields_of(entry, path, name)
            good.append({**_row(name, t, Path(path).name, False)})
        except ConfigError as exc:
            errors.append(str(exc))
    return {"file": path, "entries": good, "errors": errors}
