"""RLlib training end to end for every system: the run folder is the SB3 one (evaluate, export, suggest read
it), checkpoints carry RLlib's state and resume restores it exactly, and the env gives RLlib only the NPC
side's decisions with non-empty masks."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from npc_tactics.runs import RunDir, load_tensors
from tests.ray.conftest import PRESETS, TINY_RLLIB, RllibRun

# a Ray hang (a second local Ray instance on the machine was seen to stall actor creation) fails, never blocks CI
pytestmark = pytest.mark.integration  # time limit and rerun: conftest.py

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("system", list(PRESETS))
def test_rllib_run_folder_plays_exports_and_suggests(rllib_runs: dict[str, RllibRun], system: str) -> None:
    from npc_tactics.agents.policy import load_policy_agent
    from npc_tactics.gm.advice.suggest import suggest
    from npc_tactics.policy_io.bundle import read_bundle

    case = rllib_runs[system]
    folder = RunDir(case.run)
    meta = folder.meta()
    assert meta["backend"] == "rllib" and meta["finished"] is True
    assert meta["timesteps"] >= TINY_RLLIB["budget.timesteps"]
    assert folder.raw_config()["backend"] == "rllib"
    (ckpt,) = folder.checkpoints()  # checkpoint_every 0: the final one only
    assert ckpt.rllib_path.is_dir() and not ckpt.optim_path.exists()
    assert ckpt.timesteps == meta["timesteps"]
    # the final weights are the checkpoint's, under SB3 names: the SB3 loader plays them
    final, at_ckpt = load_tensors(folder.policy_path), load_tensors(ckpt.policy_path)
    assert final.keys() == at_ckpt.keys() and all(bool((final[k] == at_ckpt[k]).all()) for k in final)
    agent = load_policy_agent(case.run)
    assert agent.system == system
    # learning curve: the untrained baseline and the end, one row per opponent
    rows = (case.run / "eval_history.csv").read_text().splitlines()
    assert len(rows) == 1 + 2 * len(set(folder.raw_config()["opponents"]))  # each opponent once
    bundle = read_bundle(case.bundle)
    assert bundle.schema.system == system
    assert bundle.schema.training.timesteps == meta["timesteps"]
    result = suggest(case.bundle, REPO / "examples" / f"{system}_situation.yaml")
    probs = [m.probability for m in result.moves]
    assert result.moves and abs(sum(probs) - 1.0) < 1e-4 and all(p >= 0 for p in probs)


def test_resume_restores_the_checkpoint_exactly(rllib_runs: dict[str, RllibRun], tmp_path: Path) -> None:
    """RLlib's restored module holds the checkpoint's weights bit for bit, and a resumed run continues the
    counters (a second segment, more timesteps, the eval history kept)."""
    import shutil

    from npc_tactics.training.config import parse_train_config
    from npc_tactics.training.rllib.algo import ppo_config
    from npc_tactics.training.rllib.env import POLICY_ID
    from npc_tactics.training.rllib.module import sb3_state_dict
    from npc_tactics.training.rllib.train import _restore
    from npc_tactics.training.train import train

    run = tmp_path / "run"
    shutil.copytree(rllib_runs["ose"].run, run)
    folder = RunDir(run)
    cfg = parse_train_config(folder.raw_config())
    (ckpt,) = folder.checkpoints()
    algo = ppo_config(cfg, 0, seed=123).build_algo()
    try:
        before = sb3_state_dict(algo.get_module(POLICY_ID))
        _restore(algo, ckpt)
        restored = sb3_state_dict(algo.get_module(POLICY_ID))
    finally:
        algo.stop()
    saved = load_tensors(ckpt.policy_path)
    assert any(not bool((before[k] == saved[k]).all()) for k in saved)  # a fresh module differs...
    assert all(bool((restored[k] == saved[k]).all()) for k in saved)  # ...the restored one is the checkpoint
    rows_before = (run / "eval_history.csv").read_text().splitlines()
    train(cfg, run, resume=True, timesteps=ckpt.timesteps + 64, progress=False, config_source="test")
    meta = folder.meta()
    assert [s["start_timesteps"] for s in meta["segments"]] == [0, ckpt.timesteps]
    assert meta["timesteps"] >= ckpt.timesteps + 64
    assert folder.checkpoints()[-1].timesteps == meta["timesteps"]
    assert (run / "eval_history.csv").read_text().splitlines()[: len(rows_before)] == rows_before


@pytest.mark.parametrize("system", list(PRESETS))
def test_rllib_env_hands_rllib_only_npc_decisions(system: str) -> None:
    from ray.rllib.utils.pre_checks.env import check_multiagent_environments

    from npc_tactics.training.config import load_train_config
    from npc_tactics.training.rllib.algo import env_config
    from npc_tactics.training.rllib.env import NpcSideEnv

    cfg = load_train_config(PRESETS[system])
    env = NpcSideEnv(env_config(cfg))
    check_multiagent_environments(env)
    rng = np.random.default_rng(0)
    for episode in range(5):
        obs, _ = env.reset(seed=episode)
        returns: dict[str, float] = {}
        for _ in range(10_000):
            ((agent, seen),) = obs.items()  # exactly one agent decides, always an NPC with a legal move
            assert agent in env.possible_agents and agent.startswith(("blue", "red")[cfg.side])
            legal = np.flatnonzero(seen["action_mask"])
            assert legal.size > 0 and env.observation_spaces[agent].contains(seen)
            obs, rewards, terminated, truncated, infos = env.step({agent: int(rng.choice(legal))})
            for a, r in rewards.items():
                returns[a] = returns.get(a, 0.0) + r
            if terminated["__all__"]:
                break
        else:
            pytest.fail("the fight did not end")
        assert obs == {} and not truncated["__all__"]
        results = {info["outcome"]["result"] for info in infos.values()}
        assert len(results) == 1  # one side, one result
        terminal = {"win": cfg.reward.win, "loss": cfg.reward.loss, "draw": cfg.reward.draw,
                    "fled": cfg.reward.fled}[results.pop()]
        shaping = cfg.reward.damage_dealt + cfg.reward.damage_taken + cfg.reward.survival + cfg.reward.escaped
        for total in returns.values():  # the terminal term once, plus at most the shaping terms' totals
            assert abs(total - terminal) <= shaping + 1e-6


def test_same_seed_same_episode(rllib_runs: Any) -> None:
    """An env reset with a seed replays the same fight for the same actions (dice and opponent streams)."""
    from npc_tactics.training.config import load_train_config
    from npc_tactics.training.rllib.algo import env_config
    from npc_tactics.training.rllib.env import NpcSideEnv

    cfg = load_train_config(PRESETS["ose"])

    def play(seed: int) -> list[Any]:
        env = NpcSideEnv(env_config(cfg))
        obs, _ = env.reset(seed=seed)
        trace = []
        while obs:
            ((agent, seen),) = obs.items()
            action = int(np.flatnonzero(seen["action_mask"])[0])
            trace.append((agent, seen["observation"].tobytes(), action))
            obs, rewards, *_ = env.step({agent: action})
            trace.append(sorted(rewards.items()))
        return trace

    assert play(7) == play(7)
    assert play(7) != play(8)


def test_cli_trains_with_remote_env_runners(ray_local: Any, tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    """``npc-tactics train CONFIG --backend rllib --num-env-runners 1``: the fights are sampled by an RLlib env
    runner actor (the env and module import in a Ray worker), and the CLI's ``--backend`` wins over the
    config's ``backend: sb3``."""
    import yaml

    from tests.cli_helpers import run_cli

    config = tmp_path / "c.yaml"
    config.write_text(yaml.safe_dump({
        "system": "runequest", "opponents": ["by-the-book"], "backend": "sb3",
        "ppo": {"n_steps": 32, "batch_size": 32, "n_epochs": 1},
        "budget": {"timesteps": 64, "n_envs": 2, "eval_every": 0, "eval_episodes": 2, "checkpoint_every": 0},
    }))
    out = tmp_path / "run"
    code, stdout, stderr = run_cli(["train", str(config), "--out", str(out), "--backend", "rllib",
                                    "--num-env-runners", "1", "--no-progress"], capsys)
    assert code == 0, stderr
    folder = RunDir(out)
    meta = folder.meta()
    assert folder.raw_config()["backend"] == "rllib" and meta["backend"] == "rllib"
    assert meta["segments"][0]["num_env_runners"] == 1 and meta["timesteps"] >= 64
    assert folder.policy_path.is_file() and f"run directory: {out}" in stdout
