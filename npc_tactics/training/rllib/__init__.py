"""The RLlib backend (``backend: rllib``): RLlib PPO on a Ray cluster, behind the optional ``[ray]`` extra.

* :mod:`.env`: the PettingZoo parallel env as an RLlib multi-agent env, the other side played inside;
* :mod:`.module`: the RLModule (MaskablePPO's layers under SB3's names, the mask applied in the module);
* :mod:`.algo`: a :class:`~npc_tactics.training.config.TrainConfig` as an RLlib ``PPOConfig``;
* :mod:`.train`: one training segment into a run folder (checkpoints, evaluation, ``policy.pt``, resume);
* :mod:`.cluster`: connecting to Ray (a local instance, ``auto`` or ``ray://HOST:PORT``).

Importing this package is cheap and does not need Ray: :class:`RayOptions` and :func:`require_ray` are here
so the CLI and the SB3 trainer can refuse a missing extra with one line.
"""

from __future__ import annotations

from dataclasses import dataclass

from npc_tactics.errors import UserError

__all__ = ["INSTALL_HINT", "RayOptions", "require_ray"]

INSTALL_HINT = "pip install 'npc-tactics[ray]'"


@dataclass(frozen=True)
class RayOptions:
    """Where and how wide to run: ``address`` None starts a local Ray instance for the call (``num_cpus``
    CPUs, default all); ``auto`` joins the cluster this machine belongs to; ``ray://HOST:PORT`` is a Ray
    Client connection to a remote head. ``num_env_runners`` 0 samples in the driver process."""

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
