"""The RuneQuest presets train end to end for a tiny budget; the policy plays legal RQG actions, and
the dodge-vs-parry benchmark (``benchmarks/runequest_tactics.py``) reads the run dir.

Integration: real MaskablePPO on the real engine (a few seconds), not a check of what it learns
(runequest.md "Training results" has those figures).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from npc_tactics.agents.policy import load_policy_agent
from npc_tactics.training.config import load_train_config
from tests.training.preset_helpers import load_benchmark, play_checked, train_tiny

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def dodge_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return train_tiny("runequest_dodge_duel", tmp_path_factory.mktemp("rq") / "dodge")


@pytest.mark.parametrize("preset", ["runequest_parry_duel", "runequest_dodge_duel"])
def test_presets_validate(preset: str) -> None:
    config = load_train_config(preset)
    assert config.system == "runequest"
    assert config.budget.n_envs == 8
    assert config.description


def test_trained_policy_plays_legal_actions(dodge_run: Path) -> None:
    policy = load_policy_agent(dodge_run)
    assert (policy.system, policy.scenario, policy.side) == ("runequest", "dodge_duel", 0)
    assert play_checked(dodge_run, "by-the-book", range(3)).decisions > 0


def test_tactics_benchmark_reads_the_run(dodge_run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bench = load_benchmark("runequest_tactics")
    assert bench.main([str(dodge_run), "--against", "by-the-book", "--fights", "4", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["scenario"] == "dodge_duel" and data["fights"] == 4
    assert sum(r["count"] for r in data["rates"].values()) == 4
    assert set(data["defences"]) <= {"light", "medium", "great", "shield", "missile", "natural"}
    assert bench.main([str(dodge_run), "--fights", "2"]) == 0
    assert "incoming" in capsys.readouterr().out
