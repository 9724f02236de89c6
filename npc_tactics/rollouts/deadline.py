"""A time limit on rollout work, set by whoever serves it (the HTTP service), checked between chunks.

Why a context variable and not a parameter: the limit belongs to the request, not to the fights; threading a
``deadline=`` through suggest, odds, encounters and every runner would change a dozen signatures for one check.
The chunk loop of :func:`~npc_tactics.rollouts.fights.iter_tasks` calls :func:`check_deadline` after every chunk,
so a request stops within one chunk (a few hundred fights) of its limit; results never depend on it.
"""

from __future__ import annotations

import contextlib
import contextvars
import time
from collections.abc import Iterator

from npc_tactics.errors import UserError

__all__ = ["TimeLimitError", "check_deadline", "time_limit"]

_DEADLINE: contextvars.ContextVar[tuple[float, float] | None] = contextvars.ContextVar(
    "npc_tactics_deadline", default=None)


class TimeLimitError(UserError):
    """The work ran past the time limit it was given."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        super().__init__(f"took longer than this server's limit of {seconds:g} s; ask for fewer rollouts or fights")


@contextlib.contextmanager
def time_limit(seconds: float | None) -> Iterator[None]:
    """Rollouts run inside raise :class:`TimeLimitError` once ``seconds`` have passed (None or 0: no limit)."""
    token = _DEADLINE.set((time.monotonic() + seconds, seconds) if seconds else None)
    try:
        yield
    finally:
        _DEADLINE.reset(token)


def check_deadline() -> None:
    """Raise :class:`TimeLimitError` if the current time limit has passed."""
    limit = _DEADLINE.get()
    if limit is not None and time.monotonic() > limit[0]:
        raise TimeLimitError(limit[1])
