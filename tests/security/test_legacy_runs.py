"""Old run folders (policy only in SB3 zips): refused by every loader, convertible on explicit request."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from npc_tactics.runs import RunDir

pytestmark = pytest.mark.integration


def make_legacy(run: Path) -> None:
    """Turn a fresh run into what the previous npc-tactics wrote: model.zip and ckpt_<steps>.zip + json."""
    (run / "policy.pt").unlink()
    ckpts = RunDir(run).checkpoints()
    for ckpt in ckpts:
        ckpt.policy_path.unlink()
        ckpt.optim_path.unlink()
    for ckpt in ckpts[:-1]:
        ckpt.json_path.unlink()
    last = ckpts[-1]
    shutil.copyfile(run / "model.zip", last.json_path.with_suffix(".zip"))
    last.json_path.write_text(json.dumps({"seed": 0, "timesteps": last.timesteps}))


def test_convert_a_trusted_old_run(ose_run: Path, run_copy: Callable[[str], Path],
                                   cli: Callable[..., tuple[int, str, str]]) -> None:
    from npc_tactics.agents.policy import load_policy_agent
    from npc_tactics.training.legacy import main

    run = run_copy("old")
    make_legacy(run)
    assert RunDir(run).checkpoints() == [] and RunDir(run).legacy_checkpoints()
    assert main([str(run)]) == 0
    assert [c.timesteps for c in RunDir(run).checkpoints()] == [256]
    original, converted = load_policy_agent(ose_run), load_policy_agent(run)
    vec = np.random.default_rng(0).uniform(-1, 1, original.obs_size).astype(np.float32)
    mask = np.ones(original.n_actions, dtype=bool)
    assert np.allclose(original.action_probabilities(vec, mask), converted.action_probabilities(vec, mask))
    code, _, err = cli("train", "ose_goblin_duel", "--out", run, "--resume", "--force", "--timesteps", "384",
                       "--no-progress")
    assert code == 0, err
    assert main([str(run)]) == 0  # nothing left to convert: says so, changes nothing
