"""The GM's own dice-pool creatures: user bestiary files (``system: dicepool``), what ``npc-tactics bestiary
dicepool`` lists and what ``bestiary check FILE`` says about one file.

An entry is the sheet's text (rules/sheet.py) or a mapping of the bestiary's fields, optionally with the text
under ``stat_block`` (a field given both ways must agree) and ``description``, ``tags``, ``source``. Files come
from ``NPC_TACTICS_BESTIARY`` / ``--bestiary`` through :func:`npc_tactics.configs.bestiaries.user_entries`
(never inside a request that may not name files).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

from npc_tactics.configs import system_dir
from npc_tactics.configs.bestiaries import bestiary_paths, read_bestiary, user_entries
from npc_tactics.errors import ConfigError, shown
from npc_tactics.i18n import Said
from npc_tactics.systems.dicepool.rules.bestiary import (
    STAT_KEYS,
    TEMPLATE_KEYS,
    check_template,
    load_bestiary,
    template_tags,
)
from npc_tactics.systems.dicepool.rules.sheet import SheetError, canonical, format_sheet, parse_sheet

__all__ = ["SYSTEM", "all_templates", "bestiary_listing", "check_bestiary", "entry_fields", "one_line",
           "sheet_fields", "user_templates"]

SYSTEM = "dicepool"
ENTRY_KEYS = TEMPLATE_KEYS + ("stat_block",)


def sheet_fields(text: Any, file: str, where: str) -> tuple[str | None, dict[str, Any]]:
    """:func:`parse_sheet` with its mistake as a one-line ConfigError at ``where`` (line and token named)."""
    if not isinstance(text, str):
        raise ConfigError(file, where, Said("expected the sheet's text (Initiative 8, Coordination 5, ...), got "
                                            "{value}", value=shown(text)))
    try:
        return parse_sheet(text)
    except SheetError as exc:
        raise ConfigError(file, where, exc.message) from None


def entry_fields(entry: str | Mapping[str, Any], file: str, name: str) -> dict[str, Any]:
    """The template fields of one user entry, validated (see the module docstring)."""
    raw: dict[str, Any] = {"stat_block": entry} if isinstance(entry, str) else dict(entry)
    unknown = [k for k in raw if k not in ENTRY_KEYS]
    if unknown:
        raise ConfigError(file, f"{name}.{unknown[0]}", Said("unknown key {key}; valid: {valid}",
                                                             key=repr(unknown[0]), valid=", ".join(ENTRY_KEYS)))
    out = {k: v for k, v in raw.items() if k != "stat_block"}
    if "stat_block" in raw:
        sheet_name, fields = sheet_fields(raw["stat_block"], file, f"{name}.stat_block" if out else name)
        if sheet_name and "description" not in out:
            out["description"] = sheet_name
        given, read = canonical({**fields, **{k: v for k, v in out.items() if k in STAT_KEYS}}), canonical(fields)
        for key in STAT_KEYS:
            if key in out and given[key] != read[key]:
                raise ConfigError(file, f"{name}.{key}", Said("{given} disagrees with the stat block ({read})",
                                                              given=shown(out[key]), read=shown(read[key])))
        out = {**fields, **out}
    return check_template(out, file, name, name)


def user_templates() -> dict[str, tuple[str, dict[str, Any]]]:
    """``{name: (file, fields)}`` of the user bestiaries marked ``system: dicepool``; empty where files may not
    be read. Shared (cached): copy before changing."""
    return _expanded(bestiary_paths()) if user_entries(SYSTEM) else {}


@lru_cache(maxsize=8)
def _expanded(paths: tuple[str, ...]) -> dict[str, tuple[str, dict[str, Any]]]:
    return {name: (path, entry_fields(entry, path, name)) for name, (path, entry) in user_entries(SYSTEM).items()}


def _shipped() -> dict[str, tuple[str, dict[str, Any]]]:
    path = str(system_dir(SYSTEM) / "bestiary.yaml")
    return {name: (path, raw) for name, raw in load_bestiary().items()}


def all_templates() -> dict[str, tuple[str, dict[str, Any]]]:
    """The shipped templates and the user's (a user entry may not take a shipped name)."""
    shipped, user = _shipped(), user_templates()
    for name, (file, _raw) in user.items():
        if name in shipped:
            raise ConfigError(file, name, Said("is a shipped template; give the entry another name (e.g. my_{name})",
                                               name=name))
    return {**shipped, **user} if user else shipped


def one_line(fields: Mapping[str, Any], lang: str = "en") -> str:
    """The sheet on one line, its lines joined by `` | `` (a form :func:`parse_sheet` reads back)."""
    return " | ".join(format_sheet(fields, None, lang).splitlines())


def _row(name: str, file: str, raw: dict[str, Any], shipped: bool) -> dict[str, Any]:
    return {"name": name, "stat_line": one_line(raw), "stat_block": format_sheet(raw, name),
            "stat_block_fr": format_sheet(raw, name, "fr"), "description": str(raw.get("description", "")),
            "tags": template_tags(raw), "source": Path(file).name if shipped else file,
            "numbers_from": str(raw.get("source", "")), "shipped": shipped}


def bestiary_listing() -> list[dict[str, Any]]:
    """Every template (shipped and the user's) with its sheet (one line, and in full in English and French),
    description, tags and file."""
    shipped = load_bestiary()
    return [_row(name, file, raw, name in shipped) for name, (file, raw) in sorted(all_templates().items())]


def check_bestiary(path: str) -> dict[str, Any]:
    """``{"file", "entries": [{name, stat_line}], "errors": [one line each]}`` for one user bestiary file."""
    try:
        book = read_bestiary(path)
        if book.system != SYSTEM:
            raise ConfigError(path, "system", Said("is {system}: a dice-pool bestiary says system: {expected}",
                                                   system=repr(book.system), expected=SYSTEM))
    except ConfigError as exc:
        return {"file": path, "entries": [], "errors": [str(exc)]}
    shipped = load_bestiary()
    good, errors = [], []
    for name, entry in book.entries.items():
        try:
            if name in shipped:
                raise ConfigError(path, name, Said("is a shipped template; give the entry another name (e.g. "
                                                   "my_{name})", name=name))
            fields = entry_fields(entry, path, name)
            good.append({"name": name, "stat_line": one_line(fields), "tags": template_tags(fields)})
        except ConfigError as exc:
            errors.append(str(exc))
    return {"file": path, "entries": good, "errors": errors}
