"""Issue 8 §1: a shared run folder never runs code. A poisoned ``model.zip`` (its pickled ``data`` field
creates a marker file when unpickled) goes through every entry point that loads a policy; the marker must
never appear. The first test proves the poison works, so the others would fail on code that unpickles."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import TINY_OSE, poison_tensor_file, poison_zip

from npc_tactics.errors import UserError
from npc_tactics.runs import RunDir

pytestmark = pytest.mark.integration

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
PACKAGE = Path(__file__).resolve().parents[2] / "npc_tactics"


def poisoned_run(run_copy: Callable[[str], Path], tmp_path: Path, name: str = "shared") -> tuple[Path, Path]:
    """A copy of the tiny run whose model.zip and (old-format) checkpoint zips carry the poison."""
    run = run_copy(name)
    marker = tmp_path / "PWNED"
    poison_zip(run / "model.zip", marker)
    for ckpt in RunDir(run).checkpoints():  # zips next to the tensors, as an older npc-tactics wrote them
        legacy = ckpt.json_path.with_suffix(".zip")
        legacy.write_bytes((run / "model.zip").read_bytes())
    return run, marker


def test_the_poison_runs_when_unpickled(run_copy: Callable[[str], Path], tmp_path: Path) -> None:
    from sb3_contrib import MaskablePPO

    run, marker = poisoned_run(run_copy, tmp_path)
    try:
        MaskablePPO.load(run / "model.zip", device="cpu")
    except Exception:  # noqa: BLE001  (the poisoned field breaks the load after running)
        pass
    assert marker.exists(), "the poisoned zip must execute code when unpickled, or the tests below prove nothing"


def test_python_api_and_suggest_do_not_unpickle(run_copy: Callable[[str], Path], tmp_path: Path) -> None:
    from npc_tactics.agents.policy import load_policy_agent
    from npc_tactics.gm.advice.suggest import suggest

    run, marker = poisoned_run(run_copy, tmp_path)
    agent = load_policy_agent(run)
    assert agent.checkpoint == run / "policy.pt" and agent.system == "ose"
    assert load_policy_agent(run, checkpoint=128).checkpoint.name == "ckpt_000000128.policy.pt"
    result = suggest(run, EXAMPLES / "ose_situation.yaml")
    assert result.moves and not marker.exists()


def test_cli_suggest_and_evaluate_do_not_unpickle(run_copy: Callable[[str], Path], tmp_path: Path,
                                                  cli: Callable[..., tuple[int, str, str]]) -> None:
    run, marker = poisoned_run(run_copy, tmp_path)
    code, out, err = cli("suggest", "--run", run, "--situation", EXAMPLES / "ose_situation.yaml")
    assert code == 0, err
    assert "Snikkit" in out
    code, out, err = cli("evaluate", "--agents", f"{run},by-the-book", "--fights", "2", "--out", tmp_path / "rep",
                         "--no-progress")
    assert code == 0, err
    assert not marker.exists()


def test_training_opponent_and_resume_do_not_unpickle(run_copy: Callable[[str], Path], tmp_path: Path,
                                                      cli: Callable[..., tuple[int, str, str]]) -> None:
    run, marker = poisoned_run(run_copy, tmp_path)
    config = dict(TINY_OSE, opponents=[str(run), "by-the-book"],
                  budget=dict(TINY_OSE["budget"], timesteps=128, checkpoint_every=0))
    path = tmp_path / "vs_shared.yaml"
    path.write_text(json.dumps(config))  # JSON is YAML
    code, _, err = cli("train", path, "--out", tmp_path / "new", "--no-progress")
    assert code == 0, err
    # resuming the shared run itself: its tensors are plain state dicts, the poisoned zips are never read
    code, _, err = cli("train", "ose_goblin_duel", "--out", run, "--resume", "--timesteps", "384", "--no-progress",
                       "--force")
    assert code == 0, err
    assert json.loads((run / "meta.json").read_text())["timesteps"] == 384
    assert not marker.exists()


def test_poisoned_weights_are_refused(run_copy: Callable[[str], Path], tmp_path: Path,
                                      cli: Callable[..., tuple[int, str, str]]) -> None:
    from npc_tactics.agents.policy import load_policy_agent

    run, marker = poisoned_run(run_copy, tmp_path)
    poison_tensor_file(run / "policy.pt", marker)
    with pytest.raises(UserError, match="not a plain tensor file, refused"):
        load_policy_agent(run)
    code, _, err = cli("suggest", "--run", run, "--situation", EXAMPLES / "ose_situation.yaml")
    assert code == 2 and "not a plain tensor file" in err and len(err.strip().splitlines()) == 1
    assert not marker.exists()


def test_resume_refuses_a_tampered_folder(run_copy: Callable[[str], Path], tmp_path: Path,
                                          cli: Callable[..., tuple[int, str, str]]) -> None:
    """The optimizer state of the latest checkpoint swapped for a pickle, its checksum recomputed too
    (a crafted folder can do that): refused by ``weights_only``, nothing executed, exit 2."""
    import hashlib

    run, marker = poisoned_run(run_copy, tmp_path)
    ckpt = RunDir(run).checkpoints()[-1]
    poison_tensor_file(ckpt.optim_path, marker)
    record = json.loads(ckpt.json_path.read_text())
    record["optim_sha256"] = hashlib.sha256(ckpt.optim_path.read_bytes()).hexdigest()
    ckpt.json_path.write_text(json.dumps(record))
    code, _, err = cli("train", "ose_goblin_duel", "--out", run, "--resume", "--timesteps", "384", "--no-progress",
                       "--force")
    assert code == 2 and "not a plain tensor file, refused" in err, err
    assert not marker.exists()
    # only the checksum left stale: refused as damaged
    record["optim_sha256"] = "0" * 64
    ckpt.json_path.write_text(json.dumps(record))
    code, _, err = cli("train", "ose_goblin_duel", "--out", run, "--resume", "--timesteps", "384", "--no-progress",
                       "--force")
    assert code == 2 and "does not match the checksum" in err, err


def test_old_folders_without_weights_are_refused_not_unpickled(run_copy: Callable[[str], Path], tmp_path: Path,
                                                               cli: Callable[..., tuple[int, str, str]]) -> None:
    run, marker = poisoned_run(run_copy, tmp_path)
    (run / "policy.pt").unlink()
    for ckpt in RunDir(run).checkpoints():
        ckpt.policy_path.unlink()
        ckpt.optim_path.unlink()
    code, _, err = cli("suggest", "--run", run, "--situation", EXAMPLES / "ose_situation.yaml")
    assert code == 2 and "npc_tactics.training.legacy" in err, err
    code, _, err = cli("evaluate", "--agents", f"{run},by-the-book", "--fights", "2", "--out", tmp_path / "rep",
                       "--no-progress")
    assert code == 2 and "no policy weights file" in err, err
    code, _, err = cli("train", "ose_goblin_duel", "--out", run, "--resume", "--no-progress", "--force")
    assert code == 2 and "no policy weights file" in err, err
    assert not marker.exists()


UNPICKLING = re.compile(
    r"MaskablePPO\.load|PPO\.load|pickle\.loads?\(|cloudpickle\.|torch\.load\((?![^)]*weights_only=True)"
)


def test_no_unpickling_call_in_the_package() -> None:
    """Only the explicit, opt-in converter of old runs may unpickle (it says so in its docstring)."""
    allowed = {PACKAGE / "training" / "legacy.py"}
    found = [f"{p.relative_to(PACKAGE)}:{i}" for p in sorted(PACKAGE.rglob("*.py")) if p not in allowed
             for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if UNPICKLING.search(line)]
    assert found == []
