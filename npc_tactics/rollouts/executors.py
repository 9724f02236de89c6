"""Where the chunks of a fight job run: here, or over a pool of worker processes; pluggable.

An executor is anything with ``session(setup, job)``: a context manager that prepares each of its workers once
with ``setup(job)`` (load the job's agents, bundles and run folders) and yields an object with a
``concurrent.futures``-like ``map(fn, iterable)`` that returns the results **in the order of the iterable**
(``ProcessPoolExecutor.map`` does; Ray's ``ActorPool.map`` too). Chunks carry the job's key, and
``setup``/``fn`` are module-level functions, so they pickle by reference for any transport.

Which worker runs a chunk never changes a fight (:mod:`.fights`), so executors are free to schedule as they
like; only the order of what ``map`` returns matters, and it is fixed by the iterable.
"""

from __future__ import annotations

import multiprocessing as mp
import os
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import AbstractContextManager, contextmanager
from typing import Any, Protocol

__all__ = ["Executor", "InlineExecutor", "Mapper", "ProcessExecutor", "default_workers", "make_executor"]


class Mapper(Protocol):
    def map(self, fn: Callable[[Any], Any], iterable: Iterable[Any]) -> Iterator[Any]: ...


class Executor(Protocol):
    """Runs a job's chunks. ``session(setup, job)`` calls ``setup(job)`` once in each worker before any chunk
    and yields a :class:`Mapper`."""

    def session(self, setup: Callable[[Any], None], job: Any) -> AbstractContextManager[Mapper]: ...


def default_workers() -> int:
    """One worker per core the process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


class _Here:
    def map(self, fn: Callable[[Any], Any], iterable: Iterable[Any]) -> Iterator[Any]:
        return map(fn, iterable)


class InlineExecutor:
    """Every chunk in this process, one after the other (no pool, nothing pickled)."""

    @contextmanager
    def session(self, setup: Callable[[Any], None], job: Any) -> Iterator[Mapper]:
        setup(job)
        yield _Here()


class ProcessExecutor:
    """A pool of ``workers`` processes (``fork`` where the platform has it: the job is inherited, not pickled;
    otherwise ``spawn``), each set up once. ``workers`` 1 runs inline."""

    def __init__(self, workers: int | None = None) -> None:
        self.workers = default_workers() if workers is None else max(1, int(workers))

    @contextmanager
    def session(self, setup: Callable[[Any], None], job: Any) -> Iterator[Mapper]:
        if self.workers == 1:
            with InlineExecutor().session(setup, job) as here:
                yield here
            return
        ctx = mp.get_context("fork" if "fork" in mp.get_all_start_methods() else "spawn")
        with ProcessPoolExecutor(self.workers, mp_context=ctx, initializer=_setup_worker,
                                 initargs=(setup, job)) as pool:
            try:
                yield pool
            except BaseException:  # stopped early (a time limit, an error): drop the chunks not yet started
                pool.shutdown(wait=True, cancel_futures=True)
                raise


def _setup_worker(setup: Callable[[Any], None], job: Any) -> None:
    """A worker's setup: one torch thread (the pool already uses every core; torch's results do not depend
    on its thread count at the padded batch height) then the job's own."""
    import sys

    if "torch" in sys.modules:
        sys.modules["torch"].set_num_threads(1)
    setup(job)


def make_executor(workers: int | None, executor: Executor | None, chunks: int) -> Executor:
    """``executor`` if given, else a process pool of ``workers`` (default: one per core) but never more
    processes than chunks; inline inside a pool's own worker (a daemon process may not have children)."""
    if executor is not None:
        return executor
    if mp.current_process().daemon:
        return InlineExecutor()
    n = default_workers() if workers is None else max(1, int(workers))
    n = min(n, max(1, chunks))
    return InlineExecutor() if n == 1 else ProcessExecutor(n)
