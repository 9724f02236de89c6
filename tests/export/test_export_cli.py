"""``npc-tactics export`` and ``suggest --bundle``: the happy path and one-line errors with exit code 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from npc_tactics.policy_io.bundle import ONNX_FILE
from tests.export.conftest import Exported
from tests.test_cli import run_cli

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]
SITUATION = str(ROOT / "examples" / "ose_situation.yaml")


def test_export_then_suggest_from_the_bundle(exported: dict[str, Exported], tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    run, out = exported["ose"].run, tmp_path / "bundles" / "demo"
    code, stdout, err = run_cli(["export", str(run), "--out", str(out), "--fights", "5"], capsys)
    assert code == 0, err
    assert f"bundle: {out}" in stdout and "from 5 fights" in stdout
    assert sorted(p.name for p in out.iterdir()) == ["policy.onnx", "schema.json"]

    code, _, err = run_cli(["export", str(run), "--out", str(out), "--fights", "5"], capsys)
    assert code == 2 and err.strip().endswith("already exists; pass --force to replace it")
    assert len(err.strip().splitlines()) == 1
    code, _, err = run_cli(["export", str(run), "--out", str(out), "--fights", "5", "--force"], capsys)
    assert code == 0, err

    code, stdout, err = run_cli(["suggest", "--bundle", str(out), "--situation", SITUATION, "--json"], capsys)
    assert code == 0, err
    from_bundle = json.loads(stdout)
    code, stdout, _ = run_cli(["suggest", "--run", str(run), "--situation", SITUATION, "--json"], capsys)
    from_run = json.loads(stdout)
    assert {m["action"]: m["probability"] for m in from_bundle["moves"]} == pytest.approx(
        {m["action"]: m["probability"] for m in from_run["moves"]}, abs=1e-4)


def test_cli_errors_are_one_line(exported: dict[str, Exported], tmp_path: Path,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    bundle = exported["ose"].bundle
    cases = [
        (["suggest", "--situation", SITUATION], "exactly one of --run RUN_DIR or --bundle BUNDLE_DIR"),
        (["suggest", "--run", str(exported["ose"].run), "--bundle", str(bundle), "--situation", SITUATION],
         "exactly one of"),
        (["suggest", "--bundle", str(tmp_path / "nothing"), "--situation", SITUATION], "bundle folder not found"),
        (["export", str(tmp_path / "norun"), "--out", str(tmp_path / "b")], "run dir not found"),
        (["export", str(bundle), "--out", str(tmp_path / "b")], "an exported bundle, not a training run"),
    ]
    damaged = tmp_path / "damaged"
    damaged.mkdir()
    for f in bundle.iterdir():
        (damaged / f.name).write_bytes(f.read_bytes())
    (damaged / ONNX_FILE).write_bytes((damaged / ONNX_FILE).read_bytes() + b"\0")
    cases.append((["suggest", "--bundle", str(damaged), "--situation", SITUATION], "re-export the bundle"))
    for args, fragment in cases:
        code, _, err = run_cli(args, capsys)
        assert code == 2, (args, err)
        assert fragment in err and len(err.strip().splitlines()) == 1, (args, err)
