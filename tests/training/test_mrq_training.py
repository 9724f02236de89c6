"""The MRQ preset trains for a tiny budget, its policy plays legal moves through ``play_fight``, and the
special-effect benchmark (``benchmarks/mrq_tactics.py``) runs on the run dir (docs/mrq.md "Training results")."""

from __future__ import annotations

from pathlib import Path

import pytest

from npc_tactics.agents.policy import load_policy_agent
from tests.training.preset_helpers import load_benchmark, play_checked, train_tiny

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return train_tiny("mrq_shield_vs_greataxe", tmp_path_factory.mktemp("mrq") / "run")


def test_trained_policy_plays_legal_moves(run_dir: Path) -> None:
    agent = load_policy_agent(run_dir)
    assert agent.system == "mrq" and agent.scenario == "shield_vs_greataxe" and agent.side == 0
    assert play_checked(run_dir, "by-the-book", range(4)).decisions > 0


def test_effect_benchmark_runs_on_the_run_dir(run_dir: Path) -> None:
    report = load_benchmark("mrq_tactics").run(run_dir, "by-the-book", fights=3, seed=0)
    assert set(report["players"]) == {"trained", "by-the-book", "trained+book-effects", "book+trained-effects"}
    for player in report["players"].values():
        assert player["fights"] == 3
        assert 0.0 <= player["win"]["rate"] <= 1.0
        assert player["effect_decisions"] == sum(sum(c.values()) for c in player["effects_by_situation"].values())
    # the by-the-book player always agrees with the by-the-book priority
    assert report["players"]["by-the-book"]["differs_from_book"]["count"] == 0
