"""A full disk while a report is written (issue 30 §8), on a real 256 KiB tmpfs: ``evaluate`` left a 0-byte
``results.json.tmp`` and a partial report, ``leaderboard`` some of its PNGs. Now the report is written all or
nothing: no temp file, no file of this run, the folder this run created removed, an earlier report untouched,
and one line naming the file that could not be written, exit code 2."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.disk_helpers import tmpfs

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 256 KiB tmpfs mounted for the test (root only; unmounted whatever happens)."""
    with tmpfs(tmp_path / "disk", "256k") as mnt:
        yield mnt


def _fill(disk: Path, leave: int) -> None:
    """Fill ``disk`` but ``leave`` bytes: room for the folder and a few small files, not for the report."""
    free = os.statvfs(disk).f_bavail * os.statvfs(disk).f_frsize
    (disk / "filler").write_bytes(b"\0" * max(0, free - leave))


def _cli(cwd: Path, *args: str) -> tuple[int, list[str]]:
    env = dict(os.environ, PYTHONPATH=str(REPO), NPC_TACTICS_PURE="1")
    proc = subprocess.run([sys.executable, "-m", "npc_tactics.cli.main", *args, "--no-progress"], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)
    lines = [ln for ln in proc.stderr.splitlines() if not ln.startswith("npc-tactics: running the pure")]
    assert "Traceback" not in proc.stderr, proc.stderr[-3000:]
    return proc.returncode, lines


def _evaluate(cwd: Path, out: Path) -> tuple[int, list[str]]:
    return _cli(cwd, "evaluate", "--agents", "random,by-the-book", "--system", "ose", "--fights", "4",
                "--workers", "1", "--out", str(out))


def _files(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


def test_evaluate_on_a_full_disk_leaves_nothing(small_disk: Path, tmp_path: Path) -> None:
    _fill(small_disk, leave=40_000)
    code, lines = _evaluate(tmp_path, small_disk / "reports" / "ose")
    assert code == 2 and len(lines) == 1, lines
    assert f"--out: cannot write {small_disk}/reports/ose/" in lines[0] and "No space left on device" in lines[0]
    assert _files(small_disk) == ["filler"]  # no temp file, no report file, not even the folders of this run


def test_evaluate_on_a_full_disk_keeps_the_earlier_report(small_disk: Path, tmp_path: Path) -> None:
    out = small_disk / "rep"
    code, _ = _evaluate(tmp_path, out)
    assert code == 0
    before = {name: (out / name).read_bytes() for name in _files(out)}
    assert "results.json" in before and "win_rates.png" in before
    _fill(small_disk, leave=20_000)
    code, lines = _evaluate(tmp_path, out)
    assert code == 2 and len(lines) == 1 and "No space left on device" in lines[0], lines
    assert {name: (out / name).read_bytes() for name in _files(out)} == before


def test_leaderboard_on_a_full_disk_leaves_nothing(small_disk: Path, tmp_path: Path) -> None:
    code, lines = _cli(tmp_path, "leaderboard", "ose", "--fights", "2", "--workers", "1", "--out",
                       str(small_disk / "lb"))  # about 440 KB of report on a 256 KiB disk
    assert code == 2 and len(lines) == 1, lines
    assert f"--out: cannot write {small_disk}/lb/" in lines[0] and "No space left on device" in lines[0]
    assert _files(small_disk) == []
