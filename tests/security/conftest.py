"""Fixtures of the trust tests: one tiny real OSE training run (shared, read-only: tests copy it), a poison
that leaves a marker file when unpickled, and the CLI run in-process."""

from __future__ import annotations

import base64
import io
import json
import pickle
import shutil
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest

from npc_tactics.training.config import TrainConfig

TINY_OSE = {
    "system": "ose",
    "scenario": "goblin_duel",
    "ppo": {"n_steps": 64, "batch_size": 64, "n_epochs": 1, "net_arch": [16]},
    "budget": {"timesteps": 256, "n_envs": 2, "eval_every": 0, "eval_episodes": 2, "checkpoint_every": 128,
               "keep_checkpoints": 2},
}


class Poison:
    """Unpickling this creates ``marker`` (``open(marker, "w")``): proof that a pickle was executed."""

    def __init__(self, marker: Path) -> None:
        self.marker = str(marker)

    def __reduce__(self) -> tuple[object, tuple[str, str]]:
        return (open, (self.marker, "w"))


def poison_zip(path: Path, marker: Path) -> None:
    """Rewrite an SB3 zip so that its ``data`` member's pickled ``observation_space`` is the poison."""
    with zipfile.ZipFile(path) as zf:
        members = {name: zf.read(name) for name in zf.namelist()}
    data = json.loads(members["data"])
    data["observation_space"][":serialized:"] = base64.b64encode(pickle.dumps(Poison(marker))).decode()
    members["data"] = json.dumps(data).encode()
    with zipfile.ZipFile(path, "w") as zf:
        for name, blob in members.items():
            zf.writestr(name, blob)


def poison_tensor_file(path: Path, marker: Path) -> None:
    """Replace a ``.pt`` file with a ``torch.save`` of the poison (a pickle that is not plain tensors)."""
    import torch

    buf = io.BytesIO()
    torch.save({"weights": Poison(marker)}, buf)
    path.write_bytes(buf.getvalue())


@pytest.fixture(scope="session")
def ose_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished tiny OSE run (policy.pt, model.zip, two checkpoints). Copy it before changing anything."""
    from npc_tactics.training.train import train

    out = tmp_path_factory.mktemp("trust") / "ose_run"
    return train(TrainConfig.model_validate(TINY_OSE), out, progress=False, config_source="tiny")


@pytest.fixture
def run_copy(ose_run: Path, tmp_path: Path) -> Callable[[str], Path]:
    def copy(name: str = "run") -> Path:
        dest = tmp_path / name
        shutil.copytree(ose_run, dest)
        return dest

    return copy


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]) -> Callable[..., tuple[int, str, str]]:
    """Run ``npc-tactics ARGS`` in-process; returns (exit code, stdout, stderr)."""
    from npc_tactics.cli.main import main

    def run(*args: str) -> tuple[int, str, str]:
        capsys.readouterr()
        try:
            main([str(a) for a in args])
            code = 0
        except SystemExit as exc:
            code = int(exc.code or 0)
        out, err = capsys.readouterr()
        return code, out, err

    return run
