"""Trained agents in a suite (integration: a tiny real MaskablePPO run and the ONNX bundle exported from it):
they play only the side they learned, worker processes load them themselves, and the report data is the same
for 1 and 2 workers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from npc_tactics.leaderboard import run_leaderboard


@pytest.fixture(scope="module")
def bundle(trained_run: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    from npc_tactics.export.bundle_export import export_bundle

    out = tmp_path_factory.mktemp("lb") / "goblin-bundle"
    export_bundle(trained_run, out, fights=10, seed=0)
    return out


@pytest.mark.integration
def test_run_folder_and_bundle_in_a_suite(trained_run: Path, bundle: Path, tmp_path: Path) -> None:
    suite = tmp_path / "suite.yaml"
    suite.write_text(yaml.safe_dump({"system": "ose", "scenarios": ["goblin_duel"], "fights": 3,
                                     "agents": ["by-the-book", "aggressive", str(trained_run), str(bundle)]}))
    one = run_leaderboard(suite, tmp_path / "one", workers=1, progress=False, plots=False)
    two = run_leaderboard(suite, tmp_path / "two", workers=2, progress=False, plots=False)
    assert two.workers == 2
    assert (tmp_path / "one" / "results.json").read_bytes() == (tmp_path / "two" / "results.json").read_bytes()
    section = one.data["sections"][0]
    run_label, bundle_label = trained_run.name, bundle.name
    # the two scripts play both seats against each other and side 1 against the two policies (side 0 only)
    assert sorted(map(tuple, section["pairings"])) == sorted([
        ("by-the-book", "aggressive"), ("aggressive", "by-the-book"),
        (run_label, "by-the-book"), (run_label, "aggressive"),
        (bundle_label, "by-the-book"), (bundle_label, "aggressive")])
    rows = {r["agent"]: r for r in section["leaderboard"]}
    assert set(rows[run_label]["ratings"]) == {"side0"} and rows[run_label]["fights"] == 2 * 3
    data = json.loads((tmp_path / "one" / "results.json").read_text())
    assert data["fights"] == 6 * 3
