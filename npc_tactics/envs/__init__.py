"""Gymnasium and PettingZoo environments over the rules engines.

Importing this package registers every system's Gymnasium id (``npc_tactics/OSE-v0`` ...)::

    import gymnasium, npc_tactics.envs
    env = gymnasium.make("npc_tactics/OSE-v0", scenario="goblin_duel", opponents=["by-the-book"])

PettingZoo: ``aec_env(system=...)`` (order-enforcing and bounds-checking wrappers on top) and
``parallel_env(system=...)``.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from npc_tactics.envs.pettingzoo_env import TacticsAECEnv, TacticsParallelEnv
    from npc_tactics.envs.rewards import RewardConfig
    from npc_tactics.envs.tactics_env import TacticsEnv
    from npc_tactics.registration import register_envs

# Imported on first use (PEP 562), so ``npc_tactics.envs.encoders`` loads without gymnasium or pettingzoo.
_LAZY = {
    "TacticsAECEnv": "npc_tactics.envs.pettingzoo_env",
    "TacticsParallelEnv": "npc_tactics.envs.pettingzoo_env",
    "RewardConfig": "npc_tactics.envs.rewards",
    "TacticsEnv": "npc_tactics.envs.tactics_env",
    "register_envs": "npc_tactics.registration",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        value = getattr(importlib.import_module(_LAZY[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["RewardConfig", "TacticsAECEnv", "TacticsEnv", "TacticsParallelEnv", "aec_env", "parallel_env",
           "register_envs"]

def aec_env(system: str, scenario: str | None = None, options: dict[str, Any] | None = None,
            reward: dict[str, Any] | RewardConfig | None = None, render_mode: str | None = None,
            illegal_action: str = "terminate") -> Any:
    """A PettingZoo AEC env for ``system`` with PettingZoo's standard safety wrappers."""
    from pettingzoo.utils import wrappers

    from npc_tactics.envs.pettingzoo_env import TacticsAECEnv

    env: Any = TacticsAECEnv(system, scenario, options, reward, render_mode, illegal_action)
    env = wrappers.AssertOutOfBoundsWrapper(env)
    return wrappers.OrderEnforcingWrapper(env)


def parallel_env(system: str, scenario: str | None = None, options: dict[str, Any] | None = None,
                 reward: dict[str, Any] | RewardConfig | None = None,
                 render_mode: str | None = None, illegal_action: str = "terminate") -> TacticsParallelEnv:
    """A PettingZoo parallel env for ``system`` (one decision resolves per step)."""
    from npc_tactics.envs.pettingzoo_env import TacticsParallelEnv

    return TacticsParallelEnv(system, scenario, options, reward, render_mode, illegal_action)

