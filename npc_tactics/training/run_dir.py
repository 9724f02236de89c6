"""Writing a run folder: atomic files, the resolved config, CLI args, ``meta.json``, checkpoints.

Reading a run folder is :class:`npc_tactics.runs.RunDir`'s job (that module documents the trust model).
Layout (written by :func:`npc_tactics.training.train.train`)::

    runs/<system>-<scenario>-<timestamp>/
      config.yaml       the resolved TrainConfig (the source of truth on --resume)
      args.yaml         the overrides given on the command line, one entry per (re)start
      meta.json         seeds, git SHA, package versions, SystemSpec name/version (the rules version),
                        action names, observation size, one entry per training segment
      tb/               TensorBoard logs
      checkpoints/      ckpt_<timesteps>.policy.pt + .optim.pt (plain state dicts) + .json; the json
                        is written last and a checkpoint counts only when all three exist
      eval_history.csv  one row per evaluation point and opponent
      policy.pt         the final policy weights (plain state dict): what sharing a run shares
      model.zip         the final model as an SB3 zip, for your own use in stable-baselines3; it
                        contains a pickle, so npc-tactics never reads it
      train.lock        while a train or --resume process writes the folder (see training/lock.py)

Resume state without pickles (why not a checksum file instead): a checksum stored in the folder proves
nothing about a folder someone else crafted (they can recompute it), and an HMAC would need a secret key
to manage. So everything ``--resume`` reads is plain data: the policy and Adam state dicts (read with
``torch.load(weights_only=True)``), the timestep and update counters in the checkpoint json, and the
learning-rate and clip schedules rebuilt from ``config.yaml``. The json also records the sha256 of both
tensor files, so a truncated or mixed-up copy is refused (integrity, not security).

Every file goes to a temp file in the same folder, is fsynced, then ``os.replace``d (atomic on POSIX),
with the permissions a plain ``open`` would give (``0o666 & ~umask``; an existing file keeps its mode).
"""

from __future__ import annotations

import csv
import errno
import hashlib
import io
import json
import os
import re
import stat
import subprocess
import tempfile
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

import yaml

from npc_tactics.configs import files
from npc_tactics.errors import UserError, shown
from npc_tactics.limits import MAX_TIMESTEPS
from npc_tactics.runs import MAX_TENSOR_BYTES, Checkpoint, RunDir, load_policy_weights, load_tensors

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


def current_umask() -> int:
    """The process umask (read from /proc without changing it; else set-and-restore)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _target_mode(path: Path) -> int:
    """An existing file keeps its mode; a new one gets what ``open()`` would give (mkstemp makes 0600)."""
    try:
        return stat.S_IMODE(path.stat().st_mode)
    except FileNotFoundError:
        return 0o666 & ~current_umask()


def named_os_error(exc: OSError, path: Path) -> OSError:
    """``exc`` naming ``path``, the file that could not be written: a full disk fails in ``write`` or
    ``fsync``, whose OSError names no file, and the user must learn which file (and so which folder) it was."""
    code = exc.errno if exc.errno is not None else errno.EIO
    return OSError(code, exc.strerror or os.strerror(code), str(path))


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically: temp file in the same dir, fsync, ``os.replace``."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        mode = _target_mode(path)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as exc:
        raise named_os_error(exc, path) from None
    try:
        os.fchmod(fd, mode)
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        if isinstance(exc, OSError):
            raise named_os_error(exc, path) from None
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
    """``model.save`` into memory, then write the zip atomically (an SB3 export; never read back)."""
    buf = io.BytesIO()
    model.save(buf)
    atomic_write_bytes(path, buf.getvalue())


def tensor_bytes(state: Any) -> bytes:
    """``torch.save`` of a plain state dict, in memory."""
    import torch

    buf = io.BytesIO()
    torch.save(state, buf)
    return buf.getvalue()


def save_policy_atomic(model: Any, path: Path) -> None:
    """The policy's weights as a plain state dict: the file a shared run is played from."""
    atomic_write_bytes(path, tensor_bytes(model.policy.state_dict()))


def write_yaml(path: Path, data: Any) -> None:
    atomic_write_text(path, yaml.safe_dump(data, sort_keys=False, default_flow_style=None))


def write_json(path: Path, data: Any) -> None:
    atomic_write_text(path, json.dumps(data, indent=2, sort_keys=True) + "\n")


def read_json(path: Path, what: str = "JSON file") -> Any:
    """A run folder's JSON file read strictly (:func:`npc_tactics.configs.files.read_json`: a regular file of
    bounded size, no NaN/Infinity, bounded nesting); anything else is a one-line ConfigError naming it."""
    return files.read_json(path, what=what)


def read_json_object(path: Path, what: str = "JSON file") -> dict[str, Any]:
    """:func:`read_json` of a file that must hold a JSON object (meta.json, a checkpoint's json)."""
    data = read_json(path, what)
    if not isinstance(data, dict):
        raise UserError(f"{path}: expected a JSON object, got {type(data).__name__}")
    return data


def read_meta(run: Path) -> dict[str, Any]:
    """The run's ``meta.json`` (empty when there is none yet), refused with one line when it is damaged."""
    path = run / "meta.json"
    return read_json_object(path, "meta.json") if path.exists() else {}


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
    candidates = [p for p in root.glob(prefix + "*") if RunDir(p).is_run()]
    return max(candidates, key=lambda p: p.stat().st_mtime) if candidates else None


# ----- checkpoints
# ---------------------------------------------------------------------------------------


def checkpoint_paths(run_dir: Path) -> list[tuple[int, Path]]:
    """Complete checkpoints ``(timesteps, policy weights path)``, oldest first."""
    return [(c.timesteps, c.policy_path) for c in RunDir(run_dir).checkpoints()]


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def write_checkpoint_files(run_dir: Path, steps: int, policy_state: Any, optim_state: Any,
                           bookkeeping: Mapping[str, Any]) -> Path:
    """Write ``ckpt_<steps>``: both tensor files, then the json (last: it makes the checkpoint count)."""
    folder = run_dir / "checkpoints"
    stem = f"ckpt_{steps:09d}"
    policy, optim = tensor_bytes(policy_state), tensor_bytes(optim_state)
    atomic_write_bytes(folder / f"{stem}.policy.pt", policy)
    atomic_write_bytes(folder / f"{stem}.optim.pt", optim)
    record = dict(bookkeeping, timesteps=steps, policy_sha256=_sha256(policy), optim_sha256=_sha256(optim))
    write_json(folder / f"{stem}.json", record)
    return folder / f"{stem}.json"


def write_checkpoint(run_dir: Path, model: Any, state: Mapping[str, Any], keep: int) -> Path:
    """Checkpoint ``model`` (weights, Adam state, counters) with its bookkeeping ``state``; prune to the
    last ``keep`` (the json goes first, so a kill mid-prune never leaves a half checkpoint that counts)."""
    steps = int(model.num_timesteps)
    path = write_checkpoint_files(run_dir, steps, model.policy.state_dict(), model.policy.optimizer.state_dict(),
                                  dict(state, n_updates=int(getattr(model, "_n_updates", 0))))
    for ckpt in RunDir(run_dir).checkpoints()[:-keep]:
        for f in (ckpt.json_path, ckpt.policy_path, ckpt.optim_path):
            f.unlink(missing_ok=True)
    return path


def _counter(record: Mapping[str, Any], key: str, path: Path, default: int | None = None) -> int:
    """``record[key]`` as a whole number from 0 to MAX_TIMESTEPS (a float, a bool, 1e999 or 10**12 is refused:
    a crafted count would make training skip its budget or overflow the schedules)."""
    value = record.get(key, default)
    if type(value) is not int or not 0 <= value <= MAX_TIMESTEPS:
        raise UserError(f"{path}: {key}: expected a whole number from 0 to {MAX_TIMESTEPS:,}, got "
                        f"{shown(value)}; the checkpoint is damaged or was edited")
    return value


def read_checkpoint_record(ckpt: Checkpoint) -> dict[str, Any]:
    """The bookkeeping json of ``ckpt``, validated: an object whose ``timesteps`` (bounded by MAX_TIMESTEPS)
    matches the file name and whose ``n_updates`` is a bounded count. Read before anything is written, so a
    refused resume leaves the run folder as it was."""
    path = ckpt.json_path
    if ckpt.timesteps > MAX_TIMESTEPS:
        raise UserError(f"{path}: claims {ckpt.timesteps:,} timesteps, more than the {MAX_TIMESTEPS:,} a run may "
                        "train; the checkpoint is damaged or was edited")
    record = read_json_object(path, "checkpoint record")
    steps = _counter(record, "timesteps", path, ckpt.timesteps)
    if steps != ckpt.timesteps:
        raise UserError(f"{path}: timesteps: {steps} does not match the {ckpt.timesteps} of its file name; "
                        "the checkpoint is damaged or was edited")
    _counter(record, "n_updates", path, 0)
    return record


def restore_checkpoint(model: Any, ckpt: Checkpoint) -> dict[str, Any]:
    """Load a checkpoint into a freshly built ``model`` (same config): weights, Adam state, counters.

    Reads json and ``weights_only`` tensors only. Files that do not match the checksums recorded at save,
    or tensors that do not fit the model, are a UserError (the run folder is damaged or was edited).
    """
    record = read_checkpoint_record(ckpt)
    for key, path in (("policy_sha256", ckpt.policy_path), ("optim_sha256", ckpt.optim_path)):
        if record.get(key) != _sha256(files.read_bytes(path, MAX_TENSOR_BYTES, "checkpoint file")):
            raise UserError(f"{path}: does not match the checksum recorded in {ckpt.json_path.name} "
                            "(damaged or edited); refusing to resume from it")
    try:
        model.policy.load_state_dict(load_policy_weights(ckpt.policy_path), strict=True)
        model.policy.optimizer.load_state_dict(load_tensors(ckpt.optim_path))
    except (RuntimeError, ValueError, KeyError, TypeError) as exc:
        first = str(exc).strip().splitlines()[0][:200] if str(exc).strip() else type(exc).__name__
        raise UserError(f"{ckpt.json_path.parent}: checkpoint {ckpt.name} does not fit the run's config "
                        f"({first})") from None
    model.num_timesteps = _counter(record, "timesteps", ckpt.json_path, ckpt.timesteps)
    model._n_updates = _counter(record, "n_updates", ckpt.json_path, 0)
    return record


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
