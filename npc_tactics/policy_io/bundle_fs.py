"""Putting a bundle folder in place so that its destination always holds the old bundle or the new one.

Why: replacing a folder with two renames (old aside, new in) leaves nothing at the destination if the process
dies between them. On Linux the new folder is swapped with the old one in one ``renameat2(RENAME_EXCHANGE)``
call, so there is no such moment; where that call does not exist (another OS, a file system without it) the two
renames are used, and a crash between them is repaired by the next read or write of the bundle
(:func:`recover`: an old bundle set aside with nothing at the destination is put back). Leftovers carry the
writer's PID (``.NAME.old-PID``, ``.NAME.PID-XXXX.tmp``) so that only those of dead writers are touched.

:func:`check_destination` is what ``export`` runs before any work: the destination's problems (exists without
``--force``, is a file, holds other files, under a file, not writable, no folder name at all) are found in
milliseconds, not after the fights that measure the observation range.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import os
import re
import shutil
import tempfile
from pathlib import Path

from npc_tactics.errors import UserError

__all__ = ["check_destination", "install", "make_temp", "recover"]

_AT_FDCWD = -100
_RENAME_EXCHANGE = 2
_LEFTOVER = re.compile(r"^\.(?P<name>.+)\.(?:old-(?P<old>\d+)|(?:(?P<tmp>\d+)-)?[^.]*\.tmp)$")


def _pid_alive(pid: int | None) -> bool:
    if pid is None or pid == os.getpid():
        return pid is not None
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # exists, another user's
    return True


def _leftovers(out: Path) -> list[tuple[Path, bool]]:
    """``(path, is_old_bundle)`` of the dead writers' leftovers beside ``out``."""
    found: list[tuple[Path, bool]] = []
    try:
        entries = list(out.parent.iterdir())
    except OSError:
        return found
    for entry in entries:
        m = _LEFTOVER.match(entry.name)
        if m is None or m["name"] != out.name or not entry.is_dir() or entry.is_symlink():
            continue
        pid = m["old"] or m["tmp"]
        if not _pid_alive(int(pid) if pid else None):
            found.append((entry, m["old"] is not None))
    return found


def recover(out: Path, bundle_files: tuple[str, ...]) -> None:
    """Repair what a killed writer left beside ``out``: with nothing at ``out``, an old bundle set aside is put
    back; the other leftovers of dead writers are removed. Best effort (a read-only folder is left as is)."""
    leftovers = _leftovers(out)
    if not leftovers:
        return
    if not os.path.lexists(out):
        for path, is_old in sorted(leftovers, key=lambda e: e[0].stat().st_mtime, reverse=True):
            if is_old and all((path / f).is_file() for f in bundle_files):
                with contextlib.suppress(OSError):
                    os.rename(path, out)
                    _fsync_dir(out.parent)
                break
    for path, _ in leftovers:
        if path.exists():
            shutil.rmtree(path, ignore_errors=True)


def check_destination(out: Path, *, force: bool, allowed: set[str]) -> None:
    """Raise a one-line :class:`UserError` (naming ``--out``) when a bundle cannot be written at ``out``."""
    if out.name in ("", ".", ".."):
        raise UserError(f"--out: expected a folder for the bundle, got {str(out)!r} (names no new folder)")
    if out.is_symlink() or (out.exists() and not out.is_dir()):
        raise UserError(f"--out: {out} exists and is not a folder")
    if out.is_dir():
        try:
            contents = {p.name for p in out.iterdir()}
        except OSError as exc:
            raise UserError(f"--out: {out} cannot be read ({exc.strerror})") from None
        if contents and not force:
            raise UserError(f"--out: {out} already exists; pass --force to replace it")
        if contents - allowed:
            raise UserError(f"--out: {out} holds files that are not part of a bundle; refusing to replace it")
    ancestor = out.parent
    while not ancestor.exists():
        if ancestor.is_symlink() or ancestor == ancestor.parent:
            raise UserError(f"--out: {ancestor} is a broken link or missing root; cannot create {out}")
        ancestor = ancestor.parent
    if not ancestor.is_dir():
        raise UserError(f"--out: {out} is under {ancestor}, which is a file, not a folder")
    try:  # a real probe: permissions, read-only mounts and /proc all answer it (root ignores mode bits)
        Path(tempfile.mkdtemp(prefix=f".{out.name}.{os.getpid()}-", suffix=".tmp", dir=ancestor)).rmdir()
    except OSError as exc:
        raise UserError(f"--out: cannot write in {ancestor} ({exc.strerror or exc})") from None


def make_temp(out: Path) -> Path:
    """A new empty folder beside ``out`` named as a leftover of this process (see the module docstring)."""
    return Path(tempfile.mkdtemp(prefix=f".{out.name}.{os.getpid()}-", suffix=".tmp", dir=out.parent))


def _exchange(a: Path, b: Path) -> bool:
    """Swap ``a`` and ``b`` atomically (Linux renameat2); False when this system or file system cannot."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    if renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE) == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP):
        return False
    raise OSError(err, os.strerror(err), str(b))


def install(tmp: Path, out: Path) -> None:
    """Put the complete folder ``tmp`` at ``out`` (replacing a folder there); ``out`` holds the old or the new
    folder at every moment when the exchange is available. ``tmp`` is gone afterwards."""
    if not os.path.lexists(out):
        os.rename(tmp, out)
    elif _exchange(tmp, out):
        shutil.rmtree(tmp, ignore_errors=True)  # now the old bundle
    else:
        old = out.with_name(f".{out.name}.old-{os.getpid()}")
        os.rename(out, old)
        try:
            os.rename(tmp, out)
        except BaseException:
            os.rename(old, out)  # put the previous bundle back
            raise
        shutil.rmtree(old, ignore_errors=True)
    _fsync_dir(out.parent)


def _fsync_dir(folder: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
