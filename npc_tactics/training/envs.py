"""Vectorised training environments built from a :class:`TrainConfig`.

Each worker is ``gymnasium.make(<system gym id>, ...)`` (so the registration's ``TimeLimit`` stays
and SB3's truncation bootstrapping works) wrapped in SB3's ``Monitor``, inside a ``DummyVecEnv``:
the fights are small and a subprocess per env costs more than it saves on 2 cores (measured:
``SubprocVecEnv(2)`` is no faster). MaskablePPO reaches ``action_masks()`` through the gymnasium
wrappers with ``get_wrapper_attr`` (SB3 2.x ``DummyVecEnv.env_method``), so no ``ActionMasker`` is
needed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
from stable_baselines3.common.monitor import Monitor
from stable_baselines3.common.vec_env import DummyVecEnv

from npc_tactics.agents.base import Agent
from npc_tactics.training.config import TrainConfig, is_run_dir

__all__ = ["env_kwargs", "make_single_env", "make_vec_env", "resolve_opponents"]


def resolve_opponents(config: TrainConfig, seed: int = 0) -> list[str | Agent]:
    """Scripted names stay names (the env builds them per episode); run dirs become frozen policies
    that sample their moves from their own seeded stream."""
    from npc_tactics.agents.policy import load_policy_agent

    out: list[str | Agent] = []
    for k, spec in enumerate(config.opponents):
        if is_run_dir(spec):
            out.append(load_policy_agent(Path(spec), deterministic=False, rng=np.random.default_rng([seed, k])))
        else:
            out.append(spec)
    return out


def env_kwargs(config: TrainConfig, opponents: Sequence[str | Agent] | None = None) -> dict[str, Any]:
    """Keyword arguments of ``gymnasium.make`` for ``config`` (``opponents`` overrides the pool)."""
    out: dict[str, Any] = {
        "scenario": config.scenario,
        "side": config.side,
        "opponents": list(opponents) if opponents is not None else list(config.opponents),
        "reward": config.reward.model_dump(),
        "options": dict(config.options),
    }
    if config.encounter is not None:  # each episode draws its fight (only then: other envs need not know the key)
        out["encounter"] = config.encounter
    return out


def gym_id(system: str) -> str:
    import npc_tactics.envs  # noqa: F401  (registers the ids)
    from npc_tactics.systems import get_system

    return get_system(system).gym_id


def make_single_env(
    config: TrainConfig, opponents: Sequence[str | Agent] | None = None, monitor: bool = True
) -> gym.Env[Any, Any]:
    env = gym.make(gym_id(config.system), **env_kwargs(config, opponents))
    return Monitor(env) if monitor else env


def make_vec_env(
    config: TrainConfig,
    seed: int,
    n_envs: int | None = None,
    opponents: Sequence[str | Agent] | None = None,
) -> DummyVecEnv:
    """``n_envs`` (default ``budget.n_envs``) workers; worker ``i`` is seeded ``seed + i`` at its
    first reset."""
    pool = list(opponents) if opponents is not None else resolve_opponents(config, seed)

    def factory() -> Callable[[], gym.Env[Any, Any]]:
        return lambda: make_single_env(config, pool)

    vec = DummyVecEnv([factory() for _ in range(n_envs or config.budget.n_envs)])
    vec.seed(seed)
    return vec
