"""``benchmarks/policy_latency.py`` keeps running on a run folder and keeps its --json schema (speed itself is
never asserted)."""

from __future__ import annotations

import json

import pytest

from tests.export.conftest import Exported
from tests.training.preset_helpers import load_benchmark

pytestmark = pytest.mark.integration


def test_latency_benchmark_reports_both_runtimes_and_sizes(exported: dict[str, Exported],
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    bench = load_benchmark("policy_latency")
    assert bench.main([str(exported["dicepool"].run), "--calls", "20", "--json"]) == 0
    (result,) = json.loads(capsys.readouterr().out)["results"]
    assert result["system"] == "dicepool"
    assert set(result["latency"]) == {"onnxruntime_session", "onnx_agent_probabilities", "sb3_predict",
                                      "sb3_agent_probabilities"}
    assert all(v["p50_us"] > 0 and v["p95_us"] >= v["p50_us"] for v in result["latency"].values())
    sizes = result["bundle_bytes"]
    assert sizes["total"] == sizes["policy.onnx"] + sizes["schema.json"] > 0
