"""Small validators that turn bad YAML into one-line ConfigErrors naming the file and the field path."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from npc_tactics.errors import ConfigError


class Checker:
    """Type checks bound to one file: every failure raises ``ConfigError(file, field, message)``."""

    def __init__(self, file: str) -> None:
        self.file = file

    def fail(self, field: str, message: str) -> ConfigError:
        return ConfigError(self.file, field, message)

    def mapping(
        self, value: Any, field: str, allowed: Iterable[str], required: Iterable[str] = ()
    ) -> dict[str, Any]:
        """A mapping with only ``allowed`` keys and every ``required`` one."""
        if not isinstance(value, Mapping):
            raise self.fail(field, f"expected a mapping, got {type(value).__name__}")
        allowed = tuple(allowed)
        for key in value:
            if key not in allowed:
                raise self.fail(
                    f"{field}.{key}" if field else str(key),
                    f"unknown key {key!r}; valid keys: {', '.join(allowed)}",
                )
        for key in required:
            if key not in value:
                raise self.fail(f"{field}.{key}" if field else key, "missing required field")
        return dict(value)

    def integer(self, value: Any, field: str, lo: int | None = None, hi: int | None = None) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(field, f"expected an integer, got {value!r}")
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            raise self.fail(field, f"{value} is out of range [{lo}, {hi}]")
        return value

    def number(
        self, value: Any, field: str, lo: float | None = None, hi: float | None = None
    ) -> float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self.fail(field, f"expected a number, got {value!r}")
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            raise self.fail(field, f"{value} is out of range [{lo}, {hi}]")
        return float(value)

    def string(self, value: Any, field: str) -> str:
        if not isinstance(value, str) or not value:
            raise self.fail(field, f"expected a non-empty string, got {value!r}")
        return value

    def boolean(self, value: Any, field: str) -> bool:
        if not isinstance(value, bool):
            raise self.fail(field, f"expected true or false, got {value!r}")
        return value

    def choice(self, value: Any, field: str, choices: Iterable[str], what: str = "value") -> str:
        choices = list(choices)
        if value not in choices:
            raise self.fail(field, f"unknown {what} {value!r}; valid: {', '.join(choices)}")
        return str(value)

    def seq(
        self, value: Any, field: str, min_len: int = 0, max_len: int | None = None
    ) -> list[Any]:
        if not isinstance(value, list):
            raise self.fail(field, f"expected a list, got {type(value).__name__}")
        if len(value) < min_len or (max_len is not None and len(value) > max_len):
            raise self.fail(field, f"expected {min_len}..{max_len} entries, got {len(value)}")
        return value
