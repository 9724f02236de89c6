"""Convert a run folder written by an older npc-tactics (policy only in SB3 zips) to plain tensor files.

    python -m npc_tactics.training.legacy RUN_DIR

This is the one place that unpickles a ``model.zip``, and only on explicit request: it runs any code the zip
contains, so use it only on runs you trained yourself. It writes ``policy.pt`` next to ``model.zip`` and the
``.policy.pt``/``.optim.pt`` tensor files of every old checkpoint (updating their json), under the run's
lock; after that, suggest/evaluate/--resume read the folder without unpickling. The zips are left in place.
"""

from __future__ import annotations

import sys
from pathlib import Path

from npc_tactics.errors import UserError
from npc_tactics.runs import POLICY_FILE, RunDir
from npc_tactics.training.lock import RunLock
from npc_tactics.training.run_dir import read_json, save_policy_atomic, write_checkpoint_files

__all__ = ["convert_legacy_run", "main"]


def _load_trusted_zip(path: Path) -> object:
    from sb3_contrib import MaskablePPO

    try:
        return MaskablePPO.load(path, device="cpu")  # unpickles: the caller vouched for this folder
    except Exception as exc:
        raise UserError(f"{path}: cannot load the model ({type(exc).__name__}: {exc})") from None


def convert_legacy_run(run_dir: str | Path) -> list[Path]:
    """Write tensor files for the old zips of ``run_dir`` (a run you trust); returns the files written."""
    run = RunDir(Path(run_dir)).require()
    written: list[Path] = []
    with RunLock(run.path):
        zip_path = run.path / "model.zip"
        if zip_path.is_file() and not run.policy_path.is_file():
            save_policy_atomic(_load_trusted_zip(zip_path), run.policy_path)
            written.append(run.policy_path)
        for steps, ckpt_zip in run.legacy_checkpoints():
            model = _load_trusted_zip(ckpt_zip)
            record = read_json(ckpt_zip.with_suffix(".json"))
            record = record if isinstance(record, dict) else {}
            record["n_updates"] = int(getattr(model, "_n_updates", 0))
            policy = model.policy  # type: ignore[attr-defined]  # MaskablePPO, loaded above
            written.append(write_checkpoint_files(run.path, steps, policy.state_dict(),
                                                  policy.optimizer.state_dict(), record))
    if not written and not run.policy_path.is_file() and not run.checkpoints():
        raise UserError(f"{run.path}: nothing to convert (no model.zip and no ckpt_*.zip)")
    return written


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m npc_tactics.training.legacy RUN_DIR   (only for runs you trained yourself)",
              file=sys.stderr)
        return 2
    try:
        written = convert_legacy_run(args[0])
    except UserError as exc:
        print(f"npc-tactics: error: {exc}", file=sys.stderr)
        return 2
    for path in written:
        print(f"wrote {path}")
    print(f"{args[0]}: {POLICY_FILE} and checkpoint tensors ready" if written else f"{args[0]}: already converted")
    return 0


if __name__ == "__main__":
    sys.exit(main())
