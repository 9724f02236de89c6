"""The layers hold at run time: the rules load no learning library, and the Gymnasium ids are registered where
Gymnasium is imported (import-linter checks the static graph, ``make test`` runs it; these check real imports)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
HEAVY = ("gymnasium", "pettingzoo", "torch", "stable_baselines3", "sb3_contrib")


def _run(code: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT,
                          timeout=120)


def test_rules_encoders_and_policy_io_load_no_learning_library() -> None:
    code = f"""
import sys
import npc_tactics, npc_tactics.rules, npc_tactics.policy_io.agent
from npc_tactics.registry import SYSTEMS
for info in SYSTEMS.values():
    engine = info.load("engine")(None)
    info.load("content")
    info.load("encoder")(engine)
print(sorted(m for m in {HEAVY!r} if m in sys.modules))
"""
    out = _run(code)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]", f"loaded by the rules layer: {out.stdout.strip()}"


def test_import_npc_tactics_envs_registers_the_gymnasium_ids() -> None:
    out = _run("import gymnasium, npc_tactics.envs\n"
               "env = gymnasium.make('npc_tactics/OSE-v0', opponents=['random', 'by-the-book'])\n"
               "print(type(env.unwrapped).__name__, env.spec.max_episode_steps)")
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["TacticsEnv", "5000"]


def test_gymnasium_make_with_the_module_prefix_needs_no_import() -> None:
    # Gymnasium 1.x dropped plugin entry points; "module:id" is its way to make an env nobody imported yet.
    out = _run("import gymnasium, sys\n"
               "assert 'npc_tactics' not in sys.modules\n"
               "env = gymnasium.make('npc_tactics.envs:npc_tactics/DicePool-v0', opponents='random')\n"
               "obs, info = env.reset(seed=0)\n"
               "print(obs.shape == env.observation_space.shape, bool(info['action_mask'].any()))")
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["True", "True"]


def test_import_npc_tactics_alone_registers_nothing() -> None:
    out = _run("import npc_tactics, gymnasium\n"
               "print(any(k.startswith('npc_tactics/') for k in gymnasium.registry))")
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"


def test_tactics_env_takes_agents_and_factories_not_names() -> None:
    from npc_tactics.agents.base import RandomLegalAgent
    from npc_tactics.envs.tactics_env import TacticsEnv
    from npc_tactics.make_env import make_env

    built: list[int] = []

    def factory(engine: object, rng: np.random.Generator) -> RandomLegalAgent:
        built.append(1)
        return RandomLegalAgent(None, rng)

    env = TacticsEnv("ose", opponents=[factory, RandomLegalAgent])  # a class is a factory too
    n = len(built)
    for seed in range(6):
        env.reset(seed=seed)
    assert env.opponent is not None and len(built) > n  # factories are called per episode
    with pytest.raises(ValueError, match="needs opponents"):
        TacticsEnv("ose")
    with pytest.raises(TypeError, match="neither an Agent nor a factory"):
        TacticsEnv("ose", opponents="by-the-book")  # type: ignore[arg-type]  # names belong to make_env
    assert type(make_env("ose", opponents="by-the-book")).__name__ == "TacticsEnv"
