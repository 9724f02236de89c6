"""The OSE goblin-duel preset trains end to end for a tiny budget; the policy plays legal OSE actions, and
the tactics benchmark (``benchmarks/ose_tactics.py``) reads the run dir.

Integration: real MaskablePPO on the real engine (a few seconds), not a check of what it learns
(docs/ose.md "Training results" has those figures).
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
def duel_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return train_tiny("ose_goblin_duel", tmp_path_factory.mktemp("ose") / "duel")


@pytest.mark.parametrize("preset", ["ose_goblin_duel", "ose_goblin_band", "ose_caster_duel", "ose_losing_band"])
def test_presets_validate(preset: str) -> None:
    config = load_train_config(preset)
    assert config.system == "ose" and config.description


def test_trained_policy_plays_legal_actions(duel_run: Path) -> None:
    policy = load_policy_agent(duel_run)
    assert (policy.system, policy.scenario, policy.side) == ("ose", "goblin_duel", 0)
    assert play_checked(duel_run, "by-the-book", range(3)).decisions > 0


def test_tactics_benchmark_reads_the_run(duel_run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bench = load_benchmark("ose_tactics")
    assert bench.main([str(duel_run), "--against", "by-the-book", "--fights", "4", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["scenario"] == "goblin_duel" and data["fights"] == 4
    assert sum(r["count"] for r in data["rates"].values()) == 4
    assert set(data["shots_by_range"]) == {"short", "medium", "long"}
    assert 0 <= data["fights_with_melee"] <= 4
    assert bench.main([str(duel_run), "--fights", "2"]) == 0
    assert "melee blows" in capsys.readouterr().out
