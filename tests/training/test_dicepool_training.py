"""The dice-pool melee-duel preset trains for a tiny budget, its policy plays only legal moves through
``play_fight``, and ``benchmarks/dicepool_tactics.py`` reads the run dir (docs/dicepool.md "Training
results")."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import numpy as np
import pytest

from npc_tactics.agents import make_agent
from npc_tactics.agents.policy import load_policy_agent
from npc_tactics.evaluation.fight import agent_rngs, play_fight
from npc_tactics.systems import get_system
from npc_tactics.training.config import load_train_config
from npc_tactics.training.train import train

pytestmark = pytest.mark.integration

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "dicepool_tactics.py"


class _Checked:
    """Wraps the policy agent and fails on any illegal choice."""

    def __init__(self, agent: object) -> None:
        self.agent = agent
        self.name = "checked"
        self.decisions = 0

    def act(self, observation: object, mask: np.ndarray) -> int:
        a = int(self.agent.act(observation, mask))  # type: ignore[attr-defined]
        if not mask[a]:
            raise AssertionError(f"illegal action {a}")
        self.decisions += 1
        return a


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    config = load_train_config("dicepool_melee_duel").with_overrides(
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
    return train(config, tmp_path_factory.mktemp("dp") / "run", progress=False)


def test_preset_policy_plays_legal_moves(run_dir: Path) -> None:
    agent = load_policy_agent(run_dir)
    assert (agent.system, agent.scenario, agent.side) == ("dicepool", "melee_duel", 0)
    info = get_system("dicepool")
    engine = info.load("engine")(agent.options)
    encoder = info.load("encoder")(engine)
    scenario = info.load("content").load_scenario("melee_duel")
    checked = _Checked(agent)
    for seed in range(4):
        opp = make_agent("dicepool", "cautious", engine, agent_rngs(seed, 2)[1])
        rec = play_fight(engine, encoder, scenario, [checked, opp], seed)
        assert rec.results[0] in ("win", "loss", "draw", "fled")
    assert checked.decisions > 0


def test_tactics_benchmark_reads_the_run(run_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = importlib.util.spec_from_file_location("dicepool_tactics", BENCH)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    assert bench.main([str(run_dir), "--fights", "3", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [r["opponent"] for r in out["results"]] == ["aggressive", "cautious"]
    for r in out["results"]:
        assert sum(r["rates"][k]["count"] for k in ("win", "draw", "loss", "fled")) == 3
        assert set(r["split_by_next"]) <= {"self", "ally", "enemy", "new_turn"}
    assert bench.main([str(run_dir.parent / "missing")]) == 2
