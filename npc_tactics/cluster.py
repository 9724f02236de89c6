"""Ray, for the commands that can use it: connecting (a local instance, this machine's cluster, a remote head)
and a ``concurrent.futures``-like executor over Ray actors.

Ray is the optional ``[ray]`` extra: importing this module does not import it; :func:`require_ray` turns its
absence into one line. A Ray instance :func:`ray_session` starts is shut down when its ``with`` block ends; one
already running (a test's ``ray.init``, a notebook, a cluster the caller joined) is left alone. When joining an
existing cluster, the driver's copy of the ``npc_tactics`` package is shipped with the job (Ray's
``py_modules``), so every node plays with the driver's rules, encoders and agents; the nodes still need the
dependencies (``pip install 'npc-tactics[ray]'`` on each, or a cluster image with them), and run folders or
bundles named on the command line must be readable at the same path on every node (a shared filesystem).

:class:`RayExecutor` has the shape of ``ProcessPoolExecutor(max_workers, initializer=, initargs=)``: each worker
(a Ray actor, one CPU) runs ``initializer(*initargs)`` once, then ``map(fn, items)`` calls ``fn(item)`` on the
workers and yields the results in the order of ``items``. Code written for a process pool (a module-level
initializer that loads agents into a global, a chunk function that reads it) runs on a cluster unchanged, and
its results are the same as long as each item's result depends only on the item (per-fight seeds).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from npc_tactics.errors import UserError

__all__ = ["INSTALL_HINT", "RayExecutor", "RayOptions", "check_address", "ray_session", "require_ray"]

INSTALL_HINT = "pip install 'npc-tactics[ray]'"


@dataclass(frozen=True)
class RayOptions:
    """Where and how wide to run: ``address`` None starts a local Ray instance for the call (``num_cpus``
    CPUs, default all); ``auto`` joins the cluster this machine belongs to; ``ray://HOST:PORT`` is a Ray
    Client connection to a remote head. ``num_env_runners`` (training only) 0 samples in the driver process."""

    address: str | None = None
    num_env_runners: int = 0
    num_cpus: int | None = None


def require_ray(what: str = "--backend rllib") -> None:
    """Raise a one-line UserError when Ray with RLlib is not installed."""
    try:
        import ray  # noqa: F401
        import ray.rllib  # noqa: F401
    except ImportError:
        raise UserError(f"{what} needs Ray with RLlib: {INSTALL_HINT}") from None


def check_address(address: str | None) -> str | None:
    """``auto``, ``ray://HOST:PORT``, ``HOST:PORT`` or None; anything else is a one-line UserError."""
    if address is None:
        return None
    text = address.strip()
    if text == "auto" or text.startswith("ray://") or (":" in text and text.rsplit(":", 1)[1].isdigit()):
        return text
    raise UserError(f"--address: expected auto, ray://HOST:PORT or HOST:PORT, got {address!r}")


def _package_dir() -> str:
    import npc_tactics

    return str(Path(npc_tactics.__file__).resolve().parent)


@contextmanager
def ray_session(options: RayOptions | None = None) -> Iterator[Any]:
    """``ray`` connected as ``options`` say (see the module docstring); yields the ``ray`` module."""
    require_ray()
    import ray

    options = options or RayOptions()
    if ray.is_initialized():
        yield ray
        return
    address = check_address(options.address)
    # No usage report, no dashboard, no worker logs on the driver's stderr (a command's stderr is its progress).
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    kwargs: dict[str, Any] = {"log_to_driver": False, "logging_level": "ERROR"}
    if address is None:
        kwargs.update(num_cpus=options.num_cpus, include_dashboard=False)
    else:
        kwargs.update(address=address, runtime_env={"py_modules": [_package_dir()]})
    try:
        ray.init(**kwargs)
    except (ConnectionError, RuntimeError, ValueError) as exc:
        first = str(exc).strip().splitlines()[0][:200] if str(exc).strip() else type(exc).__name__
        raise UserError(f"--address: cannot connect to {address or 'a local Ray instance'} ({first})") from None
    try:
        yield ray
    finally:
        ray.shutdown()


class _Worker:
    """One executor worker: runs the initializer once, then calls what it is sent (a Ray actor's class)."""

    def __init__(self, initializer: Callable[..., Any] | None, initargs: tuple[Any, ...]) -> None:
        if initializer is not None:
            initializer(*initargs)

    def call(self, fn: Callable[[Any], Any], item: Any) -> Any:
        return fn(item)


class RayExecutor:
    """``map`` over ``max_workers`` Ray actors (default: one per CPU of the cluster), results in input order.

    Use as a context manager: on entry it connects (:func:`ray_session`) and starts the workers, on exit it
    stops them (and the Ray instance it started, if any)."""

    def __init__(self, max_workers: int | None = None, initializer: Callable[..., Any] | None = None,
                 initargs: tuple[Any, ...] = (), options: RayOptions | None = None) -> None:
        if max_workers is not None and max_workers < 1:
            raise ValueError(f"max_workers must be at least 1, got {max_workers}")
        self.max_workers = max_workers
        self.initializer = initializer
        self.initargs = initargs
        self.options = options or RayOptions()
        self._session: Any = None
        self._actors: list[Any] = []

    def __enter__(self) -> RayExecutor:
        options = self.options
        if options.address is None and options.num_cpus is None and self.max_workers is not None:
            options = RayOptions(num_cpus=max(os.cpu_count() or 1, self.max_workers))  # room for every worker
        self._session = ray_session(options)
        ray = self._session.__enter__()
        try:
            workers = self.max_workers or max(1, int(ray.cluster_resources().get("CPU", 1)))
            remote = ray.remote(num_cpus=1)(_Worker)
            self._actors = [remote.remote(self.initializer, self.initargs) for _ in range(workers)]
        except BaseException:
            self._session.__exit__(None, None, None)
            raise
        return self

    def __exit__(self, *exc: Any) -> None:
        import ray

        for actor in self._actors:
            ray.kill(actor)
        self._actors = []
        self._session.__exit__(*exc)

    @property
    def workers(self) -> int:
        return len(self._actors)

    def map(self, fn: Callable[[Any], Any], items: Iterable[Any]) -> Iterator[Any]:
        """``fn(item)`` for every item, on the workers (at most two items in flight per worker), in order."""
        if not self._actors:
            raise RuntimeError("RayExecutor.map outside its with block")
        from ray.util import ActorPool

        pool = ActorPool(self._actors)
        return pool.map(lambda actor, item: actor.call.remote(fn, item), items)
