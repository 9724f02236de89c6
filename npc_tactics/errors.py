"""User-facing errors: each renders as one line naming the file and field, and the CLI exits with code 2."""

from __future__ import annotations

from collections.abc import Iterable


class UserError(Exception):
    """A mistake in what the user asked for (bad file, unknown name); never a bug in npc-tactics."""


class ConfigError(UserError):
    """A config, scenario or situation file that does not validate: ``file: field: what was expected``."""

    def __init__(self, file: str, field: str, message: str) -> None:
        self.file = str(file)
        self.field = field
        self.message = message
        where = f"{self.file}: {field}" if field else self.file
        super().__init__(f"{where}: {message}")


class UnknownNameError(UserError):
    """An unknown system, scenario, agent or preset; the message lists the valid choices."""

    def __init__(self, what: str, name: str, choices: Iterable[str]) -> None:
        self.what = what
        self.name = name
        self.choices = sorted(choices)
        super().__init__(f"unknown {what} {name!r}; valid {what}s: {', '.join(self.choices) or '(none)'}")
