"""Where ``train`` writes, and what a failed ``train`` leaves behind.

Why a module of its own: ``train --out ''`` used to train into the current folder (``Path('')`` is ``.``),
scattering config.yaml, checkpoints/ and tb/ among the user's files; and a full disk used to end with a bare
"No space left on device" and a half-written run folder that the next ``train --out`` then refused as
"a training run already exists there". Here:

* :func:`check_out_dir` refuses an ``--out`` that names no folder of its own;
* :class:`CreatedRunDir` wraps one ``train`` call: a failed write (a full disk, a read-only folder) becomes
  one line naming the file, and a run folder this very call created is removed again when it failed before
  its first complete checkpoint. A folder that existed before the call (a run being resumed, an empty folder
  the user made) is never removed, and neither is one holding a checkpoint (free some space, then
  ``--resume`` it). ``KeyboardInterrupt`` is not a failure: the interrupt handler saves a checkpoint.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from types import TracebackType

from npc_tactics.errors import UserError
from npc_tactics.runs import RunDir

__all__ = ["CreatedRunDir", "check_out_dir"]


def check_out_dir(out: Path | None, resume: bool) -> None:
    """Refuse an ``--out`` that is blank, or for a new run the current folder itself (resuming ``--out .``
    from inside a run folder stays allowed). An existing file is refused by the run-path check."""
    if out is None:
        return
    text = str(out)
    if not text.strip():
        raise UserError(f"--out: expected a folder name for the run, got {text!r} (blank)")
    if resume:
        return
    if text == "." or _same_folder(out, Path.cwd()):
        raise UserError(f"--out: expected a new folder for the run, got {text!r} (the current folder, or an "
                        "empty --out); name a folder such as runs/my-npc")


def _same_folder(a: Path, b: Path) -> bool:
    try:
        return a.exists() and os.path.samefile(a, b)
    except OSError:
        return False


def missing_folders(run: Path) -> list[Path]:
    """``run`` and its ancestors that do not exist yet, deepest first: what this call creates."""
    missing: list[Path] = []
    path = run
    while not path.exists() and not path.is_symlink() and path != path.parent:
        missing.append(path)
        path = path.parent
    return missing


class CreatedRunDir:
    """``with CreatedRunDir(run): ...`` around the work that creates and fills ``run`` (see the module)."""

    def __init__(self, run: Path) -> None:
        self.run = Path(run)
        self.created = missing_folders(self.run)

    def __enter__(self) -> CreatedRunDir:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        if exc is None or not isinstance(exc, Exception):
            return
        removed = self.remove()
        if isinstance(exc, OSError):
            raise self.write_error(exc, removed) from None

    def remove(self) -> bool:
        """Remove the run folder if this call created it and it holds no complete checkpoint, then the
        ancestors this call created (only while empty). True when the run folder was removed."""
        if not self.created or RunDir(self.run).checkpoints():
            return False
        shutil.rmtree(self.created[0], ignore_errors=True)
        for folder in self.created[1:]:
            try:
                folder.rmdir()
            except OSError:
                break
        return not self.created[0].exists()

    def write_error(self, exc: OSError, removed: bool) -> UserError:
        """One line: the file that could not be written, why, and what became of the run folder."""
        where = str(exc.filename) if exc.filename is not None else str(self.run)
        if removed:
            tail = f"; removed the unfinished run folder {self.run}"
        elif RunDir(self.run).checkpoints():
            tail = f"; {self.run} keeps its last complete checkpoint: fix that, then train again with --resume"
        else:
            tail = ""
        return UserError(f"{where}: cannot write: {exc.strerror or exc}{tail}")
