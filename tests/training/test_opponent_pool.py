"""Opponent pools (npc_tactics/training/opponent_pool.py): the config schema, weighted draws, snapshots,
resume, and the env taking the pool unchanged as its opponent factory."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from npc_tactics.errors import ConfigError
from npc_tactics.training.config import OpponentPoolConfig, TrainConfig, parse_train_config, validate_names
from npc_tactics.training.opponent_pool import OpponentPool, build_pool, snapshot_files


def _config(system: str = "ose", scenario: str = "goblin_duel", **extra: object) -> TrainConfig:
    data = {"system": system, "scenario": scenario,
            "ppo": {"n_steps": 64, "batch_size": 64, "n_epochs": 1, "net_arch": [16]}, **extra}
    return parse_train_config(data)


def _pool(config: TrainConfig) -> OpponentPool:
    from npc_tactics.registry import get_system

    info = get_system(config.system)
    engine = info.load("engine")(dict(config.options))
    return build_pool(config, int(info.load("encoder")(engine).size), len(engine.catalogue))


# ----- the config schema --------------------------------------------------------------------------------
def test_plain_list_form_still_parses_and_round_trips() -> None:
    c = _config(opponents=["by-the-book", "aggressive"])
    assert c.opponents == ["by-the-book", "aggressive"]
    assert [e.agent for e in c.pool_entries()] == ["by-the-book", "aggressive"]
    assert [e.weight for e in c.pool_entries()] == [1.0, 1.0]
    assert parse_train_config(c.to_yaml_dict()) == c


def test_pool_form_parses_with_defaults() -> None:
    c = _config(opponents={"pool": [{"agent": "by-the-book", "weight": 2}, {"agent": "self", "every": 100}]})
    assert isinstance(c.opponents, OpponentPoolConfig)
    me = c.pool_entries()[1]
    assert (me.snapshot_every, me.snapshot_keep) == (100, 5)
    assert c.fixed_opponents == ["by-the-book"]
    assert parse_train_config(c.to_yaml_dict()) == c
    only_self = _config(opponents={"pool": [{"agent": "self"}]})
    assert only_self.fixed_opponents == ["by-the-book"]  # evaluation still needs a yardstick


@pytest.mark.parametrize(
    ("opponents", "field", "fragment"),
    [
        ({"pool": []}, "opponents.pool", "at least 1"),
        ({"pool": [{"agent": "by-the-book", "weight": 0}]}, "opponents.pool.0.weight", "> 0"),
        ({"pool": [{"agent": "by-the-book", "every": 10}]}, "opponents.pool.0.every", "only a 'self'"),
        ({"pool": [{"agent": "self"}, {"agent": "self"}]}, "opponents.pool.1.agent", "at most one"),
        ({"pool": [{"agent": "self", "keep": 0}]}, "opponents.pool.0.keep", ">= 1"),
        ({"pool": [{"agnt": "self"}]}, "opponents.pool.0", ""),
        ("by-the-book", "opponents", "a list of agents or a mapping"),
        ([], "opponents", "at least 1"),
    ],
)
def test_bad_pool_names_the_field(opponents: object, field: str, fragment: str) -> None:
    with pytest.raises(ConfigError) as err:
        _config(opponents=opponents)
    assert f": {field}" in str(err.value) and fragment in str(err.value)


@pytest.mark.parametrize("side", [2, -1, "one", True])
def test_side_accepts_0_1_or_both_only(side: object) -> None:
    with pytest.raises(ConfigError, match="side: expected 0, 1 .* or 'both'"):
        _config(side=side)
    assert _config(side="both").home_side == 0 and _config(side="both").both_sides


def test_unknown_pool_member_is_named_with_choices() -> None:
    with pytest.raises(ConfigError, match=r"opponents\.pool\.1\.agent: .*by-the-book.*'self'"):
        validate_names(_config(opponents={"pool": [{"agent": "self"}, {"agent": "nobody"}]}))
    with pytest.raises(ConfigError, match=r"opponents\.0"):  # 'self' is a pool word only
        validate_names(_config(opponents=["self"]))


# ----- draws ----------------------------------------------------------------------------------------------
def test_draws_follow_the_weights_and_the_stream() -> None:
    config = _config(opponents={"pool": [{"agent": "by-the-book", "weight": 3}, {"agent": "aggressive"}]})
    pool = _pool(config)
    engine = _engine()
    names = Counter(pool(engine, np.random.default_rng(i)).name for i in range(2000))
    assert set(names) == {"by-the-book", "aggressive"}
    share = names["by-the-book"] / 2000
    assert 0.72 < share < 0.78  # 3:1, binomial sd ~0.01
    again = [pool(engine, np.random.default_rng(i)).name for i in range(50)]
    assert again == [pool(engine, np.random.default_rng(i)).name for i in range(50)]  # same stream, same pick


def _engine():  # type: ignore[no-untyped-def]
    from npc_tactics.registry import get_system

    return get_system("ose").load("engine")({})


def test_self_member_waits_for_a_snapshot_then_plays_the_latest_ones() -> None:
    import torch

    config = _config(opponents={"pool": [{"agent": "self", "keep": 2}, {"agent": "aggressive", "weight": 1}]})
    pool = _pool(config)
    engine = _engine()
    assert {pool(engine, np.random.default_rng(i)).name for i in range(40)} == {"aggressive"}
    from npc_tactics.agents.policy import build_policy

    weights = [build_policy(pool.obs_size, pool.n_actions, pool.net_arch).state_dict() for _ in range(3)]
    for t, w in zip((100, 200, 300), weights, strict=True):
        pool.add_snapshot(t, w)
    assert [s.timesteps for s in pool.snapshots] == [200, 300]  # keep 2
    drawn = {pool(engine, np.random.default_rng(i)).name for i in range(200)}
    assert drawn == {"aggressive", "self@200", "self@300"}
    # the snapshot is a copy: training the live weights further does not move it
    live = weights[2]
    before = pool.snapshots[-1].policy.state_dict()["action_net.bias"].clone()
    with torch.no_grad():
        live["action_net.bias"] += 1.0
    assert torch.equal(pool.snapshots[-1].policy.state_dict()["action_net.bias"], before)


def test_snapshot_files_save_prune_and_restore(tmp_path: Path) -> None:
    from npc_tactics.agents.policy import build_policy

    config = _config(opponents={"pool": [{"agent": "self", "keep": 2}]})
    pool = _pool(config)
    for t in (0, 10, 20):
        pool.save_snapshot(tmp_path, pool.add_snapshot(t, build_policy(pool.obs_size, pool.n_actions,
                                                                        pool.net_arch).state_dict()))
    assert [t for t, _ in snapshot_files(tmp_path)] == [10, 20]
    fresh = _pool(config)
    assert fresh.restore_snapshots(tmp_path, up_to=10) == [10]  # a resume from the checkpoint at 10
    assert [t for t, _ in snapshot_files(tmp_path)] == [10]  # the snapshot after it is the discarded future
    import torch

    saved = pool.snapshots[0].policy.state_dict()
    for k, v in fresh.snapshots[0].policy.state_dict().items():
        assert torch.equal(v, saved[k])


def test_env_takes_the_pool_as_its_opponent_factory() -> None:
    from npc_tactics.make_env import make_env

    config = _config(opponents={"pool": [{"agent": "cautious", "weight": 1}, {"agent": "aggressive", "weight": 1}]})
    pool = _pool(config)
    env = make_env("ose", "goblin_duel", opponents=[pool])
    seen = set()
    for seed in range(30):
        env.reset(seed=seed)
        seen.add(env.opponent.name)  # type: ignore[union-attr]
    assert seen == {"cautious", "aggressive"}


# ----- training ----------------------------------------------------------------------------------------------
@pytest.mark.integration
def test_self_play_training_writes_snapshots_and_resume_restores_them(tmp_path: Path) -> None:
    from npc_tactics.training.train import train

    config = _config(
        opponents={"pool": [{"agent": "by-the-book", "weight": 1}, {"agent": "self", "every": 128, "keep": 2}]},
        budget={"timesteps": 384, "n_envs": 2, "eval_every": 0, "eval_episodes": 4, "checkpoint_every": 256},
    )
    run = train(config, tmp_path / "run", progress=False)
    assert [t for t, _ in snapshot_files(run)] == [128, 256]
    rows = (run / "eval_history.csv").read_text().splitlines()
    assert all(",by-the-book," in r for r in rows[1:])  # evaluated against the fixed member only
    # resume from the checkpoint at 384: both snapshots come back, the next one lands at 512 (keep 2)
    train(config, run, resume=True, timesteps=640, progress=False)
    assert [t for t, _ in snapshot_files(run)] == [256, 512]


@pytest.mark.integration
def test_both_sides_self_play_trains_and_loads(tmp_path: Path) -> None:
    from npc_tactics.agents.policy import load_policy_agent
    from npc_tactics.training.train import train

    config = _config(
        side="both",
        opponents={"pool": [{"agent": "self", "every": 128, "keep": 3}, {"agent": "aggressive"}]},
        budget={"timesteps": 256, "n_envs": 2, "eval_every": 0, "eval_episodes": 4, "checkpoint_every": 0},
    )
    run = train(config, tmp_path / "both", progress=False)
    assert (run / "config.yaml").read_text().count("side: both") == 1
    agent = load_policy_agent(run)
    assert agent.side == 0  # a both-sides policy sits on side 0 by default and plays either
    assert [t for t, _ in snapshot_files(run)] == [0, 128]
