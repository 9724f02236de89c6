"""One writer per run folder: ``train`` and ``--resume`` hold ``<run>/train.lock`` while they write.

The lock file holds the owner's PID, host name and start time (JSON), and is created with ``O_EXCL``. A lock
left by a process that died (kill -9, power loss) is stale: when its host is this host and its PID is no
longer alive, it is removed with a note; otherwise the new process stops with a one-line error naming the
other PID and host. Checking and creating happen under a short ``flock`` on the run folder itself, so two
processes that both find the same stale lock cannot both take over. A lock from another host (a shared
network folder) cannot be checked from here: the error says to delete the file if that process is gone.
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
import socket
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Any

from npc_tactics.configs.files import parse_json, read_text
from npc_tactics.errors import ConfigError, UserError

__all__ = ["RunLock", "RunLockedError", "pid_alive"]

LOCK_NAME = "train.lock"
#: A lock is one short JSON line; anything bigger was not written by us.
MAX_LOCK_BYTES = 4096


class RunLockedError(UserError):
    """Another process is training or resuming the same run folder."""


def pid_alive(pid: int) -> bool:
    """True when a process with this PID exists (signal 0 checks without sending anything)."""
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # exists, owned by another user
        return True
    return True


@contextmanager
def _dir_guard(folder: Path) -> Iterator[None]:
    """A short exclusive ``flock`` on the folder: serialises check-then-create between processes."""
    fd = os.open(folder, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing releases the flock


def _read(path: Path) -> dict[str, Any] | None:
    """The lock's owner, ``{}`` for a garbled lock (its writer died inside the guarded section, before
    writing), ``None`` for no lock. Read with the package's safe reader: a FIFO or a huge file planted as
    train.lock must not hang or flood ``train``; one that is not a file at all is refused."""
    if not os.path.lexists(path):
        return None
    if path.is_dir() or (path.exists() and not path.is_file()):
        raise RunLockedError(f"{path}: is not a lock file (a folder, pipe or device); remove it to train here")
    try:
        data = parse_json(read_text(path, MAX_LOCK_BYTES, "lock file"), str(path))
    except ConfigError:
        return {} if os.path.lexists(path) else None
    return data if isinstance(data, dict) else {}


class RunLock:
    """``with RunLock(run_dir): ...`` holds the run folder's lock; ``say`` reports a removed stale lock."""

    def __init__(self, run_dir: Path, say: Callable[[str], None] | None = None) -> None:
        self.run_dir = Path(run_dir)
        self.path = self.run_dir / LOCK_NAME
        self.say = say or (lambda _msg: None)
        self.held = False

    def acquire(self) -> None:
        host, pid = socket.gethostname(), os.getpid()
        with _dir_guard(self.run_dir):
            other = _read(self.path)
            if other is not None:
                o_pid, o_host = other.get("pid"), other.get("host")
                stale = not other or (o_host == host and isinstance(o_pid, int) and not pid_alive(o_pid))
                if not stale:
                    since = f" since {other['started']}" if other.get("started") else ""
                    raise RunLockedError(
                        f"{self.run_dir}: in use by PID {o_pid} on {o_host}{since} (another train or --resume); "
                        f"wait for it to finish, or delete {self.path} if that process is gone")
                self.say(f"[yellow]{self.run_dir}: removed a stale lock of PID {o_pid} on {o_host} (no longer running)")
                self.path.unlink(missing_ok=True)
            body = json.dumps({"pid": pid, "host": host,
                               "started": datetime.now(UTC).isoformat(timespec="seconds")}) + "\n"
            try:
                fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
            except OSError as exc:
                if exc.errno == errno.EEXIST:  # only without a working flock (some network filesystems)
                    raise RunLockedError(f"{self.run_dir}: locked by another process ({self.path})") from None
                raise
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as fh:
                    fh.write(body)
                    fh.flush()
                    os.fsync(fh.fileno())
            except OSError as exc:  # a full disk: name the file, leave no empty lock behind
                self.path.unlink(missing_ok=True)
                raise OSError(exc.errno, exc.strerror, str(self.path)) from None
        self.held = True

    def release(self) -> None:
        """Remove the lock if it is still ours (never another process's)."""
        if not self.held:
            return
        self.held = False
        with _dir_guard(self.run_dir):
            mine = _read(self.path)
            if mine and mine.get("pid") == os.getpid() and mine.get("host") == socket.gethostname():
                self.path.unlink(missing_ok=True)

    def __enter__(self) -> RunLock:
        self.acquire()
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.release()
