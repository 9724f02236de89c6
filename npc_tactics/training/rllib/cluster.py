"""Connecting to Ray for one call: a local instance, the machine's cluster (``auto``) or a remote head.

A Ray instance this module starts is shut down at the end of the ``with`` block; one that was already running
(a test's ``ray.init``, a notebook, a cluster the caller joined) is left alone. When joining an existing
cluster, the driver's copy of the ``npc_tactics`` package is shipped with the job (Ray's ``py_modules``), so
every node plays with the same rules, encoders and agents as the driver; the nodes still need the
dependencies installed (``pip install 'npc-tactics[ray]'`` on each, or a cluster image with them).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from npc_tactics.errors import UserError
from npc_tactics.training.rllib import RayOptions, require_ray

__all__ = ["check_address", "ray_session"]


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
    # Quiet, and no dashboard or usage report: a training run's stderr is for its own progress.
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False, "logging_level": "ERROR"}
    if address is None:
        kwargs["num_cpus"] = options.num_cpus
    else:
        kwargs["address"] = address
        kwargs["runtime_env"] = {"py_modules": [_package_dir()]}
        kwargs.pop("include_dashboard")
    try:
        ray.init(**kwargs)
    except (ConnectionError, RuntimeError, ValueError) as exc:
        first = str(exc).strip().splitlines()[0][:200] if str(exc).strip() else type(exc).__name__
        where = address or "a local Ray instance"
        raise UserError(f"--address: cannot connect to {where} ({first})") from None
    try:
        yield ray
    finally:
        ray.shutdown()
