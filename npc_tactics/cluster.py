"""Ray, for the commands that can use it: connecting (a local instance, this machine's cluster, a remote head)
and a ``concurrent.futures``-like executor over Ray actors.

Ray is the optional ``[ray]`` extra: importing this module does not import it; :func:`require_ray` turns its
absence into one line. A Ray instance :func:`ray_session` starts is shut down when its ``with`` block ends; one
already running (a test's ``ray.init``, a notebook, a cluster the caller joined) is left alone. When joining an
existing cluster, the driver's copy of the ``npc_tactics`` package is shipped with the job (Ray's
``py_modules``), so every node plays with the driver's rules, encoders and agents; the nodes still need the
dependencies (``pip install 'npc-tactics[ray]'`` on each, or a cluster image with them), and run folders or
bundles named on the command line must be readable at the same path on every node (a shared filesystem).

:class:`RayExecutor` is an executor of the lockstep fight runner (:mod:`npc_tactics.rollouts.executors`), like
its process pool: each worker (a Ray actor, one CPU) sets the job up once (loads its agents, bundles and run
folders), then plays the chunks it is sent; the results come back in chunk order. A fight depends only on its
seed, never on the worker, so tournaments, odds and every other caller of the runner give the same figures on
a cluster as at home (tested on tournaments: ``results.json`` byte for byte).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from npc_tactics.errors import UserError

__all__ = ["INSTALL_HINT", "RayExecutor", "RayOptions", "check_address", "ray_executor_for", "ray_session",
           "require_ray"]

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
    """``auto``, ``ray://HOST:PORT``, ``HOST:PORT``, or None (also for ``local``: start a local instance);
    anything else is a one-line UserError."""
    if address is None:
        return None
    text = address.strip()
    if text == "local":
        return None
    if text == "auto" or text.startswith("ray://") or (":" in text and text.rsplit(":", 1)[1].isdigit()):
        return text
    raise UserError(f"--address: expected local, auto, ray://HOST:PORT or HOST:PORT, got {address!r}")


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
    """One executor worker (a Ray actor): prepares the job once, then runs the chunks it is sent."""

    def __init__(self, setup: Callable[[Any], None], job: Any) -> None:
        import sys

        if "torch" in sys.modules:  # one thread per worker: the workers already share the cores
            sys.modules["torch"].set_num_threads(1)
        setup(job)

    def call(self, fn: Callable[[Any], Any], item: Any) -> Any:
        return fn(item)


class _ActorMapper:
    def __init__(self, actors: list[Any]) -> None:
        self.actors = actors

    def map(self, fn: Callable[[Any], Any], iterable: Iterable[Any]) -> Iterator[Any]:
        """``fn(item)`` on the workers (at most two items in flight per worker), results in input order."""
        from ray.util import ActorPool

        return ActorPool(self.actors).map(lambda actor, item: actor.call.remote(fn, item), iterable)


class RayExecutor:
    """An executor of the lockstep fight runner (:mod:`npc_tactics.rollouts.executors`) over Ray actors:
    ``session(setup, job)`` connects (:func:`ray_session`), starts ``workers`` actors of one CPU each (default:
    one per CPU of the cluster), each runs ``setup(job)`` once, and yields a mapper whose ``map`` returns the
    results in input order; on exit the actors are stopped (and the Ray instance, if this call started it)."""

    def __init__(self, workers: int | None = None, options: RayOptions | None = None) -> None:
        if workers is not None and workers < 1:
            raise ValueError(f"workers must be at least 1, got {workers}")
        self.workers = workers
        self.options = options or RayOptions()

    @contextmanager
    def session(self, setup: Callable[[Any], None], job: Any) -> Iterator[_ActorMapper]:
        options = self.options
        if options.address is None and options.num_cpus is None and self.workers is not None:
            options = RayOptions(num_cpus=max(os.cpu_count() or 1, self.workers))  # room for every worker
        with ray_session(options) as ray:
            n = self.workers or max(1, int(ray.cluster_resources().get("CPU", 1)))
            remote = ray.remote(num_cpus=1)(_Worker)
            shared = ray.put(job)
            actors = [remote.remote(setup, shared) for _ in range(n)]
            try:
                yield _ActorMapper(actors)
            finally:
                for actor in actors:
                    ray.kill(actor)


def ray_executor_for(address: str | None, workers: int | None = None) -> RayExecutor | None:
    """The executor of a command's ``--address`` (``workers`` Ray workers, default one per cluster CPU), or None
    without one (the fights stay in local processes). Bad addresses and a missing extra are one-line errors."""
    if address is None:
        return None
    options = RayOptions(address=check_address(address))
    require_ray("--address")
    return RayExecutor(workers, options)
