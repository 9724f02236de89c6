"""Issue 8 §4 and issue 10's last paragraph through the real CLI: one writer per run folder, no silent
mix-ups on --resume, and a policy trained under other rules is flagged when loaded."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml

pytestmark = pytest.mark.integration

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
Cli = Callable[..., tuple[int, str, str]]


def set_rules_version(run: Path, version: str) -> None:
    meta = json.loads((run / "meta.json").read_text())
    meta["spec"]["version"] = version
    (run / "meta.json").write_text(json.dumps(meta))


def test_other_rules_version_is_flagged(run_copy: Callable[[str], Path], tmp_path: Path, cli: Cli) -> None:
    from npc_tactics.systems.ose.rules.engine import OSEEngine

    current = OSEEngine.spec.version
    run = run_copy("old_rules")
    set_rules_version(run, "0.0.1")
    code, out, err = cli("suggest", "--run", run, "--situation", EXAMPLES / "ose_situation.yaml")
    assert code == 0, err
    assert f"note: old_rules was trained under ose rules 0.0.1, this npc-tactics plays ose rules {current}" in out
    code, out, err = cli("suggest", "--run", run, "--situation", EXAMPLES / "ose_situation.yaml", "--json")
    assert any("0.0.1" in n and current in n for n in json.loads(out)["notes"])
    code, out, err = cli("evaluate", "--agents", f"{run},by-the-book", "--fights", "2", "--out", tmp_path / "rep",
                         "--no-progress")
    assert code == 0, err
    warnings = [line for line in err.splitlines() if line.startswith("npc-tactics: warning:")]
    assert len(warnings) == 1 and "0.0.1" in warnings[0] and current in warnings[0], err
    # same version: no note, no warning
    set_rules_version(run, current)
    code, out, err = cli("suggest", "--run", run, "--situation", EXAMPLES / "ose_situation.yaml")
    assert code == 0 and "trained under" not in out and "warning" not in err


def test_run_of_another_encoder_is_named(run_copy: Callable[[str], Path], cli: Cli) -> None:
    run = run_copy("other_encoder")
    meta = json.loads((run / "meta.json").read_text())
    meta["observation_size"] = 409
    (run / "meta.json").write_text(json.dumps(meta))
    code, _, err = cli("suggest", "--run", run, "--situation", EXAMPLES / "ose_situation.yaml")
    assert code == 2 and "trained on 409 observation values" in err and "other_encoder" in err, err


def test_resume_with_another_system_or_network_is_refused(run_copy: Callable[[str], Path], tmp_path: Path,
                                                          cli: Cli) -> None:
    run = run_copy("goblin")
    before = sorted(p.name for p in run.rglob("*"))
    code, _, err = cli("train", "mrq_shield_vs_greataxe", "--out", run, "--resume", "--no-progress")
    assert code == 2, err
    assert "system: run 'ose', config 'mrq'" in err and "scenario: run 'goblin_duel'" in err and "--force" in err
    code, _, err = cli("train", "ose_goblin_band", "--out", run, "--resume", "--no-progress")
    assert code == 2 and "scenario: run 'goblin_duel', config 'goblin_band'" in err, err
    assert "ppo.net_arch: run [16]" in err
    assert sorted(p.name for p in run.rglob("*")) == before  # refused before writing anything
    code, _, err = cli("train", "ose_goblin_band", "--out", run, "--resume", "--force", "--timesteps", "320",
                       "--no-progress")
    assert code == 0, err
    saved = yaml.safe_load((run / "config.yaml").read_text())  # --force keeps the run's own config
    assert (saved["system"], saved["scenario"], saved["ppo"]["net_arch"]) == ("ose", "goblin_duel", [16])
    code, _, err = cli("train", "ose_goblin_duel", "--force", "--out", tmp_path / "fresh", "--no-progress")
    assert code == 2 and "--force only applies with --resume" in err


def test_a_locked_run_is_refused_and_a_stale_lock_taken_over(run_copy: Callable[[str], Path], cli: Cli) -> None:
    run = run_copy("locked")
    lock = run / "train.lock"
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        lock.write_text(json.dumps({"pid": sleeper.pid, "host": socket.gethostname(), "started": "earlier"}))
        code, _, err = cli("train", "ose_goblin_duel", "--out", run, "--resume", "--timesteps", "320",
                           "--no-progress", "--force")
        assert code == 2 and f"in use by PID {sleeper.pid} on {socket.gethostname()}" in err, err
        assert len(err.strip().splitlines()) == 1
        assert json.loads(lock.read_text())["pid"] == sleeper.pid  # somebody else's lock is left alone
    finally:
        sleeper.kill()
        sleeper.wait()
    # the same lock once its process is gone: stale, removed with a note, and the resume runs
    code, _, err = cli("train", "ose_goblin_duel", "--out", run, "--resume", "--timesteps", "320", "--no-progress",
                       "--force")
    assert code == 0, err
    assert f"removed a stale lock of PID {sleeper.pid}" in err
    assert not lock.exists()
    assert json.loads((run / "meta.json").read_text())["timesteps"] == 384  # whole rollouts of 2 envs x 64 steps


def test_run_files_follow_the_umask(tmp_path: Path, cli: Cli) -> None:
    old = os.umask(0o022)
    try:
        code, _, err = cli("train", "ose_goblin_duel", "--out", tmp_path / "run", "--timesteps", "64",
                           "--no-progress")
    finally:
        os.umask(old)
    assert code == 0, err
    modes = {p.relative_to(tmp_path / "run").as_posix(): oct(p.stat().st_mode & 0o777)
             for p in (tmp_path / "run").rglob("*") if p.is_file()}
    assert modes and set(modes.values()) == {"0o644"}, modes
