"""benchmarks/rollouts.py keeps running and keeps its --json schema (speed itself is never asserted here)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _run(*args: str) -> dict:  # type: ignore[type-arg]
    proc = subprocess.run([sys.executable, "benchmarks/rollouts.py", *args, "--json"], cwd=ROOT,
                          capture_output=True, text=True, check=True)
    return json.loads(proc.stdout)


def test_scripted_schema() -> None:
    out = _run("--fights", "4", "--ks", "1,4", "--workers", "1,2", "--systems", "ose,dicepool")
    assert set(out["systems"]) == {"ose", "dicepool"}
    for row in out["systems"].values():
        assert set(row["scripted"]) == {"k1_w1", "k1_w2", "k4_w1", "k4_w2"}
        assert all(v > 0 for v in row["scripted"].values())
        assert row["bundle"] is None and row["suggest_odds"] is None


@pytest.mark.integration
def test_bundle_schema(tiny_bundle: Path) -> None:
    out = _run("--fights", "4", "--ks", "4", "--workers", "1", "--systems", "ose", "--odds", "2",
               "--bundle", f"ose={tiny_bundle}")
    row = out["systems"]["ose"]
    assert row["bundle"]["k4_w1"] > 0
    assert row["suggest_odds"]["wall_s"] > 0 and row["suggest_odds"]["rollouts"] == 2 * row["suggest_odds"]["moves"]
