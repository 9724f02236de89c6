"""Write a report's files all or nothing: every file is staged in a temp file next to its final name, and only
when all of them are written are they renamed into place.

Why: on a full disk, ``evaluate`` left a 0-byte ``results.json.tmp`` and a report whose ``report.md`` was new
and whose ``results.json`` was missing, and ``leaderboard`` left some of its PNGs. A rename needs no space, so a
write that fails fails while staging: every temp file is removed, nothing of this run's report is left (a report
folder this run created is removed again), the files of an earlier report stay as they were, and the error
names the file that could not be written.
"""

from __future__ import annotations

import errno
import os
import tempfile
from collections.abc import Mapping
from pathlib import Path

__all__ = ["write_all"]


def named_os_error(exc: OSError, path: Path) -> OSError:
    """``exc`` naming ``path``: a full disk fails in ``write`` or ``fsync``, whose OSError names no file (the
    same as :func:`npc_tactics.training.run_dir.named_os_error`, which this layer may not import)."""
    code = exc.errno if exc.errno is not None else errno.EIO
    return OSError(code, exc.strerror or os.strerror(code), str(path))


def _created_folders(out_dir: Path) -> list[Path]:
    """The folders ``mkdir(parents=True)`` of ``out_dir`` would create, deepest first."""
    missing = []
    folder = out_dir
    while not folder.exists() and folder.parent != folder:
        missing.append(folder)
        folder = folder.parent
    return missing


def _stage(path: Path, data: bytes) -> str:
    """``data`` in a temp file beside ``path`` (fsynced); its name. On failure it is removed and the OSError
    names ``path``."""
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as exc:
        raise named_os_error(exc, path) from None
    try:
        os.fchmod(fd, 0o666 & ~_umask())
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
    except BaseException as exc:
        Path(tmp).unlink(missing_ok=True)
        if isinstance(exc, OSError):
            raise named_os_error(exc, path) from None
        raise
    return tmp


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_all(out_dir: Path, files: Mapping[str, bytes | str]) -> dict[str, Path]:
    """Write ``{file name: content}`` into ``out_dir`` (created) all or nothing; ``{file name: path}``.

    Raises the first OSError, naming the file that could not be written, after removing every temp file and
    the folders this call created."""
    created = _created_folders(out_dir)
    staged: list[tuple[str, Path]] = []
    try:
        try:
            out_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise named_os_error(exc, out_dir) from None
        for name, content in files.items():
            path = out_dir / name
            raw = content.encode("utf-8") if isinstance(content, str) else content
            staged.append((_stage(path, raw), path))
        for tmp, path in staged:
            os.replace(tmp, path)
    except BaseException:
        for tmp, _ in staged:
            Path(tmp).unlink(missing_ok=True)
        for folder in created:  # deepest first; only if empty (nothing of anyone else's in it)
            try:
                folder.rmdir()
            except OSError:
                break
        raise
    return {name: out_dir / name for name in files}
