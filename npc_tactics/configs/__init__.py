"""Shipped YAML content (bestiaries, scenarios, training presets) and safe loading helpers.

Layout: ``configs/<system>/*.yaml`` for a system's content, ``configs/<system>/scenarios/<name>.yaml`` for its
scenarios and ``configs/presets/<name>.yaml`` for training presets.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from npc_tactics.errors import ConfigError

CONFIG_DIR = Path(__file__).resolve().parent


def load_yaml(path: str | Path) -> Any:
    """``yaml.safe_load`` a file; a missing file or a YAML syntax error becomes a one-line ConfigError."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(str(path), "", "file not found") from None
    except IsADirectoryError:
        raise ConfigError(str(path), "", "is a directory, expected a YAML file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(str(path), "", f"cannot read: {exc}") from None
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise ConfigError(str(path), where, f"invalid YAML: {problem}") from None


def system_dir(system: str) -> Path:
    return CONFIG_DIR / system


def named_files(folder: Path) -> dict[str, Path]:
    """``{stem: path}`` of the YAML files in ``folder`` (empty if it does not exist)."""
    if not folder.is_dir():
        return {}
    return {p.stem: p for p in sorted(folder.glob("*.yaml"))}


def resolve_named(name_or_path: str | Path, folder: Path, what: str) -> Path:
    """A path to an existing file, or the shipped file called ``name`` in ``folder``.

    Raises :class:`~npc_tactics.errors.UnknownNameError` listing the shipped names.
    """
    from npc_tactics.errors import UnknownNameError

    candidate = Path(name_or_path)
    if candidate.suffix in (".yaml", ".yml") or candidate.exists():
        if not candidate.exists():
            raise ConfigError(str(candidate), "", "file not found")
        return candidate
    files = named_files(folder)
    if str(name_or_path) not in files:
        raise UnknownNameError(what, str(name_or_path), files)
    return files[str(name_or_path)]
