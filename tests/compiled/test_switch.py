"""The pure/compiled switch: NPC_TACTICS_PURE=1 really loads the sources, the notice is one line once per process,
a stale or failed build falls back to pure Python, and ``systems --json`` says which engines run."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from npc_tactics import compiled
from npc_tactics.compiled import COMPILED_MODULES, PURE_ENV, status
from tests.cli_helpers import run_cli

ROOT = Path(__file__).resolve().parents[2]
BUILT = status()["engines"] == "compiled"

PROBE = """
import json, sys
import numpy as np
from npc_tactics.compiled import status
from npc_tactics.dice import RngRoller
from npc_tactics.registry import get_system
import npc_tactics.rules.base as base
import npc_tactics.encoders.base as encoders
info = get_system("ose")
engine = info.load("engine")()
scenario = info.load("content").load_scenario(info.default_scenario)
for seed in range(2):  # two fights: the notice comes once
    engine.new_combat(scenario, RngRoller(np.random.default_rng(seed)))
print(json.dumps({"status": status(), "base": base.__file__, "encoders": encoders.__file__}))
"""


def probe(**env: str) -> tuple[dict, str]:  # type: ignore[type-arg]
    full = {k: v for k, v in os.environ.items() if k != PURE_ENV}
    proc = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env={**full, "PYTHONPATH": str(ROOT), **env},
                          capture_output=True, text=True, check=True)
    return json.loads(proc.stdout), proc.stderr


def test_pure_env_loads_the_sources_and_says_so_once() -> None:
    out, err = probe(**{PURE_ENV: "1"})
    assert out["status"]["engines"] == "pure" and out["status"]["compiled_modules"] == []
    assert out["base"].endswith("base.py") and out["encoders"].endswith("base.py")
    assert err.splitlines() == [f"npc-tactics: running the pure-Python engines: {PURE_ENV}=1"]


@pytest.mark.skipif(not BUILT, reason="the compiled engines are not built here (make install builds them)")
def test_a_built_tree_runs_compiled_and_silently() -> None:
    out, err = probe()
    assert out["status"]["engines"] == "compiled"
    assert out["status"]["compiled_modules"] == list(COMPILED_MODULES)
    assert not out["base"].endswith(".py") and not out["encoders"].endswith(".py")
    assert err == ""


def test_systems_json_reports_the_engines(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(["systems", "--json"], capsys)
    data = json.loads(out)
    assert code == 0 and data["engines"] == status()["engines"]
    assert data["compiled_modules"] == status()["compiled_modules"]


def test_the_manifest_decides(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(PURE_ENV, raising=False)
    manifest = tmp_path / "_compiled.json"
    monkeypatch.setattr(compiled, "MANIFEST", manifest)
    assert compiled._fallback_reason() is None  # never built: nothing to avoid, nothing to say
    manifest.write_text(json.dumps({"compiled": False, "reason": "no C compiler"}))
    assert "no C compiler" in (compiled._fallback_reason() or "")
    sources = compiled.source_digest()
    manifest.write_text(json.dumps({"compiled": True, "sources": sources}))
    assert compiled._fallback_reason() is None
    stale = {**sources, "npc_tactics.rules.base": "0" * 64}
    manifest.write_text(json.dumps({"compiled": True, "sources": stale}))
    assert "changed since the build" in (compiled._fallback_reason() or "")
    monkeypatch.setenv(PURE_ENV, "1")
    assert compiled._fallback_reason() == f"{PURE_ENV}=1"


@pytest.mark.integration
def test_no_c_compiler_still_installs_pure_and_says_why(tmp_path: Path) -> None:
    """A build whose C compiler fails (``CC=false``) succeeds pure, records why, and a fight then notices it."""
    import shutil

    ignore = shutil.ignore_patterns("*.so", "__pycache__", "_compiled.json")
    shutil.copytree(ROOT / "npc_tactics", tmp_path / "npc_tactics", ignore=ignore)
    for name in ("setup.py", "pyproject.toml"):
        shutil.copy(ROOT / name, tmp_path / name)
    env = {k: v for k, v in os.environ.items() if k != PURE_ENV}
    build = subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace"], cwd=tmp_path,
                           env={**env, "CC": "false", "LDSHARED": "false"}, capture_output=True, text=True)
    assert build.returncode == 0, build.stderr[-3000:]
    manifest = json.loads((tmp_path / "npc_tactics" / "_compiled.json").read_text())
    assert manifest["compiled"] is False and "C build failed" in manifest["reason"]
    assert not list((tmp_path / "npc_tactics").rglob("*.so"))
    proc = subprocess.run([sys.executable, "-c", PROBE], cwd=tmp_path, env={**env, "PYTHONPATH": str(tmp_path)},
                          capture_output=True, text=True, check=True)
    assert json.loads(proc.stdout)["status"]["engines"] == "pure"
    assert len(proc.stderr.splitlines()) == 1 and "did not compile them" in proc.stderr
