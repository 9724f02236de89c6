"""The run-folder lock (issue 8 §4): one writer at a time, stale locks of dead processes taken over,
somebody else's lock never removed."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from npc_tactics.training.lock import RunLock, RunLockedError, pid_alive


def dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def test_lock_file_names_its_owner_and_goes_away(tmp_path: Path) -> None:
    with RunLock(tmp_path) as lock:
        info = json.loads(lock.path.read_text())
        assert (info["pid"], info["host"]) == (os.getpid(), socket.gethostname())
        with pytest.raises(RunLockedError, match=f"in use by PID {os.getpid()}"):
            RunLock(tmp_path).acquire()  # a second writer, even in the same process
    assert not (tmp_path / "train.lock").exists()


def test_lock_released_when_the_body_raises(tmp_path: Path) -> None:
    with pytest.raises(KeyboardInterrupt), RunLock(tmp_path):
        raise KeyboardInterrupt
    assert not (tmp_path / "train.lock").exists()


def test_stale_and_garbled_locks_are_taken_over(tmp_path: Path) -> None:
    notes: list[str] = []
    pid = dead_pid()
    assert not pid_alive(pid)
    (tmp_path / "train.lock").write_text(json.dumps({"pid": pid, "host": socket.gethostname()}))
    with RunLock(tmp_path, say=notes.append):
        pass
    assert notes and f"stale lock of PID {pid}" in notes[0]
    (tmp_path / "train.lock").write_text("")  # its writer died before writing
    with RunLock(tmp_path):
        pass


def test_lock_of_another_host_is_not_guessed_stale(tmp_path: Path) -> None:
    (tmp_path / "train.lock").write_text(json.dumps({"pid": dead_pid(), "host": "elsewhere"}))
    with pytest.raises(RunLockedError, match=r"on elsewhere.*delete .*train\.lock if that process is gone"):
        RunLock(tmp_path).acquire()


def test_release_never_removes_another_process_lock(tmp_path: Path) -> None:
    lock = RunLock(tmp_path)
    lock.acquire()
    (tmp_path / "train.lock").write_text(json.dumps({"pid": 1, "host": socket.gethostname()}))  # taken over
    lock.release()
    assert json.loads((tmp_path / "train.lock").read_text())["pid"] == 1
