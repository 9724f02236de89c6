"""Reading a bundle refuses what would make the network wrong (damaged ONNX, other catalogue or observation
size, unknown system, malformed schema) and flags what makes its advice doubtful (other rules version or field
names); writing is atomic and never clobbers a folder that is not a bundle."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from npc_tactics.export.bundle_export import export_bundle
from npc_tactics.policy_io.bundle import (
    ONNX_FILE,
    SCHEMA_FILE,
    BundleError,
    BundleSchema,
    check_against_package,
    read_bundle,
    write_bundle,
)
from npc_tactics.policy_io.onnx_agent import OnnxAgent, load_bundle_agent
from tests.export.conftest import Exported

pytestmark = pytest.mark.integration


@pytest.fixture
def bundle(exported: dict[str, Exported], tmp_path: Path) -> Path:
    copy = tmp_path / "bundle"
    shutil.copytree(exported["ose"].bundle, copy)
    return copy


def edit_schema(path: Path, change: Any) -> None:
    data = json.loads((path / SCHEMA_FILE).read_text())
    change(data)
    (path / SCHEMA_FILE).write_text(json.dumps(data))


def test_a_fresh_bundle_reads_without_warnings(bundle: Path) -> None:
    b = read_bundle(bundle)
    assert b.warnings == []
    assert (b.schema.system, b.schema.scenario, b.schema.side) == ("ose", "goblin_duel", 0)
    assert b.schema.training.opponents == ["by-the-book", "aggressive", "cautious"]
    assert b.schema.training.timesteps == 2048
    fields = b.schema.observation.fields
    assert len(fields) == b.schema.observation.size and all(f.min <= f.max for f in fields)
    assert fields[0].name == "decision.declare"
    assert "30 fights" in b.schema.observation.observed_range_source


def test_a_changed_onnx_file_is_refused(bundle: Path) -> None:
    data = bytearray((bundle / ONNX_FILE).read_bytes())
    data[-5] ^= 0xFF
    (bundle / ONNX_FILE).write_bytes(bytes(data))
    with pytest.raises(BundleError, match="sha256 .* does not match"):
        read_bundle(bundle)


@pytest.mark.parametrize("missing", [ONNX_FILE, SCHEMA_FILE])
def test_a_missing_file_is_named(bundle: Path, missing: str) -> None:
    (bundle / missing).unlink()
    with pytest.raises(BundleError, match=f"not a policy bundle \\({missing} is missing\\)"):
        read_bundle(bundle)


def test_malformed_schemas_name_the_problem(bundle: Path) -> None:
    edit_schema(bundle, lambda d: d.pop("side"))
    with pytest.raises(BundleError, match="schema.json: side: Field required"):
        read_bundle(bundle)
    edit_schema(bundle, lambda d: d.update(side=0, format="npc-tactics-bundle/9"))
    with pytest.raises(BundleError, match="format 'npc-tactics-bundle/9'"):
        read_bundle(bundle)
    (bundle / SCHEMA_FILE).write_text("{not json")
    with pytest.raises(BundleError, match="schema.json: line 1, column 2: invalid JSON"):
        read_bundle(bundle)


def test_another_rules_version_is_flagged_and_strict_refuses_it(bundle: Path) -> None:
    edit_schema(bundle, lambda d: d.update(rules_version="0.0.1"))
    agent = load_bundle_agent(bundle)
    assert len(agent.warnings) == 1 and "ose rules 0.0.1, installed rules are" in agent.warnings[0]
    with pytest.raises(BundleError, match="trained under ose rules 0.0.1"):
        read_bundle(bundle, strict=True)


def test_renamed_observation_fields_are_flagged(bundle: Path) -> None:
    edit_schema(bundle, lambda d: d["observation"]["fields"][7].update(name="context.something_else"))
    assert "observation field 7 is 'context.something_else'" in read_bundle(bundle).warnings[0]


def test_the_observation_section_is_the_encoders_declaration(exported: dict[str, Exported]) -> None:
    from npc_tactics.registry import get_system

    for system, case in exported.items():
        obs = read_bundle(case.bundle).schema.observation
        info = get_system(system)
        layout = info.load("encoder")(info.load("engine")()).schema()
        assert [(f.name, f.description, f.unit, f.scale) for f in obs.fields] == [
            (f["name"], f["description"], f["unit"], f["scale"]) for f in layout["fields"]]
        assert (obs.decision_kinds, obs.slots, obs.block_start, obs.block_size) == (
            layout["decision_kinds"], layout["slots"], layout["block_start"], layout["block_size"])


def test_a_rescaled_observation_field_is_flagged(bundle: Path) -> None:
    edit_schema(bundle, lambda d: d["observation"]["fields"][19].update(scale=31.0))
    warning = read_bundle(bundle).warnings[0]
    assert "observation field 19 (self.max_hp) is divided by 31 in the bundle but by 30" in warning


def test_a_bundle_without_declared_units_still_reads(bundle: Path) -> None:
    """Bundles written before the encoders declared unit, scale and layout: names are still compared."""
    def strip(d: dict[str, Any]) -> None:
        for key in ("value", "decision_kinds", "slots", "context_start", "block_start", "block_size"):
            del d["observation"][key]
        for f in d["observation"]["fields"]:
            del f["unit"], f["scale"]

    edit_schema(bundle, strip)
    assert read_bundle(bundle).warnings == []


def test_another_observation_size_is_refused(bundle: Path) -> None:
    def grow(d: dict[str, Any]) -> None:
        d["observation"]["size"] += 1
        d["observation"]["fields"].append({"name": "extra", "min": 0.0, "max": 0.0})

    n = int(json.loads((bundle / SCHEMA_FILE).read_text())["observation"]["size"])
    edit_schema(bundle, grow)
    with pytest.raises(BundleError, match=rf"input 'observation' takes {n} values, schema.json's observation.size "
                       rf"says {n + 1}"):
        read_bundle(bundle)  # the network disagrees with its own schema: found before the package is asked
    schema = BundleSchema.model_validate(json.loads((bundle / SCHEMA_FILE).read_text()))
    with pytest.raises(BundleError, match=rf"expects {n + 1} observation values, the installed ose encoder makes {n}"):
        check_against_package(schema, where=str(bundle))


def test_another_action_catalogue_is_refused(bundle: Path) -> None:
    edit_schema(bundle, lambda d: d["actions"].__setitem__(3, "cast:fireball:enemy_0"))
    with pytest.raises(BundleError, match="action catalogue .* from entry 3"):
        read_bundle(bundle)


def test_an_unknown_system_lists_the_installed_ones(bundle: Path) -> None:
    edit_schema(bundle, lambda d: d.update(system="gurps"))
    with pytest.raises(BundleError, match="system 'gurps' is not installed .*dicepool, mrq, ose, runequest"):
        read_bundle(bundle)


def test_out_of_range_names_the_features(bundle: Path) -> None:
    agent = load_bundle_agent(bundle)
    fields = agent.bundle.schema.observation.fields  # type: ignore[union-attr]
    inside = np.array([f.min for f in fields], dtype=np.float32)
    assert agent.out_of_range(inside) == []
    k = next(i for i, f in enumerate(fields) if f.max < 1.0)
    outside = inside.copy()
    outside[k] = 1.0
    assert agent.out_of_range(outside) == [(fields[k].name, 1.0, fields[k].min, fields[k].max)]


def test_write_refuses_to_clobber_and_is_atomic(bundle: Path, tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    b = read_bundle(bundle)
    with pytest.raises(BundleError, match="already exists; pass --force"):
        write_bundle(bundle, b.schema, b.onnx_bytes)
    other = tmp_path / "notes"
    other.mkdir()
    (other / "todo.txt").write_text("keep me")
    with pytest.raises(BundleError, match="not part of a bundle"):
        write_bundle(other, b.schema, b.onnx_bytes, force=True)
    assert (other / "todo.txt").read_text() == "keep me"
    with pytest.raises(BundleError, match="does not match the ONNX bytes"):
        write_bundle(tmp_path / "new", b.schema, b.onnx_bytes + b"x")

    from npc_tactics.policy_io import bundle_fs

    real_exchange = bundle_fs._exchange

    def failing_exchange(src: Path, dst: Path) -> bool:
        if Path(dst) == bundle:
            raise OSError(28, "No space left on device")
        return real_exchange(src, dst)

    before = (bundle / SCHEMA_FILE).read_bytes()
    monkeypatch.setattr(bundle_fs, "_exchange", failing_exchange)
    with pytest.raises(BundleError, match="cannot put the new bundle in place .No space left on device"):
        write_bundle(bundle, b.schema, b.onnx_bytes, force=True)
    monkeypatch.undo()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bundle", "notes"]  # no temp or backup folder left
    assert (bundle / SCHEMA_FILE).read_bytes() == before  # the previous bundle is still in place
    read_bundle(bundle)


def test_the_observed_range_is_reproducible(exported: dict[str, Exported], tmp_path: Path) -> None:
    case = exported["mrq"]
    again = export_bundle(case.run, tmp_path / "again", fights=30, seed=0).bundle
    first = read_bundle(case.bundle)
    assert [f.model_dump() for f in again.schema.observation.fields] == [
        f.model_dump() for f in first.schema.observation.fields]
    assert again.schema.onnx.sha256 == first.schema.onnx.sha256
    other = export_bundle(case.run, tmp_path / "other", fights=5, seed=1000).bundle
    assert "5 fights (seeds 1000..1004)" in other.schema.observation.observed_range_source
    assert isinstance(OnnxAgent.from_bundle(other), OnnxAgent)
