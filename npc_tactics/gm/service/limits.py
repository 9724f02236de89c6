"""What keeps the GM service answering under load and under hostile bodies: a bounded queue for heavy work, a
time limit per heavy request, and a 422 handler that survives any value a client sends.

Why: requests with rollouts use every core, so they run one at a time; before this, every waiting request held
one of the server's worker threads, so 40 queued ``/odds`` requests left none for ``/suggest`` or the page. Now
at most ``max_waiting`` wait (the next one gets 429 with ``Retry-After`` at once), a wait is bounded by
``wait_s`` (503), and the work itself by ``limit_s`` (503, checked between rollout chunks).
"""

from __future__ import annotations

import contextlib
import math
import threading
from collections.abc import Iterator
from typing import Any

from fastapi import HTTPException, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

from npc_tactics.limits import SERVE_QUEUE, SERVE_TIME_LIMIT_S, SERVE_WAIT_S
from npc_tactics.rollouts.deadline import TimeLimitError, time_limit

__all__ = ["HeavyGate", "safe_value", "validation_error_handler"]

#: The defaults, declared with every other bound in npc_tactics.limits.
MAX_WAITING, WAIT_S, LIMIT_S = SERVE_QUEUE, SERVE_WAIT_S, SERVE_TIME_LIMIT_S


class HeavyGate:
    """One heavy request at a time, at most ``max_waiting`` in line, each waiting at most ``wait_s`` and running
    at most ``limit_s``; refusals are HTTP errors with ``Retry-After``."""

    def __init__(self, max_waiting: int = MAX_WAITING, wait_s: float = WAIT_S, limit_s: float = LIMIT_S) -> None:
        self.max_waiting = max_waiting
        self.wait_s = wait_s
        self.limit_s = limit_s
        self._run = threading.Semaphore(1)
        self._count = threading.Lock()
        self._waiting = 0

    @contextlib.contextmanager
    def turn(self) -> Iterator[None]:
        """Hold the heavy slot for the ``with`` body, under the time limit."""
        with self._count:
            if self._waiting >= self.max_waiting:
                raise _busy(429, f"{self._waiting} requests with rollouts are already waiting; try again shortly",
                            retry=max(1, math.ceil(self.wait_s / 4)))
            self._waiting += 1
        try:
            got = self._run.acquire(timeout=self.wait_s)
        finally:
            with self._count:
                self._waiting -= 1
        if not got:
            raise _busy(503, f"the server was busy with rollouts for {self.wait_s:g} s; try again shortly",
                        retry=max(1, math.ceil(self.wait_s / 2)))
        try:
            with time_limit(self.limit_s):
                yield
        except TimeLimitError as exc:
            raise _busy(503, str(exc), retry=1) from None
        finally:
            self._run.release()


def _busy(status: int, message: str, *, retry: int) -> HTTPException:
    return HTTPException(status_code=status, detail=message, headers={"Retry-After": str(retry)})


def safe_value(value: Any, depth: int = 0) -> Any:
    """``value`` made JSON-safe for an error message: non-finite numbers as text, deep or big values cut."""
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if depth > 4:
        return "..."
    if isinstance(value, dict):
        return {str(k)[:100]: safe_value(v, depth + 1) for k, v in list(value.items())[:20]}
    if isinstance(value, list | tuple):
        return [safe_value(v, depth + 1) for v in list(value)[:20]]
    if isinstance(value, str):
        return value[:200]
    if value is None or isinstance(value, bool | int | float):
        return value
    return str(value)[:200]


async def validation_error_handler(_request: Request, exc: Exception) -> JSONResponse:
    """FastAPI's 422, minus what cannot be serialised: ``"odds": NaN`` is echoed as ``"nan"``, never a 500."""
    errors = exc.errors() if isinstance(exc, RequestValidationError) else []
    detail = []
    for err in errors:
        item = {"loc": list(err.get("loc", ())), "msg": str(err.get("msg", "")), "type": str(err.get("type", ""))}
        if "input" in err:
            item["input"] = safe_value(err["input"])
        detail.append(item)
    return JSONResponse(status_code=422, content={"detail": detail})
