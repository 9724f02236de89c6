"""Training config validation: every bad file is one ConfigError naming the file and the dotted
field."""

from __future__ import annotations

from pathlib import Path

import pytest
from stable_baselines3.common.utils import LinearSchedule

from npc_tactics.errors import ConfigError, UnknownNameError
from npc_tactics.training.config import (
    PRESET_DIR,
    TrainConfig,
    as_schedule,
    list_presets,
    load_train_config,
    parse_train_config,
)

GOOD = """
description: a tiny run
system: fake
scenario: duel
opponents: [by-the-book]
reward: {win: 1, loss: -1, damage_dealt: 0.2}
ppo: {learning_rate: 0.001, n_steps: 64, batch_size: 64, net_arch: [32, 32]}
budget: {timesteps: 1000, n_envs: 2}
seed: 3
"""

# (yaml text, dotted field expected in the error, a fragment of the message)
BAD = [
    (
        "system: fake\nppo: {learning_rate: fast}\n",
        "ppo.learning_rate",
        "expected a positive number",
    ),
    (
        "system: fake\nppo: {learning_rate: -0.1}\n",
        "ppo.learning_rate",
        "expected a positive number",
    ),
    (
        "system: fake\nppo: {learning_rate: {kind: cosine, start: 0.001}}\n",
        "ppo.learning_rate.kind",
        "expected one of",
    ),
    ("system: fake\nppo: {learning_rate: {kind: linear}}\n", "ppo.learning_rate.start", "missing"),
    ("system: fake\nppo: {n_steps: many}\n", "ppo.n_steps", "expected an integer"),
    ("system: fake\nppo: {n_steps: 2}\n", "ppo.n_steps", ">= 8"),
    ("system: fake\nppo: {net_arch: [64, 0]}\n", "ppo.net_arch", "positive layer widths"),
    ("system: fake\nppo: {net_arch: 64}\n", "ppo.net_arch", "expected a list"),
    ("system: fake\nppo: {gamma: 1.5}\n", "ppo.gamma", "<= 1"),
    ("system: fake\nppo: {lr: 0.1}\n", "ppo.lr", "unknown key"),
    ("system: fake\nbudget: {timesteps: 1.5}\n", "budget.timesteps", "expected an integer"),
    ("system: fake\nbudget: {n_envs: 0}\n", "budget.n_envs", ">= 1"),
    ("system: fake\nbudget: [1, 2]\n", "budget", "expected a mapping"),
    ("system: fake\nreward: {win: yes please}\n", "reward.win", "expected a number"),
    ("system: fake\nreward: {wins: 1}\n", "reward.wins", "unknown key"),
    ("system: fake\nopponents: []\n", "opponents", "at least 1"),
    ("system: fake\nopponents: by-the-book\n", "opponents", "expected a list"),
    ("system: fake\nside: 2\n", "side", "<= 1"),
    ("system: fake\nseed: -1\n", "seed", ">= 0"),
    ("system: fake\nbogus: 1\n", "bogus", "unknown key"),
    ("scenario: duel\n", "system", "missing"),
    ("- just\n- a list\n", "", "expected a mapping"),
    ("system: fake\nppo: {n_steps: [\n", "line", "invalid YAML"),
]


@pytest.mark.parametrize(("text", "field", "fragment"), BAD, ids=[b[1] or "top" for b in BAD])
def test_bad_config_names_file_and_field(tmp_path: Path, text: str, field: str, fragment: str) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    with pytest.raises(ConfigError) as info:
        load_train_config(path, check_names=False)
    err = info.value
    assert err.file == str(path)
    assert err.field.startswith(field)
    assert fragment in err.message
    assert "\n" not in str(err)


def test_missing_file_and_unknown_preset(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="file not found"):
        load_train_config(tmp_path / "nope.yaml")
    with pytest.raises(UnknownNameError, match="unknown preset 'no_such_preset'; valid presets: "):
        load_train_config("no_such_preset")


def test_good_config_with_anchors_and_schedule(tmp_path: Path) -> None:
    path = tmp_path / "good.yaml"
    path.write_text(GOOD)
    cfg = load_train_config(path, check_names=False)
    assert cfg.ppo.net_arch == [32, 32] and cfg.budget.timesteps == 1000 and cfg.reward.damage_dealt == 0.2
    assert cfg.description == "a tiny run" and cfg.seed == 3
    merged = tmp_path / "merged.yaml"
    merged.write_text(
        "x-defaults: &small {n_steps: 64, batch_size: 64}\n"  # x-/_ keys hold shared blocks only
        "system: fake\n"
        "ppo:\n  <<: *small\n"
        "  learning_rate: {kind: linear, start: 3e-4, end: 1e-5}\n"
    )
    cfg = load_train_config(merged, check_names=False)
    assert cfg.ppo.n_steps == 64 and cfg.ppo.batch_size == 64
    schedule = as_schedule(cfg.ppo.learning_rate)
    assert isinstance(schedule, LinearSchedule)
    assert schedule(1.0) == pytest.approx(3e-4) and schedule(0.0) == pytest.approx(1e-5)


def test_round_trip_and_overrides() -> None:
    cfg = TrainConfig(system="fake", ppo={"learning_rate": {"kind": "linear", "start": 1e-3}})
    again = parse_train_config(cfg.to_yaml_dict())
    assert again == cfg
    changed = cfg.with_overrides(**{"budget.timesteps": 77, "seed": 9})
    assert changed.budget.timesteps == 77 and changed.seed == 9 and cfg.budget.timesteps != 77
    with pytest.raises(ValueError):
        cfg.with_overrides(**{"budget.timesteps": "x"})


def test_unknown_names_list_choices(fake_system: str, tmp_path: Path) -> None:
    def check(text: str, field: str, fragment: str) -> None:
        path = tmp_path / "names.yaml"
        path.write_text(text)
        with pytest.raises(ConfigError) as info:
            load_train_config(path)
        assert info.value.field == field and fragment in info.value.message and info.value.file == str(path)

    check("system: nosuch\n", "system", "unknown system 'nosuch'; valid systems: ")
    check("system: fake\nscenario: nosuch\n", "scenario", "valid scenarios: duel, sharp_duel, skirmish")
    check(
        "system: fake\nopponents: [by-the-book, zerg]\n",
        "opponents.1",
        "valid agents: brute, by-the-book, coward, random",
    )
    check("system: fake\noptions: {hit_on: fast}\n", "options", "hit_on")
    check("system: fake\noptions: {nosuch: 1}\n", "options", "unknown fake rules option")
    path = tmp_path / "ok.yaml"
    path.write_text("system: fake\n")
    assert load_train_config(path).scenario == "duel"  # the system's default scenario filled in


def test_shipped_presets_parse() -> None:
    presets = dict(list_presets())
    assert presets, f"no presets in {PRESET_DIR}"
    for name, description in presets.items():
        assert description and "\n" not in description.strip(), name
        cfg = load_train_config(name, check_names=False)
        assert name.startswith(cfg.system + "_")
        load_train_config(name)  # names, scenario and options check out against the installed system
