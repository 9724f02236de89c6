"""Gymnasium and PettingZoo environments over the rules engines.

Importing this package registers every system's Gymnasium id (``npc_tactics/OSE-v0`` ...)::

    import gymnasium, npc_tactics.envs
    env = gymnasium.make("npc_tactics/OSE-v0", scenario="goblin_duel", opponents=["by-the-book"])

or, with no import first, ``gymnasium.make("npc_tactics.envs:npc_tactics/OSE-v0", ...)``.

PettingZoo: ``aec_env(system=...)`` (order-enforcing and bounds-checking wrappers on top) and
``parallel_env(system=...)``.
"""

from __future__ import annotations

from typing import Any

from pettingzoo.utils import wrappers

from npc_tactics.envs.pettingzoo_env import TacticsAECEnv, TacticsParallelEnv
from npc_tactics.envs.registration import register_envs
from npc_tactics.envs.rewards import RewardConfig
from npc_tactics.envs.tactics_env import TacticsEnv

__all__ = ["RewardConfig", "TacticsAECEnv", "TacticsEnv", "TacticsParallelEnv", "aec_env", "parallel_env",
           "register_envs"]

register_envs()


def aec_env(system: str, scenario: str | None = None, options: dict[str, Any] | None = None,
            reward: dict[str, Any] | RewardConfig | None = None, render_mode: str | None = None,
            illegal_action: str = "terminate", encounter: str | None = None) -> Any:
    """A PettingZoo AEC env for ``system`` with PettingZoo's standard safety wrappers (``encounter``: an
    encounter distribution drawing each reset's fight)."""
    env: Any = TacticsAECEnv(system, scenario, options, reward, render_mode, illegal_action, encounter)
    env = wrappers.AssertOutOfBoundsWrapper(env)
    return wrappers.OrderEnforcingWrapper(env)


def parallel_env(system: str, scenario: str | None = None, options: dict[str, Any] | None = None,
                 reward: dict[str, Any] | RewardConfig | None = None,
                 render_mode: str | None = None, illegal_action: str = "terminate",
                 encounter: str | None = None) -> TacticsParallelEnv:
    """A PettingZoo parallel env for ``system`` (one decision resolves per step; ``encounter``: an encounter
    distribution drawing each reset's fight)."""
    return TacticsParallelEnv(system, scenario, options, reward, render_mode, illegal_action, encounter)

