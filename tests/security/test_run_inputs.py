"""Issue 30 (trust, third pass) for run folders: every damaged or crafted file that ``train --resume``,
``suggest --run`` or a policy load reads is one line on stderr naming the file, exit code 2, and a refused
resume leaves the run folder as it was. Real run folders (the tiny OSE run of ``conftest.py``), real CLI."""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest

pytestmark = pytest.mark.integration

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
Cli = Callable[..., tuple[int, str, str]]
PURE_NOTICE = "npc-tactics: running the pure-Python engines"


def error_line(err: str) -> str:
    """The one line the CLI printed (the pure-engines notice of a test run aside)."""
    lines = [ln for ln in err.strip().splitlines() if not ln.startswith(PURE_NOTICE)]
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


def last_checkpoint(run: Path) -> Path:
    return sorted((run / "checkpoints").glob("ckpt_*.json"))[-1]


def edit_record(path: Path, **changes: object) -> None:
    record = json.loads(path.read_text())
    record.update(changes)
    path.write_text(json.dumps(record))


def resume(cli: Cli, run: Path) -> tuple[int, str]:
    code, _, err = cli("train", run / "config.yaml", "--resume", "--out", run, "--timesteps", "512", "--no-progress")
    return code, err


def snapshot(run: Path) -> dict[str, bytes]:
    return {str(p.relative_to(run)): p.read_bytes() for p in sorted(run.rglob("*")) if p.is_file()}


def rename_checkpoint(record: Path, steps: int) -> None:
    """Rename a checkpoint's three files as if it were taken at ``steps`` (the count comes from the name)."""
    for suffix in (".policy.pt", ".optim.pt", ".json"):
        record.with_name(record.stem + suffix).rename(record.with_name(f"ckpt_{steps}{suffix}"))


BAD_RECORDS: dict[str, tuple[Callable[[Path], object], str]] = {
    "garbage": (lambda p: p.write_text("{garbage"), "invalid JSON"),
    "deep": (lambda p: p.write_text("[" * 100_000 + "]" * 100_000), "nested more than 64 levels deep"),
    "nan": (lambda p: p.write_text(p.read_text().replace('"n_updates": ', '"n_updates": NaN, "x": ')),
            "NaN is not a number JSON allows"),
    "overflow": (lambda p: p.write_text(p.read_text().replace('"n_updates": ', '"n_updates": 1e999, "x": ')),
                 "n_updates: expected a whole number from 0 to 1,000,000,000, got inf"),
    "huge_timesteps": (lambda p: edit_record(p, timesteps=10**12), "timesteps: expected a whole number"),
    "float_timesteps": (lambda p: edit_record(p, timesteps=256.0), "timesteps: expected a whole number"),
    "not_object": (lambda p: p.write_text("[1, 2]"), "expected a JSON object, got list"),
    "huge_name": (lambda p: rename_checkpoint(p, 10**12), "claims 1,000,000,000,000 timesteps"),
}


@pytest.mark.parametrize("case", sorted(BAD_RECORDS))
def test_resume_refuses_a_damaged_checkpoint_record(case: str, run_copy: Callable[[str], Path], cli: Cli) -> None:
    damage, expected = BAD_RECORDS[case]
    run = run_copy(case)
    damage(last_checkpoint(run))
    before = snapshot(run)
    code, err = resume(cli, run)
    line = error_line(err)
    assert code == 2 and expected in line and f"{run}/checkpoints/ckpt_" in line, line
    assert snapshot(run) == before  # refused before anything was written


@pytest.mark.parametrize("text,expected", [
    ("{", "invalid JSON"),
    ("[" * 50_000, "nested more than 64 levels deep"),
    ('{"segments": [], "seed": Infinity}', "Infinity is not a number JSON allows"),
    ('"a string"', "expected a JSON object"),
])
def test_resume_refuses_a_damaged_meta_json(text: str, expected: str, run_copy: Callable[[str], Path],
                                            cli: Cli) -> None:
    run = run_copy("meta")
    (run / "meta.json").write_text(text)
    before = snapshot(run)
    code, err = resume(cli, run)
    line = error_line(err)
    assert code == 2 and f"{run}/meta.json" in line and expected in line, line
    assert snapshot(run) == before


def test_policy_loading_refuses_a_damaged_meta_json(run_copy: Callable[[str], Path], cli: Cli) -> None:
    run = run_copy("meta_suggest")
    (run / "meta.json").write_text("[" * 50_000)
    code, _, err = cli("suggest", "--run", run, "--situation", EXAMPLES / "ose_situation.yaml")
    assert code == 2 and f"{run}/meta.json: invalid JSON: nested" in error_line(err), err


def _edit_weights(path: Path, name: str, how: str) -> None:
    import torch

    state = torch.load(path, weights_only=True)
    if how == "nan":
        state[name].view(-1)[0] = float("nan")
    elif how == "inf":
        state[name].view(-1)[-1] = float("-inf")
    else:
        state[name] = state[name].to(getattr(torch, how))
    torch.save(state, path)


WEIGHT_CASES = [("nan", "1 weight(s) are NaN or infinite"), ("inf", "1 weight(s) are NaN or infinite"),
                ("int64", "expected floating-point weights, got a torch.int64 tensor"),
                ("bool", "expected floating-point weights, got a torch.bool tensor")]


@pytest.mark.parametrize("how,expected", WEIGHT_CASES)
def test_suggest_refuses_non_finite_or_non_float_weights(how: str, expected: str, run_copy: Callable[[str], Path],
                                                         cli: Cli) -> None:
    run = run_copy(how)
    _edit_weights(run / "policy.pt", "action_net.weight", how)
    code, _, err = cli("suggest", "--run", run, "--situation", EXAMPLES / "ose_situation.yaml")
    line = error_line(err)
    assert code == 2 and f"{run}/policy.pt: action_net.weight: {expected}" in line, line


def test_load_policy_agent_refuses_nan_weights(run_copy: Callable[[str], Path]) -> None:
    from npc_tactics.agents.policy import load_policy_agent
    from npc_tactics.errors import UserError

    run = run_copy("api")
    _edit_weights(run / "policy.pt", "mlp_extractor.value_net.0.bias", "nan")
    with pytest.raises(UserError, match=r"policy.pt: mlp_extractor.value_net.0.bias: 1 weight\(s\) are NaN"):
        load_policy_agent(run)


def test_resume_refuses_nan_weights_in_a_checkpoint(run_copy: Callable[[str], Path], cli: Cli) -> None:
    """Even with its checksum recomputed (a crafted folder), a checkpoint of NaN weights is not trained on."""
    run = run_copy("ckpt_nan")
    record = last_checkpoint(run)
    weights = record.with_name(record.stem + ".policy.pt")
    _edit_weights(weights, "action_net.bias", "nan")
    edit_record(record, policy_sha256=hashlib.sha256(weights.read_bytes()).hexdigest())
    code, err = resume(cli, run)
    line = error_line(err)
    assert code == 2 and f"{weights}: action_net.bias: 1 weight(s) are NaN or infinite" in line, line


def killed_before_first_checkpoint(run: Path) -> Path:
    """What a kill before the first checkpoint leaves: config, args, meta, tb and the baseline evaluation."""
    import shutil

    shutil.rmtree(run / "checkpoints")
    for name in ("policy.pt", "model.zip", "learning_curve.png"):
        (run / name).unlink(missing_ok=True)
    meta = json.loads((run / "meta.json").read_text())
    meta.update(finished=False)
    meta.pop("timesteps", None)
    (run / "meta.json").write_text(json.dumps(meta))
    return run


def test_resume_without_a_checkpoint_says_it_starts_from_0(run_copy: Callable[[str], Path], cli: Cli) -> None:
    run = killed_before_first_checkpoint(run_copy("killed"))
    code, out, err = cli("train", run / "config.yaml", "--resume", "--out", run, "--no-progress")
    assert code == 0, err
    lines = [ln for ln in err.splitlines() if not ln.startswith(PURE_NOTICE)]
    assert lines == [f"{run} has no checkpoint yet: training starts from 0"], err
    assert (run / "policy.pt").is_file()


def test_train_api_refuses_an_out_that_names_no_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from npc_tactics.errors import UserError
    from npc_tactics.training.config import load_train_config
    from npc_tactics.training.train import train

    monkeypatch.chdir(tmp_path)
    config = load_train_config("ose_goblin_duel")
    for out, expected in ((Path(""), "the current folder"), (Path("  "), "blank"), (tmp_path, "the current folder")):
        with pytest.raises(UserError, match=f"--out: .*{expected}"):
            train(config, out, progress=False)
    (tmp_path / "taken").write_text("x")
    with pytest.raises(UserError, match="--out: .*taken exists and is not a directory"):
        train(config, tmp_path / "taken", progress=False)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["taken"]


def test_a_planted_lock_pipe_does_not_hang_train(run_copy: Callable[[str], Path], cli: Cli) -> None:
    run = run_copy("fifo_lock")
    os.mkfifo(run / "train.lock")
    code, err = resume(cli, run)
    assert code == 2 and f"{run}/train.lock: is not a lock file" in error_line(err), err


def test_export_of_a_nan_run_is_one_line_and_writes_nothing(run_copy: Callable[[str], Path], cli: Cli,
                                                           tmp_path: Path) -> None:
    """A run whose policy has NaN weights is refused by export before anything exists at --out."""
    run = run_copy("export_nan")
    _edit_weights(run / "policy.pt", "action_net.weight", "nan")
    out = tmp_path / "bundle"
    code, _, err = cli("export", run, "--out", out)
    line = error_line(err)
    assert code == 2 and "policy.pt: action_net.weight" in line and "NaN" in line, line
    assert not out.exists() and [p.name for p in tmp_path.iterdir() if p.name.startswith(".bundle")] == []
