"""Issue 30: ``train`` on a full disk, for real (a tiny tmpfs): one line naming the file that could not be
written, exit code 2; a run folder this very command created is removed when it holds no checkpoint yet, and a
run folder being resumed is never deleted."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.disk_helpers import tmpfs
from tests.security.test_run_inputs import PURE_NOTICE, error_line, killed_before_first_checkpoint

pytestmark = pytest.mark.integration

REPO = Path(__file__).resolve().parents[2]
TINY_YAML = """\
system: ose
scenario: goblin_duel
ppo: {n_steps: 64, batch_size: 64, n_epochs: 1, net_arch: [16]}
budget: {timesteps: 256, n_envs: 2, eval_every: 0, eval_episodes: 2, checkpoint_every: 128, keep_checkpoints: 2}
"""


def npc(*args: object, cwd: Path) -> tuple[int, str]:
    env = dict(os.environ, PYTHONPATH=str(REPO), COLUMNS="100")
    done = subprocess.run([sys.executable, "-m", "npc_tactics.cli.main", *map(str, args)], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300, check=False)
    return done.returncode, done.stderr


@pytest.mark.parametrize("size", ["16k", "64k"])
def test_a_new_run_on_a_full_disk_names_the_file_and_leaves_nothing(size: str, tmp_path: Path) -> None:
    (tmp_path / "tiny.yaml").write_text(TINY_YAML)
    with tmpfs(tmp_path / "disk", size) as disk:
        code, err = npc("train", "tiny.yaml", "--out", disk / "runs" / "npc", "--no-progress", cwd=tmp_path)
        line = error_line(err)
        assert code == 2, err
        assert line.startswith(f"npc-tactics: error: {disk}/runs/npc/") and "No space left on device" in line, line
        assert line.endswith(f"removed the unfinished run folder {disk}/runs/npc"), line
        assert list(disk.iterdir()) == []  # the run folder and the runs/ folder this command made are gone


def test_a_new_run_with_a_checkpoint_is_kept_for_resume(tmp_path: Path) -> None:
    (tmp_path / "tiny.yaml").write_text(TINY_YAML)
    with tmpfs(tmp_path / "disk", "384k") as disk:  # one checkpoint (about 240 kB) fits, not two
        code, err = npc("train", "tiny.yaml", "--out", disk / "npc", "--no-progress", cwd=tmp_path)
        line = error_line(err)
        assert code == 2 and "No space left on device" in line and f"{disk}/npc/" in line, err
        assert "keeps its last complete checkpoint" in line and "--resume" in line, line
        assert sorted((disk / "npc" / "checkpoints").glob("ckpt_*.json")), "the complete checkpoint was deleted"
        assert not list((disk / "npc").rglob(".*.tmp"))  # no temp file left half-written


def test_a_resumed_run_on_a_full_disk_is_never_deleted(run_copy: Callable[[str], Path], tmp_path: Path) -> None:
    run = killed_before_first_checkpoint(run_copy("killed"))
    with tmpfs(tmp_path / "disk", "64k") as disk:
        target = disk / "killed"
        shutil.copytree(run, target)
        before = sorted(p.name for p in target.iterdir())
        code, err = npc("train", target / "config.yaml", "--resume", "--out", target, "--no-progress", cwd=tmp_path)
        lines = [ln for ln in err.strip().splitlines() if not ln.startswith(PURE_NOTICE)]
        assert code == 2 and "Traceback" not in err, err
        assert lines[0] == f"{target} has no checkpoint yet: training starts from 0", err
        assert len(lines) == 2 and lines[1].startswith(f"npc-tactics: error: {target}/"), err
        assert "No space left on device" in lines[1] and "removed" not in lines[1], err
        assert (target / "config.yaml").is_file()
        assert set(before) <= {p.name for p in target.iterdir()}
