"""``benchmarks/suggest_latency.py`` runs against a real server on tiny bundles and keeps its --json schema (speed
itself is never asserted: this machine's load varies)."""

from __future__ import annotations

import json

import pytest

from tests.gm.service_bundles import build_bundles
from tests.training.preset_helpers import load_benchmark

pytestmark = pytest.mark.integration


def test_latency_benchmark_reports_p50_p95_per_bundle(tmp_path_factory: pytest.TempPathFactory,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    folder = build_bundles(tmp_path_factory.getbasetemp())
    bench = load_benchmark("suggest_latency")
    assert bench.main([str(folder), "--calls", "5", "--odds", "3", "--odds-calls", "1", "--workers", "1",
                       "--json"]) == 0
    results = json.loads(capsys.readouterr().out)["results"]
    assert sorted(r["system"] for r in results) == ["dicepool", "mrq", "ose", "runequest"]
    for r in results:
        n = r["no_odds"]
        assert n["available"] and n["calls"] == 5 and 0 < n["p50_ms"] <= n["p95_ms"] and n["legal_moves"] >= 2
        assert isinstance(n["rolled_out"], bool)
        o = r["odds"]
        assert o["rollouts_per_move"] == 3
        assert (o["p50_ms"] <= o["p95_ms"]) if o["available"] else o["status"] == 422
