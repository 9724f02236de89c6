"""benchmarks/builder_targets.py keeps running and keeps its report's shape (speed is never asserted here)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_builder_targets_runs_and_writes_its_report(tmp_path: Path) -> None:
    out = tmp_path / "report.json"
    proc = subprocess.run([sys.executable, "benchmarks/builder_targets.py", "--systems", "dicepool", "--parties", "2",
                           "--budget", "200", "--targets", "win=0.7", "--odds-fights", "20", "--validate", "20",
                           "--workers", "1", "--out", str(out)], cwd=ROOT, capture_output=True, text=True, check=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert "| dicepool | `win=0.7` |" in proc.stdout
    report = json.loads(out.read_text())
    row = report["systems"]["dicepool"]["targets"]["win=0.7"]
    assert len(row["runs"]) == 2 and len(set(report["systems"]["dicepool"]["parties"])) == 2
    assert 0 <= row["distance"]["median"] <= row["distance"]["max"]
    assert row["meets"] <= 2
