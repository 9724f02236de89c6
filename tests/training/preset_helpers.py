"""Shared by the per-system preset tests: a tiny real training run, a policy wrapper that fails on any illegal
choice, fights through ``play_fight`` and loading a ``benchmarks/<system>_tactics.py`` script."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import numpy as np

from npc_tactics.agents.base import Observation
from npc_tactics.agents.policy import load_policy_agent
from npc_tactics.agents.resolve import agent_factory
from npc_tactics.evaluation.arena import Arena
from npc_tactics.evaluation.fight import agent_rngs, play_fight
from npc_tactics.training.config import load_train_config
from npc_tactics.training.train import train

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"

TINY = {
    "budget.timesteps": 1024,
    "budget.n_envs": 2,
    "budget.eval_every": 0,
    "budget.eval_episodes": 4,
    "budget.checkpoint_every": 0,
    "ppo.n_steps": 128,
    "ppo.batch_size": 128,
    "ppo.n_epochs": 1,
}


def train_tiny(preset: str, out: Path) -> Path:
    """Train ``preset`` for 1024 real MaskablePPO steps on 2 envs; returns the run dir."""
    return train(load_train_config(preset).with_overrides(**TINY), out, progress=False, config_source="test")


class CheckedAgent:
    """Wraps an agent and fails the test on any illegal choice."""

    def __init__(self, inner: object) -> None:
        self.inner = inner
        self.name = "checked"
        self.decisions = 0

    def act(self, observation: Observation, mask: np.ndarray) -> int:
        action = int(self.inner.act(observation, mask))  # type: ignore[attr-defined]
        if not mask[action]:
            raise AssertionError(f"illegal action {action} at {observation.decision.describe()}")
        self.decisions += 1
        return action


def play_checked(run_dir: Path, opponent: str, seeds: range) -> CheckedAgent:
    """Play the run's policy (side 0) against a scripted ``opponent``; every result must be a known one."""
    policy = load_policy_agent(run_dir)
    arena = Arena.build(policy.system, policy.scenario, policy.options)
    checked = CheckedAgent(policy)
    for seed in seeds:
        foe = agent_factory(policy.system, opponent)(arena.engine, agent_rngs(seed, 2)[1])
        record = play_fight(arena.engine, arena.encoder, arena.scenario, [checked, foe], seed)
        assert record.results[0] in ("win", "loss", "draw", "fled")
    return checked


def load_benchmark(name: str) -> ModuleType:
    """Import ``benchmarks/<name>.py`` as a module (the scripts are not part of the package)."""
    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
