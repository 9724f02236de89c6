"""Small one-line validators for MRQ YAML content: every error is a ConfigError naming the file and field path."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from npc_tactics.errors import ConfigError


def as_map(value: Any, file: str, path: str, allowed: tuple[str, ...], required: tuple[str, ...] = ()) -> dict:
    if not isinstance(value, Mapping):
        raise ConfigError(file, path or "(top level)", f"expected a mapping, got {type(value).__name__}")
    for key in value:
        if key not in allowed:
            raise ConfigError(
                file,
                f"{path}.{key}" if path else str(key),
                f"unknown key {key!r}; valid: {', '.join(allowed)}",
            )
    for key in required:
        if key not in value:
            raise ConfigError(file, f"{path}.{key}" if path else key, "required field is missing")
    return dict(value)


def as_int(value: Any, file: str, path: str, lo: int = 0, hi: int = 10_000) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConfigError(file, path, f"expected an integer, got {value!r}")
    if not lo <= value <= hi:
        raise ConfigError(file, path, f"expected {lo}..{hi}, got {value}")
    return value


def as_bool(value: Any, file: str, path: str) -> bool:
    if not isinstance(value, bool):
        raise ConfigError(file, path, f"expected true or false, got {value!r}")
    return value


def as_choice(value: Any, file: str, path: str, choices: tuple[str, ...] | list[str], what: str = "value") -> str:
    if not isinstance(value, str) or value not in choices:
        raise ConfigError(file, path, f"unknown {what} {value!r}; valid: {', '.join(choices)}")
    return value


def as_str(value: Any, file: str, path: str) -> str:
    if not isinstance(value, str):
        raise ConfigError(file, path, f"expected a string, got {value!r}")
    return value
