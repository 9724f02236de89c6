"""The GM's own MRQ stat blocks: pasted text or template fields, in user bestiary files (``system: mrq``) and
inline in a scenario or situation combatant.

An entry is text (a stat block in the book's layout, :mod:`.statblock_text`), or a mapping of the bestiary's
template fields, optionally with ``stat_block:`` text whose fields the mapping then completes or overrides.
The files named by ``NPC_TACTICS_BESTIARY`` (``--bestiary FILE``) are read through
:func:`npc_tactics.configs.bestiaries.user_entries`; a name may not shadow a shipped template.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from npc_tactics.configs.bestiaries import bestiary_paths, read_bestiary, user_entries
from npc_tactics.errors import ConfigError
from npc_tactics.i18n import Said
from npc_tactics.systems.mrq.rules.bestiary import check_templates, shipped_templates
from npc_tactics.systems.mrq.rules.statblock_text import StatBlockError, parse_stat_block

__all__ = ["SYSTEM", "expand", "read_entries", "user_templates"]

SYSTEM = "mrq"


def expand(entry: str | Mapping[str, Any], file: str, where: str) -> dict[str, Any]:
    """Template fields of an entry: text parsed, or a mapping whose ``stat_block`` text (if any) is parsed and
    completed by the mapping's own fields."""
    text: object  # str, a mapping or None (typed loosely: mypyc checks each assignment against the declared type)
    if isinstance(entry, str):
        text, fields = entry, {}
    elif isinstance(entry, Mapping):
        fields = dict(entry)
        text = fields.pop("stat_block", None)
        if text is None:
            return fields
        if isinstance(text, Mapping):
            return {**dict(text), **fields}
        if not isinstance(text, str):
            raise ConfigError(file, f"{where}.stat_block", Said("expected the stat block as text or a mapping of "
                                                                "fields"))
    else:
        raise ConfigError(file, where, Said("expected a stat block (text) or a mapping of template fields"))
    try:
        parsed = parse_stat_block(text)
    except StatBlockError as exc:
        raise ConfigError(file, where, exc.message) from None
    return {**parsed, **fields}


def read_entries(path: str) -> dict[str, dict[str, Any]]:
    """The entries of one user bestiary file as template fields; a file for another system is an error."""
    book = read_bestiary(path)
    if not book.belongs_to(SYSTEM, untagged=False):
        raise ConfigError(path, "system", Said("is {system}: write 'system: mrq' in an MRQ bestiary file",
                                               system=repr(book.system)))
    return {name: expand(entry, path, name) for name, entry in book.entries.items()}


def user_templates() -> dict[str, tuple[str, dict[str, Any]]]:
    """``{name: (file, fields)}`` of the user bestiaries for MRQ, validated; empty where files may not be read."""
    return _expanded(bestiary_paths()) if user_entries(SYSTEM) else {}


@lru_cache(maxsize=8)
def _expanded(paths: tuple[str, ...]) -> dict[str, tuple[str, dict[str, Any]]]:
    shipped = shipped_templates()
    out: dict[str, tuple[str, dict[str, Any]]] = {}
    for name, (path, entry) in user_entries(SYSTEM).items():
        if name in shipped:
            raise ConfigError(path, name, Said("is a shipped template; give the entry another name (e.g. my_{name})",
                                               name=name))
        out[name] = (path, expand(entry, path, name))
    check_templates(out, {**shipped, **out}, prefix="")
    return out


def all_templates() -> dict[str, tuple[str, dict[str, Any]]]:
    """Shipped templates and the user's bestiaries (``system: mrq`` files), ``{name: (file, raw fields)}``."""
    user = user_templates()
    return {**shipped_templates(), **user} if user else shipped_templates()


def load_bestiary(path: str | None = None) -> dict[str, Any]:
    """Raw templates by name, shipped and the user's, or those of the one file ``path`` (validated once,
    resolved per use so scenario overrides apply)."""
    found = shipped_templates(path) if path else all_templates()
    return {name: raw for name, (_, raw) in found.items()}
