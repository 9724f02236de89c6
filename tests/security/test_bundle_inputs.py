"""Hostile bundles are refused with one line naming the file and field, before onnxruntime sees the network:
external data (the canary file beside the server is never opened), NaN weights, another interface, values in
schema.json that are not a side, a scenario name or a finite ordered range, and oversized or deeply nested
JSON. Real files, real onnx / onnxruntime; nothing mocked."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from npc_tactics.policy_io.bundle import BundleError, read_bundle
from npc_tactics.policy_io.card import Card, CardError
from npc_tactics.policy_io.onnx_agent import OnnxPolicy, load_bundle_agent
from tests.security.bundle_helpers import ACTIONS, OBS, OpenWatch, make_bundle, network


def _one_line(exc: pytest.ExceptionInfo[BaseException]) -> str:
    text = str(exc.value)
    assert "\n" not in text and len(text) < 600, text
    return text


@pytest.fixture
def canary(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A 'server secret' in the working directory, where onnxruntime resolves a relative external location."""
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "secret.bin"
    np.arange(OBS * ACTIONS, dtype=np.float32).tofile(path)
    return path


def test_bundle_onnxruntime_really_reads_relative_external_data(canary: Path) -> None:
    """The threat (and the watch) is real: fed such a model, onnxruntime itself opens the file."""
    import onnxruntime as ort

    watch = OpenWatch(canary)
    try:
        ort.InferenceSession(network(external="secret.bin"), providers=["CPUExecutionProvider"])
        assert watch.opened()
    finally:
        watch.close()


@pytest.mark.parametrize("in_subgraph", [False, True], ids=["initializer", "subgraph-constant"])
def test_bundle_external_data_is_refused_and_never_read(canary: Path, tmp_path: Path, in_subgraph: bool) -> None:
    data = network(external="secret.bin", external_in_subgraph=in_subgraph)
    bundle = make_bundle(tmp_path / "b", data)
    watch = OpenWatch(canary)
    try:
        with pytest.raises(BundleError) as exc:
            load_bundle_agent(bundle)
        assert "external file ('secret.bin')" in _one_line(exc) and "policy.onnx" in str(exc.value)
        with pytest.raises(BundleError, match="external file"):
            OnnxPolicy(data)
        assert not watch.opened()
    finally:
        watch.close()


@pytest.mark.parametrize("bad", [np.nan, np.inf])
def test_bundle_non_finite_weights_are_refused(tmp_path: Path, bad: float) -> None:
    weight = np.full((OBS, ACTIONS), 0.01, dtype=np.float32)
    weight[3, 4] = bad
    bundle = make_bundle(tmp_path / "b", network(weight=weight))
    with pytest.raises(BundleError) as exc:
        read_bundle(bundle)
    assert "tensor 'W' has 1 NaN or infinite values" in _one_line(exc)


def test_bundle_a_sane_crafted_network_loads(tmp_path: Path) -> None:
    """The crafted graph itself is fine: only the hostile variations below are refused."""
    agent = load_bundle_agent(make_bundle(tmp_path / "b", network()))
    assert (agent.obs_size, agent.n_actions) == (OBS, ACTIONS)


@pytest.mark.parametrize(("kwargs", "expect"), [
    ({"obs_dims": ["batch", "width"]}, "input 'observation' has a symbolic or unknown width"),
    ({"obs_dims": [OBS]}, "input 'observation' has rank 1"),
    ({"out_name": "logits"}, "outputs are ['logits']; expected one, 'probabilities'"),
    ({"out_width": ACTIONS + 1}, f"has {ACTIONS + 1} values per row, the action mask {ACTIONS}"),
    ({"obs": OBS + 3}, f"takes {OBS + 3} values, schema.json's observation.size says {OBS}"),
], ids=["symbolic", "rank1", "output-name", "output-width", "input-width"])
def test_bundle_another_interface_is_one_line(tmp_path: Path, kwargs: dict[str, Any], expect: str) -> None:
    bundle = make_bundle(tmp_path / "b", network(**kwargs))
    with pytest.raises(BundleError) as exc:
        load_bundle_agent(bundle)
    assert expect in _one_line(exc)


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def edit(schema: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        node: Any = schema
        for key in parents:
            node = node[int(key)] if isinstance(node, list) else node[key]
        node[int(last) if isinstance(node, list) else last] = value

    return edit


@pytest.mark.parametrize(("path", "value", "expect"), [
    ("side", 5, "side: expected a side of ose (0 to 1), got 5"),
    ("scenario", "../../etc/passwd", "scenario: Value error, expected a scenario name"),
    ("scenario", "/etc/passwd", "scenario: Value error, expected a scenario name"),
    ("scenario", "a\\b", "scenario: Value error, expected a scenario name"),
    ("observation.fields.3.min", 1e999, "observation.fields.3.min: expected a finite number"),
    ("options.x", -1e999, "options.x: expected a finite number"),
    ("observation.fields.3.min", 5.0, "observation.fields.3: Value error, observed range of"),
], ids=["side", "scenario-dotdot", "scenario-abs", "scenario-backslash", "inf-min", "inf-option", "inverted"])
def test_bundle_schema_values_are_checked(tmp_path: Path, path: str, value: Any, expect: str) -> None:
    bundle = make_bundle(tmp_path / "b", edit=_set(path, value))
    text = (bundle / "schema.json").read_text()  # json.dumps writes inf as Infinity; 1e999 also parses as inf
    (bundle / "schema.json").write_text(text.replace("-Infinity", "-1e999").replace("Infinity", "1e999"))
    with pytest.raises(BundleError) as exc:
        read_bundle(bundle)
    assert expect in _one_line(exc) and "schema.json" in str(exc.value)


def test_bundle_nan_literal_in_schema_is_refused(tmp_path: Path) -> None:
    bundle = make_bundle(tmp_path / "b")
    text = (bundle / "schema.json").read_text()
    (bundle / "schema.json").write_text(text.replace('"min": 0.0', '"min": NaN', 1))
    with pytest.raises(BundleError) as exc:
        read_bundle(bundle)
    assert "NaN is not a number JSON allows" in _one_line(exc)


@pytest.mark.parametrize("name", ["schema.json", "card.json"])
def test_bundle_deeply_nested_json_is_one_line(tmp_path: Path, name: str) -> None:
    bundle = make_bundle(tmp_path / "b")
    (bundle / name).write_text("[" * 200_000 + "]" * 200_000)
    with pytest.raises((BundleError, CardError)) as exc:
        read_bundle(bundle) if name == "schema.json" else Card.load(bundle)
    assert f"{name}: invalid JSON: nested more than 64 levels deep" in _one_line(exc)


@pytest.mark.parametrize("name", ["schema.json", "card.json", "policy.onnx"])
def test_bundle_huge_files_are_refused_before_reading(tmp_path: Path, name: str) -> None:
    bundle = make_bundle(tmp_path / "b")
    with open(bundle / name, "wb") as fh:  # sparse: 40 MB (100 MB for the network) that were never written
        fh.truncate((100 if name == "policy.onnx" else 40) * 1024 * 1024)
    with pytest.raises((BundleError, CardError)) as exc:
        read_bundle(bundle) if name != "card.json" else Card.load(bundle)
    assert "bytes, larger than the" in _one_line(exc) and name in str(exc.value)


def test_bundle_fifo_schema_does_not_block(tmp_path: Path) -> None:
    bundle = make_bundle(tmp_path / "b")
    (bundle / "schema.json").unlink()
    os.mkfifo(bundle / "schema.json")
    with pytest.raises(BundleError) as exc:
        read_bundle(bundle)
    assert "not a regular file" in _one_line(exc)


def test_bundle_card_json_with_nan_is_refused(tmp_path: Path) -> None:
    bundle = make_bundle(tmp_path / "b")
    (bundle / "card.json").write_text(json.dumps({"format": "x"}).replace('"x"', "Infinity"))
    with pytest.raises(CardError) as exc:
        Card.load(bundle)
    assert "card.json: invalid JSON: Infinity is not a number JSON allows" in _one_line(exc)
