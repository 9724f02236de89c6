"""The CLI: discovery commands, simulate --json, and a corpus of bad inputs that must each give one line on
stderr naming the file/field or the unknown name, exit code 2, and no traceback."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli_helpers import run_cli


def test_discovery_commands_list_content(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(["systems", "--json"], capsys)
    assert code == 0
    names = {s["name"] for s in json.loads(out)["systems"]}
    assert "ose" in names
    code, out, _ = run_cli(["scenarios", "ose", "--json"], capsys)
    assert code == 0 and "goblin_duel" in {s["name"] for s in json.loads(out)["scenarios"]}
    code, out, _ = run_cli(["agents", "ose", "--json"], capsys)
    assert {"random", "aggressive", "by-the-book", "cautious"} <= {a["name"] for a in json.loads(out)["agents"]}
    code, out, _ = run_cli(["presets"], capsys)
    assert code == 0 and "ose_goblin_duel" in out


def test_simulate_json_counts_events_by_result(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(["simulate", "ose", "goblin_band", "--agents", "by-the-book,aggressive",
                            "--fights", "20", "--seed", "3", "--json"], capsys)
    assert code == 0
    summary = json.loads(out)
    assert summary["fights"] == 20
    rates = summary["sides"][0]["rates"]
    assert abs(sum(rates[k]["rate"] for k in ("win", "draw", "fled", "loss")) - 1) < 1e-9
    assert set(summary["event_counts"]["attack"]) <= {"hit", "miss", "natural_20", "natural_1"}
    again = run_cli(["simulate", "ose", "goblin_band", "--agents", "by-the-book,aggressive",
                     "--fights", "20", "--seed", "3", "--json"], capsys)[1]
    assert json.loads(again)["event_counts"] == summary["event_counts"]


def _bad_yaml(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


BAD_TRAIN = {
    "bad_type.yaml": ("system: ose\nscenario: goblin_duel\nppo: {learning_rate: fast}\n", "ppo.learning_rate"),
    "unknown_key.yaml": ("system: ose\nscenario: goblin_duel\nbudgett: {}\n", "budgett"),
    "bad_system.yaml": ("system: d20\nscenario: goblin_duel\n", "system"),
    "bad_scenario.yaml": ("system: ose\nscenario: nowhere\n", "scenario"),
    "bad_opponent.yaml": ("system: ose\nscenario: goblin_duel\nopponents: [nobody]\n", "opponents"),
    "syntax.yaml": ("system: ose\n  scenario: [goblin_duel\n", "invalid YAML"),
    "not_mapping.yaml": ("- just\n- a list\n", ""),
}


@pytest.mark.parametrize("name", sorted(BAD_TRAIN))
def test_bad_training_configs(name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text, field = BAD_TRAIN[name]
    path = _bad_yaml(tmp_path, name, text)
    code, _, err = run_cli(["train", path, "--out", str(tmp_path / "run"), "--no-progress"], capsys)
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and path in lines[0] and field in lines[0], err
    assert not (tmp_path / "run" / "model.zip").exists()


BAD_SITUATIONS = {
    "unknown_template.yaml": (
        "acting: Snikkit\nsides:\n  - name: goblins\n    combatants:\n"
        "      - {template: gobln, name: Snikkit, position: 0}\n"
        "  - name: pcs\n    combatants:\n      - {template: fighter_1, name: Brannoc, position: 6}\n",
        "template"),
    "unknown_actor.yaml": (
        "acting: Nobody\nsides:\n  - name: goblins\n    combatants:\n"
        "      - {template: goblin, name: Snikkit, position: 0}\n"
        "  - name: pcs\n    combatants:\n      - {template: fighter_1, name: Brannoc, position: 6}\n",
        "acting"),
    "bad_hp.yaml": (
        "acting: Snikkit\nsides:\n  - name: goblins\n    combatants:\n"
        "      - {template: goblin, name: Snikkit, position: 0, hp: lots}\n"
        "  - name: pcs\n    combatants:\n      - {template: fighter_1, name: Brannoc, position: 6}\n",
        "hp"),
}


def test_cli_error_corpus(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cases = [
        (["scenarios", "d20"], "unknown system 'd20'"),
        (["agents", "d20"], "valid systems"),
        (["simulate", "ose", "nowhere"], "unknown scenario 'nowhere'"),
        (["simulate", "ose", "goblin_duel", "--agents", "nobody,random"], "unknown agent 'nobody'"),
        (["simulate", "ose", "goblin_duel", "--agents", "random"], "expected two agents"),
        (["simulate", "ose", "goblin_duel", "-o", "tie=1"], "unknown ose rules option 'tie'"),
        (["simulate", "ose", str(tmp_path / "missing.yaml")], "missing.yaml"),
        (["train", str(tmp_path / "missing.yaml")], "file not found"),
        (["train", "no_such_preset"], "unknown preset 'no_such_preset'"),
        (["train", "ose_goblin_duel", "--resume"], "--resume needs --out"),
        (["evaluate", "--agents", "random,by-the-book"], "--system is required"),
        (["evaluate", "--agents", "random,nobody", "--system", "ose"], "unknown agent 'nobody'"),
        (["suggest", "--run", str(tmp_path / "norun"), "--situation", str(tmp_path / "s.yaml")], "norun"),
    ]
    for args, expected in cases:
        code, _, err = run_cli(args, capsys)
        lines = err.strip().splitlines()
        assert code == 2, (args, err)
        assert len(lines) == 1 and expected in lines[0], (args, err)


def test_no_traceback_from_the_installed_command(tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, "-m", "npc_tactics.cli.main", "scenarios", "d20"],
                          capture_output=True, text=True)
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr


@pytest.mark.integration
def test_suggest_with_bad_situations(trained_run: Path, tmp_path: Path,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    for name, (text, field) in BAD_SITUATIONS.items():
        path = _bad_yaml(tmp_path, name, text)
        code, _, err = run_cli(["suggest", "--run", str(trained_run), "--situation", path], capsys)
        lines = err.strip().splitlines()
        assert code == 2 and len(lines) == 1 and path in lines[0] and field in lines[0], (name, err)


@pytest.mark.integration
def test_suggest_ranks_the_legal_moves(trained_run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    situation = Path(__file__).resolve().parents[1] / "examples" / "ose_situation.yaml"
    code, out, err = run_cli(["suggest", "--run", str(trained_run), "--situation", str(situation), "--json",
                              "--think", "0"], capsys)  # the network alone: ranked by its probabilities
    assert code == 0, err
    result = json.loads(out)
    assert result["actor"] == "Snikkit" and result["system"] == "ose" and result["ranked_by"] == "policy"
    probs = [m["probability"] for m in result["moves"]]
    assert probs == sorted(probs, reverse=True) and abs(sum(probs) - 1) < 1e-3
    # not in melee: nothing to declare (OSE 0.2.0), so the first real choice is the move step
    assert {m["action"] for m in result["moves"]} == {"hold", "close:enemy_0", "move_away"}
    code, out, _ = run_cli(["suggest", "--run", str(trained_run), "--situation", str(situation)], capsys)
    assert code == 0 and "Snikkit" in out and "%" in out


@pytest.mark.integration
def test_evaluate_a_trained_run_writes_the_report(trained_run: Path, tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(["evaluate", "--agents", f"{trained_run},by-the-book,random", "--fights", "10",
                              "--out", str(tmp_path / "rep"), "--no-progress"], capsys)
    assert code == 0, err
    report = (tmp_path / "rep" / "report.md").read_text()
    results = json.loads((tmp_path / "rep" / "results.json").read_text())
    # the trained policy only takes the seat it learned (side 0); scripted agents take both seats
    seats = [(p["side0"], p["side1"]) for p in results["pairings"]]
    assert ("goblin", "by-the-book") in seats and ("by-the-book", "goblin") not in seats
    assert "Wilson" in report or "95%" in report
    assert list((tmp_path / "rep").glob("*.png"))
