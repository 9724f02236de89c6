"""Every file the CLI reads may be a FIFO or a device by mistake (or by malice): each is one line and exit 2,
never a hang (issue 30). The readers open non-blocking and refuse anything but a regular file, so no writer
is needed for the test to finish; the timeout only catches a regression."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SITUATION = REPO / "examples" / "ose_situation.yaml"
BUNDLE = REPO / "npc_tactics" / "policies" / "ose"


def _cli(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "npc_tactics.cli", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=60, stdin=subprocess.DEVNULL)


def _bundle_with_fifo(tmp: Path, name: str) -> Path:
    out = tmp / "bundle"
    shutil.copytree(BUNDLE, out)
    (out / name).unlink()
    os.mkfifo(out / name)
    return out


def _probe_folder(tmp: Path) -> Path:
    folder = tmp / "probes"
    folder.mkdir()
    os.mkfifo(folder / "p.yaml")
    return folder


CASES = {
    "simulate scenario": lambda t: ["simulate", "ose", str(t / "f.yaml"), "--fights", "2"],
    "suggest situation": lambda t: ["suggest", "--system", "ose", "--situation", str(t / "f.yaml")],
    "train config": lambda t: ["train", str(t / "f.yaml"), "--out", str(t / "run")],
    "leaderboard suite": lambda t: ["leaderboard", str(t / "f.yaml"), "--out", str(t / "lb")],
    "probe file": lambda t: ["probe", "by-the-book", str(t / "f.yaml")],
    "probe folder": lambda t: ["probe", "by-the-book", str(_probe_folder(t))],
    "odds situation": lambda t: ["odds", "--system", "ose", "--situation", str(t / "f.yaml")],
    "situation is /dev/stdin": lambda t: ["suggest", "--system", "ose", "--situation", "/dev/stdin"],
    "bundle schema.json": lambda t: ["suggest", "--bundle", str(_bundle_with_fifo(t, "schema.json")),
                                     "--situation", str(SITUATION)],
    "bundle card.json": lambda t: ["card", str(_bundle_with_fifo(t, "card.json"))],
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_fifo_is_one_line_not_a_hang(case: str, tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "f.yaml")
    args = CASES[case](tmp_path)
    done = _cli(args, tmp_path)
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2, (done.returncode, done.stderr[-800:])
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr[-800:]
    assert "not a regular file" in lines[0], lines[0]


def _run_with_fifo(run: Path, tmp: Path, name: str) -> Path:
    out = tmp / "run"
    shutil.copytree(run, out)
    (out / name).unlink()
    os.mkfifo(out / name)
    return out


RUN_CASES = {
    "run config.yaml": ("config.yaml", lambda r: ["suggest", "--run", str(r), "--situation", str(SITUATION)]),
    "run meta.json": ("meta.json", lambda r: ["suggest", "--run", str(r), "--situation", str(SITUATION)]),
    "run policy.pt": ("policy.pt", lambda r: ["suggest", "--run", str(r), "--situation", str(SITUATION)]),
    "checkpoint record": ("checkpoints/ckpt_000001024.json",
                          lambda r: ["train", str(r / "config.yaml"), "--out", str(r), "--resume", "--timesteps",
                                     "1100", "--no-progress"]),
    "checkpoint weights": ("checkpoints/ckpt_000001024.policy.pt",
                           lambda r: ["train", str(r / "config.yaml"), "--out", str(r), "--resume", "--timesteps",
                                      "1100", "--no-progress"]),
}


@pytest.mark.integration
@pytest.mark.parametrize("case", sorted(RUN_CASES))
def test_a_fifo_in_a_run_folder_is_one_line_not_a_hang(case: str, trained_run: Path, tmp_path: Path) -> None:
    name, args = RUN_CASES[case]
    run = _run_with_fifo(trained_run, tmp_path, name)
    done = _cli(args(run), tmp_path)
    lines = done.stderr.strip().splitlines()
    if name.endswith(".pt"):  # weights that are not a regular file count as absent: an older complete set is used
        assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr[-800:]
        return
    assert done.returncode == 2, (done.returncode, done.stderr[-800:])
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr[-800:]
    assert "not a regular file" in lines[0] or "is missing" in lines[0], lines[0]
