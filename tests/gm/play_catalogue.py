"""The messages of ``npc-tactics play`` (every string literal passed to ``_``, and the (singular, plural) pair of
every ``ngettext`` call), read from the source with ast."""

from __future__ import annotations

import ast
from pathlib import Path

import npc_tactics

PACKAGE = Path(npc_tactics.__file__).resolve().parent
SOURCES = [PACKAGE / "gm" / f for f in ("table/play.py", "table/dice.py", "words/play_words.py")]
PO = PACKAGE / "locale" / "fr" / "LC_MESSAGES" / "play.po"


def messages() -> list[str]:
    found: list[str] = []
    for path in SOURCES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and (
                    (isinstance(node.func, ast.Name) and node.func.id == "_")
                    or (isinstance(node.func, ast.Attribute) and node.func.attr == "_"))
                    and len(node.args) == 1 and isinstance(node.args[0], ast.Constant)
                    and isinstance(node.args[0].value, str)):
                if node.args[0].value not in found:
                    found.append(node.args[0].value)
    return found


def plurals() -> list[tuple[str, str]]:
    """The (singular, plural) msgids of every ``ngettext("...", "...", n)`` call (``self.ngettext`` too)."""
    found: list[tuple[str, str]] = []
    for path in SOURCES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and (
                    (isinstance(node.func, ast.Name) and node.func.id == "ngettext")
                    or (isinstance(node.func, ast.Attribute) and node.func.attr == "ngettext"))
                    and len(node.args) == 3 and all(isinstance(a, ast.Constant) and isinstance(a.value, str)
                                                    for a in node.args[:2])):
                pair = (str(node.args[0].value), str(node.args[1].value))  # type: ignore[attr-defined]
                if pair not in found:
                    found.append(pair)
    return found
