"""Writing a bundle: the destination always holds a whole bundle (old or new) even when the writer is killed
with SIGKILL, a killed writer's leftovers are put back or removed by the next read or export, a full disk
names the file and leaves nothing half-written, and export's --out problems are found before torch is
imported. Real processes, real signals, a real full tmpfs."""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from npc_tactics.policy_io.bundle import BundleError, is_bundle_dir, read_bundle, sha256_hex, write_bundle
from tests.disk_helpers import tmpfs
from tests.security.bundle_helpers import SHIPPED, make_bundle

REPO = Path(__file__).resolve().parents[2]
ENV = dict(os.environ, PYTHONPATH=str(REPO), COLUMNS="200")


def _errors(stderr: str) -> list[str]:
    """stderr's lines but the notice NPC_TACTICS_PURE=1 prints (the pure engines, used by the fast test runs)."""
    return [ln for ln in stderr.strip().splitlines() if not ln.startswith("npc-tactics: running the pure")]


def _dead_pid() -> int:
    proc = subprocess.Popen(["true"])
    proc.wait()
    return proc.pid


def _crash_state(tmp_path: Path) -> tuple[Path, str, str]:
    """What the two-rename writer left when killed between its renames: old hidden, new complete in a temp
    folder, nothing at the destination. Returns (destination, old sha256, new sha256)."""
    pid = _dead_pid()
    old = make_bundle(tmp_path / f".b.old-{pid}")
    new = make_bundle(tmp_path / f".b.{pid}-x1y2.tmp", edit=lambda d: d.update(exported_at="2030-01-01"))
    (tmp_path / ".b.q9w8e7.tmp").mkdir()  # an older writer's unnamed temp folder
    return tmp_path / "b", read_bundle(old).schema.exported_at, read_bundle(new).schema.exported_at


def test_bundle_read_puts_back_the_old_bundle_after_a_crash(tmp_path: Path) -> None:
    out, old_stamp, _ = _crash_state(tmp_path)
    assert read_bundle(out).schema.exported_at == old_stamp
    assert sorted(p.name for p in tmp_path.iterdir()) == ["b"]


def test_bundle_export_after_a_crash_recovers_then_replaces(tmp_path: Path) -> None:
    out, _, _ = _crash_state(tmp_path)
    b = read_bundle(SHIPPED)
    with pytest.raises(BundleError, match="already exists; pass --force"):
        write_bundle(out, b.schema, b.onnx_bytes)  # the old bundle is back, so it is not overwritten silently
    write_bundle(out, b.schema, b.onnx_bytes, force=True)
    assert read_bundle(out).schema.exported_at == b.schema.exported_at
    assert sorted(p.name for p in tmp_path.iterdir()) == ["b"]


WRITER = """
import sys
from npc_tactics.policy_io.bundle import read_bundle, write_bundle
b = read_bundle(sys.argv[1])
schemas = [b.schema.model_copy(update={"exported_at": f"stamp-{k}"}) for k in range(2)]
print("ready", flush=True)
k = 0
while True:
    write_bundle(sys.argv[2], schemas[k % 2], b.onnx_bytes, force=True)
    k += 1
"""


def test_bundle_without_rename_exchange_two_renames_still_work(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """A file system without RENAME_EXCHANGE (NFS, another OS): the two-rename path replaces the bundle and
    leaves nothing beside it."""
    from npc_tactics.policy_io import bundle_fs

    b = read_bundle(SHIPPED)
    write_bundle(tmp_path / "b", b.schema, b.onnx_bytes)
    monkeypatch.setattr(bundle_fs, "_exchange", lambda a, b: False)
    newer = b.schema.model_copy(update={"exported_at": "newer"})
    write_bundle(tmp_path / "b", newer, b.onnx_bytes, force=True)
    assert read_bundle(tmp_path / "b").schema.exported_at == "newer"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["b"]


def test_bundle_sigkill_while_writing_never_leaves_the_destination_empty(tmp_path: Path) -> None:
    out = tmp_path / "b"
    b = read_bundle(SHIPPED)
    write_bundle(out, b.schema, b.onnx_bytes)
    rng = random.Random(7)
    for _ in range(8):
        proc = subprocess.Popen([sys.executable, "-c", WRITER, str(SHIPPED), str(out)], env=ENV,
                                stdout=subprocess.PIPE, text=True)
        assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
        time.sleep(rng.uniform(0.0, 0.3))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        assert is_bundle_dir(out), sorted(p.name for p in tmp_path.iterdir())
        assert read_bundle(out).schema.exported_at in ("stamp-0", "stamp-1", b.schema.exported_at)
    write_bundle(out, b.schema, b.onnx_bytes, force=True)  # the next export removes the killed writers' leftovers
    assert sorted(p.name for p in tmp_path.iterdir()) == ["b"]


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    with tmpfs(tmp_path / "disk", "256k") as mnt:
        yield mnt


def test_bundle_full_disk_names_the_file_and_leaves_nothing(small_disk: Path) -> None:
    b = read_bundle(SHIPPED)
    big = b.onnx_bytes + b"\0" * 64 * 1024  # more than the disk holds: the write itself fails
    schema = b.schema.model_copy(update={"onnx": b.schema.onnx.model_copy(update={"sha256": sha256_hex(big)})})
    with pytest.raises(BundleError) as exc:
        write_bundle(small_disk / "b", schema, big)
    assert str(exc.value) == f"{small_disk / 'b' / 'policy.onnx'}: cannot be written (No space left on device); " \
                             "nothing was changed"
    assert list(small_disk.iterdir()) == []


def test_bundle_full_disk_keeps_the_previous_bundle(tmp_path: Path) -> None:
    b = read_bundle(SHIPPED)
    with tmpfs(tmp_path / "disk", "512k") as disk:  # room for one shipped bundle (300 KB), not two
        write_bundle(disk / "b", b.schema, b.onnx_bytes)
        before = (disk / "b" / "schema.json").read_bytes()
        with pytest.raises(BundleError, match="cannot be written .No space left on device"):
            write_bundle(disk / "b", b.schema, b.onnx_bytes, force=True)
        assert [p.name for p in disk.iterdir()] == ["b"]
        assert (disk / "b" / "schema.json").read_bytes() == before


NO_TORCH = """
import importlib.abc, sys
class Blocker(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("torch", "stable_baselines3", "sb3_contrib"):
            raise ImportError(f"{name} imported before --out was checked")
sys.meta_path.insert(0, Blocker())
from npc_tactics.cli.main import main
main(sys.argv[1:])
"""


@pytest.mark.parametrize(("out", "force", "expect"), [
    ("taken", False, "already exists; pass --force"),
    ("file.txt", False, "file.txt exists and is not a folder"),
    ("file.txt/b", True, "is under"),
    ("/proc/npc-bundle", True, "--out: cannot write in /proc"),
    ("", True, "'--out': expected a path, got an empty string"),
    (".", True, "--out: expected a folder for the bundle, got '.'"),
    ("other", True, "holds files that are not part of a bundle"),
], ids=["exists", "is-file", "under-file", "unwritable", "empty", "dot", "other-files"])
def test_bundle_export_checks_out_before_torch(tmp_path: Path, out: str, force: bool, expect: str) -> None:
    (tmp_path / "run").mkdir()
    (tmp_path / "file.txt").write_text("x")
    make_bundle(tmp_path / "taken")
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "notes.txt").write_text("keep")
    args = ["export", "run", "--out", out] + (["--force"] if force else [])
    proc = subprocess.run([sys.executable, "-c", NO_TORCH, *args], cwd=tmp_path, env=ENV, capture_output=True,
                          text=True, timeout=120)
    lines = _errors(proc.stderr)
    assert proc.returncode == 2 and len(lines) == 1 and "Traceback" not in proc.stderr, proc.stderr[-2000:]
    assert expect in lines[0], lines[0]
    assert (tmp_path / "other" / "notes.txt").read_text() == "keep"


@pytest.mark.integration
def test_bundle_sigkill_of_a_real_export_and_a_full_disk(trained_run: Path, tmp_path: Path,
                                                          small_disk: Path) -> None:
    """The real CLI: killed at a random moment, --out holds the previous bundle or the new one; exporting
    onto a full disk is one line naming the file, and nothing is left on that disk but what was there."""
    out = tmp_path / "b"
    cmd = [sys.executable, "-m", "npc_tactics.cli.main", "export", str(trained_run), "--out", str(out), "--fights", "1"]
    first = subprocess.run(cmd, env=ENV, capture_output=True, text=True, timeout=300)
    assert first.returncode == 0, first.stderr[-2000:]
    rng = random.Random(3)
    for _ in range(3):
        proc = subprocess.Popen([*cmd, "--force"], env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(rng.uniform(0.5, 6.0))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        assert is_bundle_dir(out)
        read_bundle(out)
    filler = small_disk / "filler"
    filler.write_bytes(b"\0" * (256 - 24) * 1024)  # leaves less room than schema.json + policy.onnx need
    proc2 = subprocess.run([*cmd[:6], str(small_disk / "b"), "--fights", "1"], env=ENV, capture_output=True,
                           text=True, timeout=300)
    lines = _errors(proc2.stderr)
    assert proc2.returncode == 2 and len(lines) == 1, proc2.stderr[-2000:]
    assert "cannot be written (No space left on device)" in lines[0] and str(small_disk / "b") in lines[0]
    assert [p.name for p in small_disk.iterdir()] == ["filler"]
    shutil.rmtree(out)
