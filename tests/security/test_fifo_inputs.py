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
