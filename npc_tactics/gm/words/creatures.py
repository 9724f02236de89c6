"""The bestiary in the GM's language: each creature's name and description, from its system's own folder.

Why a content file per system and not the gettext catalogue: a creature's name belongs to its game (``broo`` is
the same word in RuneQuest and MRQ, ``bandit`` in OSE and MRQ, but their descriptions differ), the list grows with
the bestiary, and a new system brings its names in its own folder (``systems/<name>/content/bestiary_<lang>.yaml``,
one entry per template: ``name``, ``description``). English needs no file: the template's id is its English word
and the bestiary carries the English description. A template missing from a language's file falls back to
English here; ``tests/test_creature_words.py`` makes that fallback a test failure for every shipped template.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

from npc_tactics.errors import ConfigError, UserError
from npc_tactics.plugin import System

__all__ = ["CreatureWords", "creature_file", "creature_words"]


@dataclass(frozen=True, slots=True)
class CreatureWords:
    """One creature's name and description in one language."""

    name: str
    description: str


def creature_file(system: System, lang: str) -> Path | None:
    """Where ``system`` keeps its bestiary in ``lang`` (None for English, or a system with no content folder)."""
    if lang == "en":
        return None
    try:
        folder = system.content_dir()
    except UserError:
        return None
    return folder / f"bestiary_{lang}.yaml"


@functools.lru_cache(maxsize=16)
def creature_words(system: System, lang: str) -> dict[str, CreatureWords]:
    """The templates of ``system`` named in ``lang``, by template id (empty when the language has no file)."""
    import yaml

    path = creature_file(system, lang)
    if path is None or not path.is_file():
        return {}
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise ConfigError(str(path), "", "expected a mapping of template ids to {name, description}")
    out: dict[str, CreatureWords] = {}
    for template, entry in data.items():
        if not isinstance(entry, dict) or not isinstance(entry.get("name"), str) or not entry["name"].strip():
            raise ConfigError(str(path), str(template), "expected {name: ..., description: ...} with a name")
        description = entry.get("description", "")
        if not isinstance(description, str):
            raise ConfigError(str(path), f"{template}.description", "expected text")
        out[str(template)] = CreatureWords(entry["name"].strip(), description.strip())
    return out
