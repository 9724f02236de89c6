"""The run folder: atomic file writes, the resolved config, CLI args, ``meta.json``, checkpoints.

Layout (written by :func:`npc_tactics.training.train.train`)::

    runs/<system>-<scenario>-<timestamp>/
      config.yaml       the resolved TrainConfig (the source of truth on --resume)
      args.yaml         the overrides given on the command line, one entry per (re)start
      meta.json         seeds, git SHA, package versions, SystemSpec name/version, action names,
                        observation size, one entry per training segment
      tb/               TensorBoard logs
      checkpoints/      ckpt_<timesteps>.zip + ckpt_<timesteps>.json; the json is written last
                        and a checkpoint counts only when both exist (a kill mid-write leaves
                        no half checkpoint behind)
      eval_history.csv  one row per evaluation point and opponent
      model.zip         the final model

Every file goes to a temp file in the same folder, is fsynced, then ``os.replace``d (atomic on
POSIX).
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import subprocess
import tempfile
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

import yaml

CHECKPOINT_RE = re.compile(r"^ckpt_(\d+)\.zip$")
EVAL_COLUMNS = (
    "timesteps",
    "opponent",
    "episodes",
    "win_rate",
    "draw_rate",
    "flee_rate",
    "loss_rate",
    "mean_reward",
    "mean_rounds",
)


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically: temp file in the same dir, fsync, ``os.replace``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    try:  # make the rename itself durable
        dir_fd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)
    except OSError:
        pass


def atomic_write_text(path: Path, text: str) -> None:
    atomic_write_bytes(path, text.encode("utf-8"))


def save_model_atomic(model: Any, path: Path) -> None:
    """``model.save`` into memory, then write the zip atomically."""
    buf = io.BytesIO()
    model.save(buf)
    atomic_write_bytes(path, buf.getvalue())


def write_yaml(path: Path, data: Any) -> None:
    atomic_write_text(path, yaml.safe_dump(data, sort_keys=False, default_flow_style=None))


def write_json(path: Path, data: Any) -> None:
    atomic_write_text(path, json.dumps(data, indent=2, sort_keys=True) + "\n")


def read_json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def git_sha(start: Path | None = None) -> str:
    """The HEAD commit of the git checkout holding this package (or ``start``), else
    ``"unknown"``."""
    where = start or Path(__file__).resolve().parent
    try:
        out = subprocess.run(
            ["git", "rev-parse", "HEAD"],
            cwd=where,
            capture_output=True,
            text=True,
            timeout=5,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    sha = out.stdout.strip()
    return sha if out.returncode == 0 and re.fullmatch(r"[0-9a-f]{40}", sha) else "unknown"


def package_versions(
    names: Iterable[str] = (
        "npc-tactics",
        "stable-baselines3",
        "sb3-contrib",
        "torch",
        "gymnasium",
        "numpy",
        "pydantic",
    ),
) -> dict[str, str]:
    out = {}
    for name in names:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = "not installed"
    return out


def default_run_dir(system: str, scenario: str, root: Path = Path("runs")) -> Path:
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    base = root / f"{system}-{Path(scenario).stem}-{stamp}"
    path, k = base, 1
    while path.exists():
        k += 1
        path = base.with_name(f"{base.name}-{k}")
    return path


def latest_run_dir(system: str, scenario: str, root: Path = Path("runs")) -> Path | None:
    """The most recent ``runs/<system>-<scenario>-*`` folder (for ``--resume`` without
    ``--out``)."""
    prefix = f"{system}-{Path(scenario).stem}-"
    candidates = [p for p in root.glob(prefix + "*") if p.is_dir() and (p / "config.yaml").is_file()]
    return max(candidates, key=lambda p: p.stat().st_mtime) if candidates else None


# ----- checkpoints
# ---------------------------------------------------------------------------------------


def checkpoint_paths(run_dir: Path) -> list[tuple[int, Path]]:
    """Complete checkpoints ``(timesteps, zip path)``, oldest first (a zip without its json is
    ignored)."""
    folder = run_dir / "checkpoints"
    out = []
    if folder.is_dir():
        for p in folder.iterdir():
            m = CHECKPOINT_RE.match(p.name)
            if m and p.with_suffix(".json").is_file():
                out.append((int(m.group(1)), p))
    return sorted(out)


def write_checkpoint(run_dir: Path, model: Any, state: Mapping[str, Any], keep: int) -> Path:
    """Save ``model`` and its bookkeeping ``state`` as ``ckpt_<timesteps>``; prune to the last
    ``keep``."""
    folder = run_dir / "checkpoints"
    steps = int(model.num_timesteps)
    path = folder / f"ckpt_{steps:09d}.zip"
    save_model_atomic(model, path)
    write_json(path.with_suffix(".json"), dict(state, timesteps=steps))
    for _, old in checkpoint_paths(run_dir)[:-keep]:
        for f in (old, old.with_suffix(".json")):
            try:
                f.unlink()
            except FileNotFoundError:
                pass
    return path


def remove_stale_temp_files(run_dir: Path) -> None:
    """Delete temp files left by a process killed mid-write (the real files are never partial)."""
    for folder in (run_dir, run_dir / "checkpoints"):
        if folder.is_dir():
            for p in folder.glob(".*.tmp"):
                p.unlink(missing_ok=True)


# ----- eval history
# --------------------------------------------------------------------------------------


def append_eval_rows(path: Path, rows: Iterable[Mapping[str, Any]]) -> None:
    """Append rows to ``eval_history.csv`` (atomically rewriting the small file, header
    included)."""
    old = path.read_text(encoding="utf-8") if path.is_file() else ""
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=EVAL_COLUMNS, lineterminator="\n")
    if not old:
        writer.writeheader()
    for row in rows:
        writer.writerow({k: row.get(k, "") for k in EVAL_COLUMNS})
    atomic_write_text(path, old + buf.getvalue())


def read_eval_rows(path: Path) -> list[dict[str, str]]:
    if not path.is_file():
        return []
    with path.open(encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


def truncate_eval_rows(path: Path, max_timesteps: int) -> None:
    """Drop evaluation rows recorded after ``max_timesteps`` (work lost with a kill before a
    checkpoint)."""
    rows = read_eval_rows(path)
    kept = [r for r in rows if int(r["timesteps"]) <= max_timesteps]
    if len(kept) != len(rows):
        path.unlink()
        append_eval_rows(path, kept)
