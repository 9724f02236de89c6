"""The RuneQuest presets train end to end for a tiny budget; the policy plays legal RQG actions, and
the dodge-vs-parry benchmark (``benchmarks/runequest_tactics.py``) reads the run dir.

Integration: real MaskablePPO on the real engine (a few seconds), not a check of what it learns
(runequest.md "Training results" has those figures).
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import numpy as np
import pytest

from npc_tactics.agents.base import Observation
from npc_tactics.agents.policy import load_policy_agent
from npc_tactics.agents.resolve import agent_factory
from npc_tactics.evaluation.arena import Arena
from npc_tactics.evaluation.fight import play_fight
from npc_tactics.training.config import load_train_config
from npc_tactics.training.train import train

pytestmark = pytest.mark.integration

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "runequest_tactics.py"

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


class _CheckedPolicy:
    """Wraps the policy agent and fails the test on any illegal choice."""

    def __init__(self, inner: object) -> None:
        self.inner = inner
        self.name = "checked"
        self.choices = 0

    def act(self, observation: Observation, mask: np.ndarray) -> int:
        a = int(self.inner.act(observation, mask))  # type: ignore[attr-defined]
        assert mask[a], f"illegal action {a} chosen"
        self.choices += 1
        return a


@pytest.fixture(scope="module")
def dodge_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    config = load_train_config("runequest_dodge_duel").with_overrides(**TINY)
    out = tmp_path_factory.mktemp("rq") / "dodge"
    return train(config, out, progress=False)


@pytest.mark.parametrize("preset", ["runequest_parry_duel", "runequest_dodge_duel"])
def test_presets_validate(preset: str) -> None:
    config = load_train_config(preset)
    assert config.system == "runequest"
    assert config.budget.n_envs == 8
    assert config.description


def test_trained_policy_plays_legal_actions(dodge_run: Path) -> None:
    policy = load_policy_agent(dodge_run)
    assert (policy.system, policy.scenario, policy.side) == ("runequest", "dodge_duel", 0)
    arena = Arena.build("runequest", "dodge_duel", policy.options)
    checked = _CheckedPolicy(policy)
    opponent = agent_factory("runequest", "by-the-book")(arena.engine, np.random.default_rng(1))
    for seed in range(3):
        rec = play_fight(arena.engine, arena.encoder, arena.scenario, [checked, opponent], seed)
        assert rec.results[0] in ("win", "loss", "draw", "fled")
    assert checked.choices > 0


def test_tactics_benchmark_reads_the_run(dodge_run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = importlib.util.spec_from_file_location("runequest_tactics", BENCH)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    assert bench.main([str(dodge_run), "--against", "by-the-book", "--fights", "4", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["scenario"] == "dodge_duel" and data["fights"] == 4
    assert sum(r["count"] for r in data["rates"].values()) == 4
    assert set(data["defences"]) <= {"light", "medium", "great", "shield", "missile", "natural"}
    assert bench.main([str(dodge_run), "--fights", "2"]) == 0
    assert "incoming" in capsys.readouterr().out
