"""The dice-pool melee-duel preset trains for a tiny budget, its policy plays only legal moves through
``play_fight``, and ``benchmarks/dicepool_tactics.py`` reads the run dir (docs/dicepool.md "Training
results")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from npc_tactics.agents.policy import load_policy_agent
from tests.training.preset_helpers import load_benchmark, play_checked, train_tiny

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return train_tiny("dicepool_melee_duel", tmp_path_factory.mktemp("dp") / "run")


def test_preset_policy_plays_legal_moves(run_dir: Path) -> None:
    agent = load_policy_agent(run_dir)
    assert (agent.system, agent.scenario, agent.side) == ("dicepool", "melee_duel", 0)
    assert play_checked(run_dir, "cautious", range(4)).decisions > 0


def test_tactics_benchmark_reads_the_run(run_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bench = load_benchmark("dicepool_tactics")
    assert bench.main([str(run_dir), "--fights", "3", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [r["opponent"] for r in out["results"]] == ["aggressive", "cautious"]
    for r in out["results"]:
        assert sum(r["rates"][k]["count"] for k in ("win", "draw", "loss", "fled")) == 3
        assert set(r["split_by_next"]) <= {"self", "ally", "enemy", "new_turn"}
    assert bench.main([str(run_dir.parent / "missing")]) == 2
