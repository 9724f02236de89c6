"""Gymnasium ids ``npc_tactics/<System>-v0``, registered by ``import npc_tactics.envs``.

``gymnasium.make("npc_tactics.envs:npc_tactics/OSE-v0")`` imports this package on demand, so it needs no
prior import. Gymnasium 1.0 removed the plugin entry points (a ``[project.entry-points."gymnasium.envs"]``
table is no longer read), so nothing can register the ids before some import of ``npc_tactics.envs``.

The ids name :func:`npc_tactics.make_env.make_env` (a lazy import string, resolved by ``gymnasium.make``): it
sits above the environments and the agents and turns agent names and run folders into the opponent
factories :class:`~npc_tactics.envs.tactics_env.TacticsEnv` takes, so the env never imports the agents.
"""

from __future__ import annotations

import gymnasium

from npc_tactics.registry import SYSTEMS

MAX_EPISODE_STEPS = 5000  # a safety net: engines end fights by their own round caps long before
ENTRY_POINT = "npc_tactics.make_env:make_env"


def register_envs() -> None:
    """Register every system's id (idempotent). Kwargs given to ``gymnasium.make`` reach ``make_env``."""
    for name, info in SYSTEMS.items():
        if info.gym_id in gymnasium.registry:
            continue
        gymnasium.register(
            id=info.gym_id,
            entry_point=ENTRY_POINT,
            kwargs={"system": name},
            max_episode_steps=MAX_EPISODE_STEPS,
        )
