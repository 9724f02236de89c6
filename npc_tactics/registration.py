"""Gymnasium registration of ``npc_tactics/<System>-v0`` (imports gymnasium only; run on ``import npc_tactics``)."""

from __future__ import annotations

import gymnasium

from npc_tactics.systems import SYSTEMS

MAX_EPISODE_STEPS = 5000  # a safety net: engines end fights by their own round caps long before


def register_envs() -> None:
    """Register every system's id (idempotent). Kwargs given to ``gymnasium.make`` reach ``TacticsEnv``."""
    for name, info in SYSTEMS.items():
        if info.gym_id in gymnasium.registry:
            continue
        gymnasium.register(
            id=info.gym_id,
            entry_point="npc_tactics.envs.tactics_env:TacticsEnv",
            kwargs={"system": name},
            max_episode_steps=MAX_EPISODE_STEPS,
        )
