"""Ensemble bundles (``npc-tactics export RUN RUN ... [--half]``): the network is the normalised geometric mean
of the members' masked probabilities, float16 storage halves the file and moves probabilities by ~1e-3 at most,
and members that disagree on what a bundle states once are refused in one line."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from npc_tactics.errors import UserError
from npc_tactics.export.bundle_export import export_bundle
from npc_tactics.export.onnx_export import torch_probabilities
from npc_tactics.policy_io.bundle import read_bundle
from npc_tactics.policy_io.onnx_agent import load_bundle_agent
from npc_tactics.training.config import load_train_config
from npc_tactics.training.train import train
from tests.export.conftest import PRESETS, RANGE_FIGHTS, Exported
from tests.export.test_agreement import visited
from tests.test_cli import run_cli
from tests.training.preset_helpers import TINY

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def second_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Another tiny OSE run of the same preset, another seed: a second member."""
    cfg = load_train_config(PRESETS["ose"]).with_overrides(**(TINY | {"budget.timesteps": 2048, "seed": 7}))
    return train(cfg, tmp_path_factory.mktemp("member") / "ose-seed7", progress=False, config_source="test")


@pytest.fixture(scope="module")
def ensembles(exported: dict[str, Exported], second_run: Path, tmp_path_factory: pytest.TempPathFactory
              ) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("ensembles")
    runs: list[str | Path] = [exported["ose"].run, second_run]
    export_bundle(runs, root / "full", fights=RANGE_FIGHTS)
    export_bundle(runs, root / "half", fights=RANGE_FIGHTS, half=True)
    return {"full": root / "full", "half": root / "half"}


def _geometric_mean(parts: list[np.ndarray]) -> np.ndarray:
    with np.errstate(divide="ignore"):
        logp = np.mean([np.log(p.astype(np.float64)) for p in parts], axis=0)
    out = np.exp(logp - logp.max(axis=1, keepdims=True))
    return out / out.sum(axis=1, keepdims=True)


def test_the_ensemble_is_the_geometric_mean_of_its_members(exported: dict[str, Exported], second_run: Path,
                                                           ensembles: dict[str, Path]) -> None:
    from npc_tactics.agents.policy import load_policy_agent

    vectors, masks, first = visited(exported["ose"].run, 500)
    second = load_policy_agent(second_run)
    members = [torch_probabilities(a.policy, vectors, masks) for a in (first, second)]
    assert not np.allclose(members[0], members[1], atol=1e-3)  # two different networks, or the test is empty
    expected = _geometric_mean(members)
    full = load_bundle_agent(ensembles["full"]).policy.probabilities(vectors, masks)
    np.testing.assert_allclose(full, expected, atol=1e-5)
    assert np.all(full[~masks] == 0.0)
    half = load_bundle_agent(ensembles["half"]).policy.probabilities(vectors, masks)
    assert np.abs(half - full).max() < 2e-3
    assert np.all(half[~masks] == 0.0)
    assert (np.argmax(half, axis=1) == np.argmax(full, axis=1)).mean() > 0.98


def test_the_schema_names_every_member_and_the_storage(exported: dict[str, Exported], second_run: Path,
                                                        ensembles: dict[str, Path]) -> None:
    full, half = read_bundle(ensembles["full"]).schema, read_bundle(ensembles["half"]).schema
    assert [m.run for m in full.training.members] == [exported["ose"].run.name, second_run.name]
    assert [m.seed for m in full.training.members] == [full.training.seed, 7]
    assert (full.onnx.weights, half.onnx.weights) == ("float32", "float16")
    assert read_bundle(exported["ose"].bundle).schema.training.members == []
    full_size = (ensembles["full"] / "policy.onnx").stat().st_size
    assert (ensembles["half"] / "policy.onnx").stat().st_size < 0.6 * full_size


def test_members_that_disagree_are_refused(exported: dict[str, Exported], tmp_path: Path) -> None:
    with pytest.raises(UserError, match="must share their system"):
        export_bundle([exported["ose"].run, exported["runequest"].run], tmp_path / "mixed", fights=1)
    with pytest.raises(UserError, match="named twice"):
        export_bundle([exported["ose"].run, exported["ose"].run], tmp_path / "twice", fights=1)
    assert not (tmp_path / "mixed").exists() and not (tmp_path / "twice").exists()


def test_the_cli_exports_an_ensemble(exported: dict[str, Exported], second_run: Path, tmp_path: Path,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "ens"
    code, stdout, err = run_cli(["export", str(exported["ose"].run), str(second_run), "--out", str(out),
                                 "--fights", "3", "--half"], capsys)
    assert code == 0, err
    assert "ensemble of 2 runs" in stdout
    code, _, err = run_cli(["export", str(exported["ose"].run), str(exported["dicepool"].run), "--out",
                            str(tmp_path / "bad"), "--fights", "3"], capsys)
    assert code == 2 and len(err.strip().splitlines()) == 1 and "must share their system" in err


def test_the_trust_record_says_ensemble(exported: dict[str, Exported], ensembles: dict[str, Path]) -> None:
    from npc_tactics.gm.advice.trust import trust_of

    agent = load_bundle_agent(ensembles["half"])
    trust = trust_of(None, agent, agent.bundle.schema.rules_version if agent.bundle else "")
    assert trust is not None and trust.members == 2 and trust.to_dict()["members"] == 2
    assert trust.lines(lambda s: s)[0] == "an ensemble of 2 trained runs, their odds averaged; the first of them:"
    single = trust_of(None, load_bundle_agent(exported["ose"].bundle), "")
    assert single is not None and single.members == 1 and "ensemble" not in " ".join(single.lines(lambda s: s))


def test_a_bundle_plays_in_a_tournament(ensembles: dict[str, Path], exported: dict[str, Exported], tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    """``evaluate --agents BUNDLE,...``: a bundle (an ensemble here) plays its seat with onnxruntime; its
    system and scenario come from schema.json, and another system's bundle is one line."""
    code, stdout, err = run_cli(["evaluate", "--agents", f"{ensembles['half']},by-the-book", "--fights", "6",
                                 "--out", str(tmp_path / "r"), "--no-progress", "--tactics"], capsys)
    assert code == 0, err
    assert "half (side 0) vs by-the-book" in stdout
    assert (tmp_path / "r" / "results.json").is_file()
    code, _, err = run_cli(["evaluate", "--agents", f"{exported['runequest'].bundle},by-the-book", "--system", "ose",
                            "--fights", "2", "--out", str(tmp_path / "bad"), "--no-progress"], capsys)
    assert code == 2 and len(err.strip().splitlines()) == 1 and "exported for 'runequest'" in err
