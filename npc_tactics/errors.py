"""User-facing errors: each renders as one line naming the file and field, and the CLI exits with code 2."""

from __future__ import annotations

import difflib
from collections.abc import Iterable

#: Longest message a UserError carries: a value quoted from a hostile file never floods the terminal.
MAX_MESSAGE = 500


def one_line(text: str, limit: int = MAX_MESSAGE) -> str:
    """``text`` on one line (newlines become spaces), cut to ``limit`` characters."""
    flat = " ".join(str(text).split())
    return flat if len(flat) <= limit else flat[: limit - 3] + "..."


def shown(value: object, limit: int = 60) -> str:
    """``repr(value)`` cut to ``limit`` characters, for quoting a user's value in an error message."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


class UserError(Exception):
    """A mistake in what the user asked for (bad file, unknown name); never a bug in npc-tactics.

    The message is flattened to one line and capped at :data:`MAX_MESSAGE` characters."""

    def __init__(self, message: object = "") -> None:
        super().__init__(one_line(str(message)))


class ConfigError(UserError):
    """A config, scenario or situation file that does not validate: ``file: field: what was expected``."""

    def __init__(self, file: str, field: str, message: str) -> None:
        self.file = str(file)
        self.field = field
        self.message = message
        where = f"{self.file}: {field}" if field else self.file
        super().__init__(f"{where}: {message}")


MANY_CHOICES = 40  #: above this many valid names, an unknown name's error lists the nearest ones only


class UnknownNameError(UserError):
    """An unknown system, scenario, agent or preset; the message lists the valid choices."""

    def __init__(self, what: str, name: str, choices: Iterable[str]) -> None:
        self.what = what
        self.name = name
        self.choices = sorted(choices)
        if len(self.choices) > MANY_CHOICES:  # a bestiary of hundreds: the nearest names, not a cut-off list
            near = difflib.get_close_matches(str(name), self.choices, n=6, cutoff=0.5)
            stem = str(name)[:3]
            near += [c for c in self.choices if stem and c.startswith(stem) and c not in near][:6 - len(near)]
            hint = f"did you mean {', '.join(near)}? " if near else ""
            super().__init__(f"unknown {what} {shown(name)}; {hint}({len(self.choices)} valid {what}s)")
            return
        super().__init__(f"unknown {what} {shown(name)}; valid {what}s: {', '.join(self.choices) or '(none)'}")
