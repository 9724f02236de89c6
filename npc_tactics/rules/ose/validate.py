"""Small typed readers for YAML content: every failure is a one-line ConfigError naming file and field."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from npc_tactics.dice import parse
from npc_tactics.errors import ConfigError


def mapping(data: Any, file: str, path: str) -> Mapping[str, Any]:
    if not isinstance(data, Mapping):
        raise ConfigError(
            file, path or "(top level)", f"expected a mapping, got {type(data).__name__}"
        )
    return data


def keys(
    data: Mapping[str, Any],
    allowed: Iterable[str],
    file: str,
    path: str,
    required: Iterable[str] = (),
) -> None:
    """Unknown keys and missing required keys are errors."""
    allowed = tuple(allowed)
    for k in data:
        if k not in allowed:
            raise ConfigError(
                file, _join(path, str(k)), f"unknown key; valid keys: {', '.join(allowed)}"
            )
    for k in required:
        if k not in data:
            raise ConfigError(file, _join(path, k), "missing required key")


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def integer(
    data: Mapping[str, Any],
    key: str,
    file: str,
    path: str,
    default: Any = None,
    low: int | None = None,
    high: int | None = None,
) -> Any:
    if key not in data:
        return default
    v = data[key]
    if isinstance(v, bool) or not isinstance(v, int):
        raise ConfigError(file, _join(path, key), f"expected an integer, got {v!r}")
    if (low is not None and v < low) or (high is not None and v > high):
        raise ConfigError(file, _join(path, key), f"{v} is out of range [{low}, {high}]")
    return v


def number(
    data: Mapping[str, Any],
    key: str,
    file: str,
    path: str,
    default: Any = None,
    low: float | None = None,
) -> Any:
    if key not in data:
        return default
    v = data[key]
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise ConfigError(file, _join(path, key), f"expected a number, got {v!r}")
    if low is not None and v < low:
        raise ConfigError(file, _join(path, key), f"{v} must be at least {low}")
    return v


def boolean(data: Mapping[str, Any], key: str, file: str, path: str, default: bool = False) -> bool:
    if key not in data:
        return default
    v = data[key]
    if not isinstance(v, bool):
        raise ConfigError(file, _join(path, key), f"expected true or false, got {v!r}")
    return v


def string(
    data: Mapping[str, Any],
    key: str,
    file: str,
    path: str,
    default: Any = None,
    choices: Iterable[str] | None = None,
) -> Any:
    if key not in data or data[key] is None:
        return default
    v = data[key]
    if not isinstance(v, str):
        raise ConfigError(file, _join(path, key), f"expected a string, got {v!r}")
    if choices is not None:
        choices = sorted(choices)
        if v not in choices:
            raise ConfigError(
                file, _join(path, key), f"unknown {key} {v!r}; valid: {', '.join(choices)}"
            )
    return v


def dice(data: Mapping[str, Any], key: str, file: str, path: str, default: Any = None) -> Any:
    """A dice expression (``"1d8+1"``) or an integer; returned as a string or int."""
    if key not in data:
        return default
    v = data[key]
    if isinstance(v, bool):
        raise ConfigError(
            file, _join(path, key), f"expected an integer or a dice expression, got {v!r}"
        )
    if isinstance(v, int):
        return v
    if not isinstance(v, str):
        raise ConfigError(
            file, _join(path, key), f"expected an integer or a dice expression, got {v!r}"
        )
    try:
        parse(v)
    except ValueError as exc:
        raise ConfigError(file, _join(path, key), str(exc)) from None
    return v
