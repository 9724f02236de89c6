"""RLlib trains what SB3 trains: encounter distributions, weighted opponent pools with self-play snapshots, and
one policy on both sides; the env plays the SB3 path's episode for the same seed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from npc_tactics.runs import RunDir
from tests.ray.conftest import TINY_RLLIB

pytestmark = pytest.mark.integration  # time limit and rerun: conftest.py

REPO = Path(__file__).resolve().parents[2]

POOL = {"pool": [{"agent": "by-the-book", "weight": 2}, {"agent": "self", "weight": 1, "every": 64, "keep": 2}]}


def _config(system: str, overrides: dict[str, Any] | None = None, **fields: Any) -> Any:
    from npc_tactics.training.config import parse_train_config

    data: dict[str, Any] = {"system": system, "encounter": "generalist", "opponents": POOL, "backend": "rllib"}
    data.update(fields)
    return parse_train_config(data).with_overrides(**{**TINY_RLLIB, **(overrides or {})})


def _play(env: Any, seed: int, rng: np.random.Generator) -> tuple[list[str], dict[str, Any]]:
    obs, _ = env.reset(seed=seed)
    actors = []
    infos: dict[str, Any] = {}
    while obs:
        ((agent, seen),) = obs.items()
        assert agent in env.possible_agents and env.observation_spaces[agent].contains(seen)
        actors.append(agent)
        obs, _, terminated, _, infos = env.step({agent: int(rng.choice(np.flatnonzero(seen["action_mask"])))})
        if terminated["__all__"]:
            break
    return actors, infos


@pytest.mark.parametrize("system", ["ose", "dicepool"])
def test_rllib_trains_on_an_encounter_distribution_against_a_self_play_pool(
        ray_local: Any, tmp_path: Path, system: str) -> None:
    from npc_tactics.export.bundle_export import export_bundle
    from npc_tactics.gm.advice.suggest import suggest
    from npc_tactics.training.opponent_pool import snapshot_files
    from npc_tactics.training.train import train

    cfg = _config(system, {"budget.timesteps": 192})
    run = train(cfg, tmp_path / "run", progress=False, config_source="test")
    folder = RunDir(run)
    meta = folder.meta()
    assert meta["backend"] == "rllib" and meta["encounter"] == "generalist" and meta["timesteps"] >= 192
    # snapshots every 64 steps (the first at 0), the last 2 kept on disk as SB3 keeps them
    self_play = meta["segments"][-1]["self_play"]
    assert len(self_play["snapshots"]) == 2 and self_play["snapshots"][-1] >= 128
    assert self_play["pools_updated"] == TINY_RLLIB["budget.n_envs"]  # every env of the driver's runner has them
    assert [steps for steps, _ in snapshot_files(run)] == self_play["snapshots"]
    # the evaluation plays the pool's fixed members (not `self`)
    header, *rows = (run / "eval_history.csv").read_text().splitlines()
    assert rows and all(",by-the-book," in f",{row}," for row in rows)
    bundle = tmp_path / "bundle"
    export_bundle(run, bundle, fights=3, seed=0)
    result = suggest(bundle, REPO / "examples" / f"{system}_situation.yaml")
    assert result.moves and abs(sum(m.probability for m in result.moves) - 1.0) < 1e-4


def test_remote_env_runners_receive_the_snapshots(ray_local: Any, tmp_path: Path) -> None:
    """With 2 remote env runners the snapshots reach the envs in both runner processes (2 envs each)."""
    from npc_tactics.cluster import RayOptions
    from npc_tactics.training.train import train

    cfg = _config("dicepool", {"budget.timesteps": 128, "budget.n_envs": 4})
    run = train(cfg, tmp_path / "run", progress=False, config_source="test",
                ray_options=RayOptions(num_env_runners=2))
    assert RunDir(run).meta()["segments"][-1]["self_play"]["pools_updated"] == 4


def test_resume_restores_the_self_play_snapshots(ray_local: Any, tmp_path: Path) -> None:
    from npc_tactics.training.train import train

    cfg = _config("dicepool", {"budget.timesteps": 128, "budget.checkpoint_every": 64})
    run = train(cfg, tmp_path / "run", progress=False, config_source="test")
    first = RunDir(run).meta()["segments"][-1]["self_play"]["snapshots"]
    train(cfg, run, resume=True, timesteps=256, progress=False, config_source="test")
    second = RunDir(run).meta()["segments"][-1]["self_play"]["snapshots"]
    assert second[0] >= first[0] and second[-1] >= 192 and len(second) == 2


def test_the_env_draws_its_fights_and_plays_the_sb3_episode() -> None:
    """Each reset draws a fight of the distribution (rosters change), exactly one NPC of the trained side decides
    at a time, and for the same seed and moves the fight is the one SB3's TacticsEnv plays."""
    from ray.rllib.utils.pre_checks.env import check_multiagent_environments

    from npc_tactics.training.envs import make_single_env
    from npc_tactics.training.rllib.algo import env_config
    from npc_tactics.training.rllib.env import NpcSideEnv

    cfg = _config("ose", opponents=["by-the-book", "aggressive"])
    env = NpcSideEnv(env_config(cfg))
    check_multiagent_environments(env)
    assert env.possible_agents == [f"blue_{k}" for k in range(6)]
    rosters = set()
    for seed in range(8):
        actors, infos = _play(env, seed, np.random.default_rng(seed))
        assert all(a.startswith("blue_") for a in actors)
        assert {info["outcome"]["result"] for info in infos.values()} <= {"win", "loss", "draw", "fled"}
        rosters.add(len(env._roster))
    assert len(rosters) > 1  # fights of different sizes were drawn

    gym_env = make_single_env(cfg, monitor=False)
    compared = 0
    for seed in range(6):
        obs_gym, _ = gym_env.reset(seed=seed)
        if not obs_gym.any():  # over before the NPCs decide: SB3 sees one terminal step, RLlib the next fight
            continue
        obs_rllib, _ = env.reset(seed=seed)
        compared += 1
        for _ in range(400):
            ((agent, seen),) = obs_rllib.items()
            assert np.array_equal(seen["observation"], obs_gym)
            action = int(np.flatnonzero(seen["action_mask"])[-1])
            obs_rllib, _, done, _, _ = env.step({agent: action})
            obs_gym, _, terminated, truncated, _ = gym_env.step(action)
            if done["__all__"] or terminated or truncated:
                assert done["__all__"] and terminated
                break
    gym_env.close()
    assert compared >= 3


def test_one_policy_on_both_sides() -> None:
    from npc_tactics.training.rllib.algo import env_config
    from npc_tactics.training.rllib.env import NpcSideEnv

    cfg = _config("dicepool", side="both", opponents=["by-the-book"])
    env = NpcSideEnv(env_config(cfg))
    assert {a.split("_")[0] for a in env.possible_agents} == {"blue", "red"}
    sides = set()
    for seed in range(10):
        actors, _ = _play(env, seed, np.random.default_rng(seed))
        colours = {a.split("_")[0] for a in actors}
        assert len(colours) == 1  # one side per episode...
        sides |= colours
    assert sides == {"blue", "red"}  # ...and both over the episodes
