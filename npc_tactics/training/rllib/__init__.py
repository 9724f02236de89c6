"""The RLlib backend (``backend: rllib``): RLlib PPO on a Ray cluster, behind the optional ``[ray]`` extra.

* :mod:`.env`: the SB3 path's learner seat (``LearnerSession``) as an RLlib multi-agent env, every NPC of the
  trained side an agent, the other side played inside;
* :mod:`.selfplay`: snapshots of the module sent to the opponent pools of every env runner;
* :mod:`.module`: the RLModule (MaskablePPO's layers under SB3's names, the mask applied in the module);
* :mod:`.algo`: a :class:`~npc_tactics.training.config.TrainConfig` as an RLlib ``PPOConfig``;
* :mod:`.train`: one training segment into a run folder (checkpoints, evaluation, ``policy.pt``, resume);
* connecting to Ray (a local instance, ``auto`` or ``ray://HOST:PORT``) is :mod:`npc_tactics.cluster`'s job.

Importing this package is cheap and does not need Ray (:class:`RayOptions` and :func:`require_ray` are
re-exported from :mod:`npc_tactics.cluster`, so the SB3 trainer can refuse a missing extra with one line).
"""

from __future__ import annotations

from npc_tactics.cluster import INSTALL_HINT, RayOptions, require_ray

__all__ = ["INSTALL_HINT", "RayOptions", "require_ray"]
