"""The MRQ preset trains for a tiny budget, its policy plays legal moves through ``play_fight``, and the
special-effect benchmark (``benchmarks/mrq_tactics.py``) runs on the run dir (docs/mrq.md "Training results")."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from npc_tactics.agents import make_agent
from npc_tactics.agents.base import Observation
from npc_tactics.agents.policy import PolicyAgent, load_policy_agent
from npc_tactics.evaluation.fight import agent_rngs, play_fight
from npc_tactics.systems import get_system
from npc_tactics.training.config import load_train_config
from npc_tactics.training.train import train

pytestmark = pytest.mark.integration

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "mrq_tactics.py"


class _Checked:
    """Wraps the policy: every answer must be legal."""

    def __init__(self, agent: PolicyAgent) -> None:
        self.agent = agent
        self.name = agent.name
        self.decisions = 0

    def act(self, observation: Observation, mask: np.ndarray) -> int:
        action = self.agent.act(observation, mask)
        if not mask[action]:
            raise AssertionError(f"illegal action {action} at {observation.decision.describe()}")
        self.decisions += 1
        return action


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("mrq_tactics", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["mrq_tactics"] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    config = load_train_config("mrq_shield_vs_greataxe").with_overrides(
        **{
            "budget.timesteps": 1024,
            "budget.n_envs": 2,
            "budget.eval_every": 0,
            "budget.eval_episodes": 4,
            "budget.checkpoint_every": 0,
            "ppo.n_steps": 128,
            "ppo.batch_size": 128,
            "ppo.n_epochs": 1,
        }
    )
    return train(config, tmp_path_factory.mktemp("mrq") / "run", progress=False, config_source="test")


def test_trained_policy_plays_legal_moves(run_dir: Path) -> None:
    agent = load_policy_agent(run_dir)
    assert agent.system == "mrq" and agent.scenario == "shield_vs_greataxe" and agent.side == 0
    info = get_system("mrq")
    engine = info.load("engine")(agent.options or None)
    encoder = info.load("encoder")(engine)
    scenario = info.load("content").load_scenario(agent.scenario)
    checked = _Checked(agent)
    for seed in range(4):
        rngs = agent_rngs(seed, 2)
        rec = play_fight(engine, encoder, scenario, [checked, make_agent("mrq", "by-the-book", engine, rngs[1])], seed)
        assert rec.results[0] in ("win", "loss", "draw", "fled")
    assert checked.decisions > 0


def test_effect_benchmark_runs_on_the_run_dir(run_dir: Path) -> None:
    report = _bench().run(run_dir, "by-the-book", fights=3, seed=0)
    assert set(report["players"]) == {"trained", "by-the-book", "trained+book-effects", "book+trained-effects"}
    for player in report["players"].values():
        assert player["fights"] == 3
        assert 0.0 <= player["win"]["rate"] <= 1.0
        assert player["effect_decisions"] == sum(sum(c.values()) for c in player["effects_by_situation"].values())
    # the by-the-book player always agrees with the by-the-book priority
    assert report["players"]["by-the-book"]["differs_from_book"]["count"] == 0
