"""The command line's Ray options: ``train --backend rllib --address ... --num-env-runners N`` and
``evaluate --workers N [--address ...]``. Kept apart from ``cli.py`` so the commands stay a list, and light:
nothing here imports Ray (a missing ``[ray]`` extra is a one-line error only when these options are used)."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from npc_tactics.errors import UserError
from npc_tactics.limits import MAX_WORKERS, check_workers

__all__ = ["AddressOption", "BackendOption", "EnvRunnersOption", "WorkersOption", "ray_executor",
           "ray_train_options"]

MAX_RUNNERS = 1024

BackendOption = Annotated[str | None, typer.Option(
    metavar="sb3|rllib", help="Who trains (default: the config's `backend:`, else sb3): sb3 = MaskablePPO on this "
    "machine; rllib = RLlib PPO on Ray (pip install 'npc-tactics[ray]'). A resumed run keeps its own.")]
AddressOption = Annotated[str | None, typer.Option(
    metavar="local|auto|ray://HOST:PORT", help="Run on Ray: local = a Ray instance started for this command, "
    "auto = the cluster this machine is part of (`ray start --head`), ray://HOST:PORT = a remote head (Ray "
    "Client). Training with --backend rllib starts a local instance without it. See docs/scale.md.")]
EnvRunnersOption = Annotated[int | None, typer.Option(
    metavar="N", help=f"With --backend rllib: RLlib env runners sampling fights in parallel (0 to {MAX_RUNNERS}; "
    "default 0 = sample in this process; each runner takes one CPU of the cluster).")]
WorkersOption = Annotated[int | None, typer.Option(
    metavar="N", help=f"Worker processes playing the fights (1 to {MAX_WORKERS}; default one per core), or Ray "
    f"workers with --address (1 to {MAX_RUNNERS}; default one per cluster CPU). The numbers do not depend on it.")]


def _check_runners(value: int | None, flag: str, low: int) -> None:
    if value is not None and not low <= value <= MAX_RUNNERS:
        raise UserError(f"{flag}: expected {low} to {MAX_RUNNERS}, got {value}")


def ray_train_options(backend: str | None, address: str | None, num_env_runners: int | None) -> Any:
    """The :class:`~npc_tactics.cluster.RayOptions` of ``train`` (None for the sb3 backend); each bad flag is one
    line naming it (a missing extra is refused by the trainer, after the config was checked)."""
    if backend not in (None, "sb3", "rllib"):
        raise UserError(f"--backend: expected sb3 or rllib, got {backend!r}")
    _check_runners(num_env_runners, "--num-env-runners", 0)
    if backend != "rllib":
        used = [flag for flag, v in (("--address", address), ("--num-env-runners", num_env_runners)) if v is not None]
        if used:
            raise UserError(f"{used[0]}: only applies with --backend rllib (or `backend: rllib` in the config)")
        return None
    from npc_tactics.cluster import RayOptions, check_address

    return RayOptions(address=check_address(address), num_env_runners=num_env_runners or 0)


def ray_executor(address: str | None, workers: int | None) -> Any:
    """A :class:`~npc_tactics.cluster.RayExecutor` when ``--address`` is given (``workers`` Ray workers, default
    one per cluster CPU), else None: the fights run in local worker processes (``--workers``, capped like every
    command's local processes: :data:`npc_tactics.limits.MAX_WORKERS`)."""
    if address is None:
        check_workers(workers)
    _check_runners(workers, "--workers", 1)
    from npc_tactics.cluster import ray_executor_for

    return ray_executor_for(address, workers)
