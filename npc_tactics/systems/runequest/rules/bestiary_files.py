"""The GM's own RQG stat blocks: user bestiary files (``system: runequest``) and a combatant's ``stat_block``.

An entry is pasted text in the book's layout (:mod:`.statblock_text`) or a mapping of the bestiary's fields
(:mod:`.statblock`); a mapping may also carry the text as ``stat_block`` with fields that change it. Files are
found and read by :mod:`npc_tactics.configs.bestiaries` (``NPC_TACTICS_BESTIARY``, ``--bestiary FILE``), never
inside a request that may not name files; what an entry means is decided here.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from npc_tactics.configs import load_yaml, system_dir
from npc_tactics.configs import validate as V
from npc_tactics.configs.bestiaries import bestiary_paths, read_bestiary, user_entries
from npc_tactics.errors import ConfigError, shown
from npc_tactics.i18n import Said
from npc_tactics.systems.runequest.rules import statblock as SB
from npc_tactics.systems.runequest.rules.statblock_text import parse_text

__all__ = ["SYSTEM", "fields_of", "read_entries", "user_templates"]

SYSTEM = "runequest"


def fields_of(entry: Any, f: str, p: str) -> dict[str, Any]:
    """The checked stat-block fields of an entry: text, or a mapping (with an optional ``stat_block`` text
    whose fields the mapping's others replace)."""
    if isinstance(entry, str):
        return SB.check_template(parse_text(entry, f, p), SB.equipment(), f, p)
    if not isinstance(entry, Mapping):
        raise ConfigError(f, p, Said("expected a stat block (text) or a mapping of its fields, got {entry}",
                                     entry=shown(entry)))
    raw = dict(entry)
    if "stat_block" in raw:
        text = V.string(raw.pop("stat_block"), f, V.join(p, "stat_block"), non_empty=True)
        base = parse_text(text, f, V.join(p, "stat_block"))
        if "characteristics" in raw and isinstance(raw["characteristics"], Mapping):
            raw["characteristics"] = {**base["characteristics"], **raw["characteristics"]}
        raw = {**base, **raw}
    return SB.check_template(raw, SB.equipment(), f, p)


def read_entries(path: str) -> dict[str, dict[str, Any]]:
    """The entries of one user bestiary file as checked fields; a file for another system is an error."""
    book = read_bestiary(path)
    if book.system != SYSTEM:
        raise ConfigError(path, "system", Said("is {system}: a RuneQuest bestiary says system: runequest",
                                               system=repr(book.system))
                          if book.system else Said("missing: a RuneQuest bestiary says system: runequest"))
    return {name: fields_of(entry, path, name) for name, entry in book.entries.items()}


@lru_cache(maxsize=4)
def shipped_bestiary(path: str = str(system_dir("runequest") / "bestiary.yaml")) -> dict[str, dict[str, Any]]:
    """The validated shipped bestiary (template name -> raw stat block)."""
    raw = V.mapping(load_yaml(path), path, "", {"templates"})
    table = V.mapping(raw.get("templates"), path, "templates")
    for name, t in table.items():
        SB.check_template(t, SB.equipment(SB.EQUIPMENT), path, f"templates.{name}")
    return table


def user_templates() -> dict[str, tuple[str, dict[str, Any]]]:
    """``{name: (file, fields)}`` of the user bestiaries of RuneQuest; empty where files may not be read. A
    name of the shipped bestiary is an error (give it another name). Shared (cached): copy before changing."""
    return _checked(bestiary_paths()) if user_entries(SYSTEM) else {}


@lru_cache(maxsize=8)
def _checked(paths: tuple[str, ...]) -> dict[str, tuple[str, dict[str, Any]]]:
    shipped = shipped_bestiary()
    out = {}
    for name, (path, entry) in user_entries(SYSTEM).items():
        if name in shipped:
            raise ConfigError(path, name, Said("is a shipped template; give the entry another name (e.g. my_{name})",
                                               name=name))
        out[name] = (path, fields_of(entry, path, name))
    return out
