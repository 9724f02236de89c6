"""Run-folder helpers: atomic writes, checkpoint bookkeeping, eval history, policy-loading
errors."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from npc_tactics.agents.policy import load_policy_agent
from npc_tactics.errors import UserError
from npc_tactics.training import run_dir as rd


def test_atomic_write_leaves_no_temp_files(tmp_path: Path) -> None:
    target = tmp_path / "sub" / "f.txt"
    rd.atomic_write_text(target, "one")
    rd.atomic_write_text(target, "two")
    assert target.read_text() == "two"
    assert os.listdir(target.parent) == ["f.txt"]


def test_atomic_write_failure_keeps_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "f.txt"
    rd.atomic_write_text(target, "old")

    def broken_replace(src: str, dst: str) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(rd.os, "replace", broken_replace)
    with pytest.raises(OSError):
        rd.atomic_write_text(target, "new")
    assert target.read_text() == "old"
    assert os.listdir(tmp_path) == ["f.txt"]


class _Model:
    def __init__(self, steps: int) -> None:
        self.num_timesteps = steps

    def save(self, fh) -> None:  # type: ignore[no-untyped-def]
        fh.write(b"zip")


def test_checkpoints_pruned_and_incomplete_ignored(tmp_path: Path) -> None:
    for steps in (100, 200, 300, 400):
        rd.write_checkpoint(tmp_path, _Model(steps), {"seed": 1}, keep=2)
    assert [s for s, _ in rd.checkpoint_paths(tmp_path)] == [300, 400]
    assert rd.read_json(tmp_path / "checkpoints" / "ckpt_000000400.json") == {
        "seed": 1,
        "timesteps": 400,
    }
    (tmp_path / "checkpoints" / "ckpt_000000500.zip").write_bytes(b"half")  # killed before its json
    assert rd.checkpoint_paths(tmp_path)[-1][0] == 400


def test_eval_history_append_and_truncate(tmp_path: Path) -> None:
    path = tmp_path / "eval_history.csv"
    rd.append_eval_rows(path, [{"timesteps": 0, "opponent": "a", "win_rate": 0.1}])
    rd.append_eval_rows(path, [{"timesteps": 10, "opponent": "a"}, {"timesteps": 20, "opponent": "a"}])
    assert [r["timesteps"] for r in rd.read_eval_rows(path)] == ["0", "10", "20"]
    assert path.read_text().count("timesteps,opponent") == 1
    rd.truncate_eval_rows(path, 10)
    assert [r["timesteps"] for r in rd.read_eval_rows(path)] == ["0", "10"]


def test_git_sha_outside_a_checkout(tmp_path: Path) -> None:
    assert rd.git_sha(tmp_path) == "unknown"


def test_load_policy_agent_errors(tmp_path: Path) -> None:
    with pytest.raises(UserError, match="run dir not found"):
        load_policy_agent(tmp_path / "missing")
    with pytest.raises(UserError, match=r"config\.yaml is missing"):
        load_policy_agent(tmp_path)
    (tmp_path / "config.yaml").write_text("system: fake\n")
    with pytest.raises(UserError, match="no model.zip and no checkpoints"):
        load_policy_agent(tmp_path)
    (tmp_path / "model.zip").write_bytes(b"not a zip")
    with pytest.raises(UserError, match="cannot load the model"):
        load_policy_agent(tmp_path)
    with pytest.raises(UserError, match="no checkpoint at 5 timesteps"):
        load_policy_agent(tmp_path, checkpoint=5)
    (tmp_path / "config.yaml").write_text("system: fake\nppo: {n_steps: x}\n")
    with pytest.raises(UserError, match="unreadable config.yaml"):
        load_policy_agent(tmp_path)


def test_stale_temp_files_removed(tmp_path: Path) -> None:
    (tmp_path / "checkpoints").mkdir()
    stale = tmp_path / "checkpoints" / ".ckpt_000000256.zip.abc.tmp"
    stale.write_bytes(b"partial")
    keep = tmp_path / "checkpoints" / "ckpt_000000256.zip"
    keep.write_bytes(b"zip")
    rd.remove_stale_temp_files(tmp_path)
    assert not stale.exists() and keep.exists()
