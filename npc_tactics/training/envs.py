"""Vectorised training environments built from a :class:`TrainConfig`.

The default (``backend="native"``) is :class:`~npc_tactics.training.vec_env.TacticsVecEnv`: N fight sessions
stepped directly, observations encoded into one batch, roll events off. It plays the same episodes for the same
seeds as the Gymnasium path it replaces, which stays selectable (``backend="dummy"``, what benchmarks compare
against): each worker is ``gymnasium.make(<system gym id>, ...)`` (the registration's ``TimeLimit``) wrapped in
SB3's ``Monitor`` inside a ``DummyVecEnv``, and MaskablePPO reaches ``action_masks()`` through the wrappers with
``get_wrapper_attr``. Both run in this process: the fights are small and a subprocess per env costs more than
it saves on 2 cores (measured: ``SubprocVecEnv(2)`` is no faster).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
from stable_baselines3.common.monitor import Monitor
from stable_baselines3.common.vec_env import DummyVecEnv, VecEnv

from npc_tactics.agents.base import Agent, AgentFactory
from npc_tactics.envs.registration import MAX_EPISODE_STEPS
from npc_tactics.plugin import System
from npc_tactics.training.config import OpponentPoolConfig, TrainConfig, is_run_dir
from npc_tactics.training.vec_env import TacticsVecEnv

__all__ = ["BACKENDS", "env_kwargs", "eval_opponents", "make_single_env", "make_vec_env", "resolve_opponents"]

BACKENDS = ("native", "dummy")  #: vec env backends: TacticsVecEnv (default), or DummyVecEnv over Gymnasium envs

Opponent = str | Agent | AgentFactory


def resolve_opponents(config: TrainConfig, seed: int = 0) -> list[Opponent]:
    """Scripted names stay names (the env builds them per episode); run dirs become frozen policies
    that sample their moves from their own seeded stream. A pool config (``opponents: {pool: ...}``)
    becomes one :class:`~npc_tactics.training.opponent_pool.OpponentPool`, the env's only opponent factory."""
    from npc_tactics.agents.policy import load_policy_agent

    if isinstance(config.opponents, OpponentPoolConfig):
        from npc_tactics.training.opponent_pool import build_pool

        engine, encoder = _engine_and_encoder(config)
        pool = build_pool(config, int(encoder.size), len(engine.catalogue))
        pool.add_placeholder(seed)
        return [pool]
    out: list[Opponent] = []
    for k, spec in enumerate(config.opponents):
        if is_run_dir(spec):
            out.append(load_policy_agent(Path(spec), deterministic=False, rng=np.random.default_rng([seed, k])))
        else:
            out.append(spec)
    return out


def eval_opponents(config: TrainConfig, opponents: Sequence[Opponent]) -> list[tuple[str, Opponent]]:
    """``(label, opponent)`` pairs the training-time evaluation plays against: the resolved plain list (each
    name once: ``[by-the-book, by-the-book, aggressive]`` weights the training draws, not the evaluation), or
    the fixed members of a pool (not ``self``: the policy against its own past is no yardstick)."""
    from npc_tactics.training.opponent_pool import OpponentPool

    if isinstance(config.opponents, OpponentPoolConfig):
        pool = opponents[0]
        assert isinstance(pool, OpponentPool)
        fixed: list[tuple[str, Opponent]] = [(m.label, m.make) for m in pool.members
                                             if m.label != "self" and m.make is not None]
        return fixed or [("by-the-book", "by-the-book")]
    out: list[tuple[str, Opponent]] = []
    for name, opp in zip(config.opponents, opponents, strict=True):  # a name listed twice (a weight) plays once
        if str(name) not in {label for label, _ in out}:
            out.append((str(name), opp))
    return out


def _engine_and_encoder(config: TrainConfig) -> tuple[Any, Any]:
    info = config.plugin
    engine = info.load("engine")(dict(config.options))
    return engine, info.load("encoder")(engine)


def env_kwargs(config: TrainConfig, opponents: Sequence[Opponent] | None = None) -> dict[str, Any]:
    """Keyword arguments of ``gymnasium.make`` for ``config`` (``opponents`` overrides the config's)."""
    if opponents is None and isinstance(config.opponents, OpponentPoolConfig):
        opponents = resolve_opponents(config, config.seed)
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


def gym_id(system: System) -> str:
    import npc_tactics.envs  # noqa: F401  (registers the ids)

    return system.gym_id


def make_single_env(
    config: TrainConfig, opponents: Sequence[Opponent] | None = None, monitor: bool = True
) -> gym.Env[Any, Any]:
    env = gym.make(gym_id(config.plugin), **env_kwargs(config, opponents))
    return Monitor(env) if monitor else env


def make_vec_env(
    config: TrainConfig,
    seed: int,
    n_envs: int | None = None,
    opponents: Sequence[Opponent] | None = None,
    backend: str = "native",
) -> VecEnv:
    """``n_envs`` (default ``budget.n_envs``) workers; worker ``i`` is seeded ``seed + i`` at its
    first reset. ``backend``: ``"native"`` (:class:`TacticsVecEnv`) or ``"dummy"`` (the Gymnasium path)."""
    if backend not in BACKENDS:
        raise ValueError(f"backend must be one of {BACKENDS}, got {backend!r}")
    pool = list(opponents) if opponents is not None else resolve_opponents(config, seed)
    n = n_envs or config.budget.n_envs
    if backend == "native":
        kwargs = env_kwargs(config, pool)
        native = TacticsVecEnv(config.system, n, kwargs["scenario"], kwargs["side"], kwargs["opponents"],
                               kwargs["reward"], kwargs["options"], max_episode_steps=MAX_EPISODE_STEPS,
                               encounter=kwargs.get("encounter"))
        native.seed(seed)
        return native

    def factory() -> Callable[[], gym.Env[Any, Any]]:
        return lambda: make_single_env(config, pool)

    vec = DummyVecEnv([factory() for _ in range(n)])
    vec.seed(seed)
    return vec
