"""The bundle exported from an RLlib run gives the RLlib module's own masked probabilities, to 1e-5, on
observations visited in real fights, for every system (the RLlib counterpart of tests/export/test_agreement.py:
here the reference is the module RLlib restores from its checkpoint, not the converted SB3 policy)."""

from __future__ import annotations

import numpy as np
import pytest

from npc_tactics.runs import RunDir
from tests.export.test_agreement import TOLERANCE, visited
from tests.ray.conftest import PRESETS, RllibRun

# a Ray hang (a second local Ray instance on the machine was seen to stall actor creation) fails, never blocks CI
pytestmark = pytest.mark.integration  # time limit and rerun: conftest.py

MIN_OBSERVATIONS = 300


@pytest.mark.parametrize("system", list(PRESETS))
def test_onnx_matches_the_rllib_module(rllib_runs: dict[str, RllibRun], system: str) -> None:
    from ray.rllib.core.rl_module.rl_module import RLModule

    from npc_tactics.policy_io.onnx_agent import load_bundle_agent
    from npc_tactics.training.rllib.env import POLICY_ID
    from npc_tactics.training.rllib.module import MaskedPPOModule, masked_probabilities

    case = rllib_runs[system]
    (ckpt,) = RunDir(case.run).checkpoints()
    module = RLModule.from_checkpoint(ckpt.rllib_path / "learner_group" / "learner" / "rl_module" / POLICY_ID)
    assert isinstance(module, MaskedPPOModule)
    obs, masks, _ = visited(case.run, MIN_OBSERVATIONS)
    reference = masked_probabilities(module, obs, masks)
    got = load_bundle_agent(case.bundle).policy.probabilities(obs, masks)
    assert got.shape == reference.shape
    assert (masks.sum(axis=1) > 1).mean() > 0.5  # real choices, not forced moves
    assert np.abs(got - reference).max() < TOLERANCE
    assert np.all(reference[~masks] == 0.0) and np.all(got[~masks] < 1e-12)
