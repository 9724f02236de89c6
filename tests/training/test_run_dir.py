"""Run-folder helpers: atomic writes, checkpoint bookkeeping, eval history, policy-loading
errors."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from npc_tactics.agents.policy import load_policy_agent
from npc_tactics.errors import UserError
from npc_tactics.runs import RunDir
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
    """What ``write_checkpoint`` reads of a MaskablePPO model: counters, a policy and its optimizer."""

    def __init__(self, steps: int) -> None:
        import torch

        self.num_timesteps = steps
        self._n_updates = steps // 10
        self.policy = torch.nn.Linear(2, 1)
        self.policy.optimizer = torch.optim.Adam(self.policy.parameters())  # type: ignore[assignment]


def test_checkpoints_pruned_and_incomplete_ignored(tmp_path: Path) -> None:
    for steps in (100, 200, 300, 400):
        rd.write_checkpoint(tmp_path, _Model(steps), {"seed": 1}, keep=2)
    assert [s for s, _ in rd.checkpoint_paths(tmp_path)] == [300, 400]
    assert sorted(p.name for p in (tmp_path / "checkpoints").iterdir()) == [
        f"ckpt_000000{s}00.{ext}" for s in (3, 4) for ext in ("json", "optim.pt", "policy.pt")]
    record = rd.read_json(tmp_path / "checkpoints" / "ckpt_000000400.json")
    assert {k: record[k] for k in ("seed", "timesteps", "n_updates")} == {"seed": 1, "timesteps": 400, "n_updates": 40}
    assert len(record["policy_sha256"]) == len(record["optim_sha256"]) == 64
    # killed before its json: the tensor files alone do not make a checkpoint
    (tmp_path / "checkpoints" / "ckpt_000000500.policy.pt").write_bytes(b"half")
    (tmp_path / "checkpoints" / "ckpt_000000500.optim.pt").write_bytes(b"half")
    assert rd.checkpoint_paths(tmp_path)[-1][0] == 400


def test_restore_refuses_a_checkpoint_that_does_not_match_its_checksums(tmp_path: Path) -> None:
    rd.write_checkpoint(tmp_path, _Model(100), {}, keep=1)
    ckpt = RunDir(tmp_path).checkpoints()[0]
    fresh = _Model(0)
    rd.restore_checkpoint(fresh, ckpt)
    assert (fresh.num_timesteps, fresh._n_updates) == (100, 10)
    ckpt.optim_path.write_bytes(ckpt.optim_path.read_bytes() + b"x")
    with pytest.raises(UserError, match="does not match the checksum"):
        rd.restore_checkpoint(_Model(0), ckpt)


def test_atomic_write_respects_the_umask(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        rd.atomic_write_text(tmp_path / "a.txt", "x")
        os.umask(0o077)
        rd.atomic_write_text(tmp_path / "b.txt", "x")
        rd.atomic_write_text(tmp_path / "a.txt", "y")  # an existing file keeps its mode
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "a.txt").stat().st_mode) == 0o644
    assert stat.S_IMODE((tmp_path / "b.txt").stat().st_mode) == 0o600


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
    (tmp_path / "config.yaml").write_text("system: ose\n")
    with pytest.raises(UserError, match="not a trained run yet"):
        load_policy_agent(tmp_path)
    (tmp_path / "policy.pt").write_bytes(b"not a tensor file")
    with pytest.raises(UserError, match="not a plain tensor file"):
        load_policy_agent(tmp_path)
    with pytest.raises(UserError, match="no checkpoint at 5 timesteps"):
        load_policy_agent(tmp_path, checkpoint=5)
    for text, message in (
        ("[1, 2]\n", "expected a mapping at the top level"),
        ("system: ose\nside: true\n", "side: expected 0, 1 or 'both', got True"),
        ("system: ose\nppo: {net_arch: x}\n", "ppo.net_arch: expected 1 to 16 positive layer widths"),
        ("system: nope\n", "unknown system 'nope'"),
    ):
        (tmp_path / "config.yaml").write_text(text)
        with pytest.raises(UserError, match=message):
            load_policy_agent(tmp_path)


def test_legacy_run_folder_is_a_clear_error(tmp_path: Path) -> None:
    """A run written before policy.pt existed: its weights are only in pickled zips, which are not read."""
    (tmp_path / "config.yaml").write_text("system: ose\n")
    (tmp_path / "checkpoints").mkdir()
    (tmp_path / "checkpoints" / "ckpt_000000256.zip").write_bytes(b"zip")
    (tmp_path / "checkpoints" / "ckpt_000000256.json").write_text("{}")
    (tmp_path / "model.zip").write_bytes(b"zip")
    assert RunDir(tmp_path).has_policy()
    with pytest.raises(UserError, match=r"no policy weights file.*python -m npc_tactics\.training\.legacy"):
        load_policy_agent(tmp_path)


def test_stale_temp_files_removed(tmp_path: Path) -> None:
    (tmp_path / "checkpoints").mkdir()
    stale = tmp_path / "checkpoints" / ".ckpt_000000256.zip.abc.tmp"
    stale.write_bytes(b"partial")
    keep = tmp_path / "checkpoints" / "ckpt_000000256.zip"
    keep.write_bytes(b"zip")
    rd.remove_stale_temp_files(tmp_path)
    assert not stale.exists() and keep.exists()
