"""The benchmark scripts keep running and keep their --json schema (speed itself is never asserted here)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def run_script(*args: str) -> dict:  # type: ignore[type-arg]
    proc = subprocess.run([sys.executable, *args, "--json"], cwd=ROOT, capture_output=True, text=True, check=True)
    return json.loads(proc.stdout)


def test_engine_throughput_schema() -> None:
    out = run_script("benchmarks/engine_throughput.py", "--seconds", "0.2", "--repeats", "1")
    assert out["cartpole_steps_per_s"] > 0
    assert set(out["systems"]) == {"ose", "runequest", "mrq", "dicepool"}
    for figures in out["systems"].values():
        assert figures["decisions_per_s"] > 0 and figures["ratio"] > 0


@pytest.mark.integration
def test_training_fps_schema() -> None:
    out = run_script("benchmarks/training_fps.py", "--timesteps", "1024")
    assert out["cartpole_fps"] > 0
    assert set(out["systems"]) == {"ose", "runequest", "mrq", "dicepool"}
    for row in out["systems"].values():
        for backend in ("dummy", "native"):
            assert row[backend]["fps"] > 0 and row[backend]["ratio"] > 0
            split = row[backend]["split"]
            assert 0 < split["env"] <= split["collect"] < 1 and 0 < split["train"] < 1


@pytest.mark.integration
def test_training_profile_schema() -> None:
    out = run_script("benchmarks/training_profile.py", "--timesteps", "256", "--systems", "mrq")
    for backend in ("dummy", "native"):
        row = out["runs"][f"mrq/{backend}"]
        assert 0 < row["env_step"] < row["collect"] < row["learn"] and row["agent_act"] > 0


def test_encode_speed_schema() -> None:
    out = run_script("benchmarks/encode_speed.py", "--states", "20", "--seconds", "0.05", "--repeats", "1")
    assert set(out["systems"]) == {"ose", "runequest", "mrq", "dicepool"}
    for row in out["systems"].values():
        # sizes only: OSE's declared layout outgrew the frozen legacy copy in issue 26 (19 fields per combatant)
        assert row["installed_us"] > 0 and row["legacy_us"] > 0 and row["size"] > 0 and row["legacy_size"] > 0


def test_leaderboard_workers_schema() -> None:
    out = run_script("benchmarks/leaderboard_workers.py", "cross_system", "--fights", "1", "--workers", "2")
    assert out["fights"] == 4 * 2 * 12 and out["workers"] == 2
    assert out["identical_results"] is True and out["one_process_s"] > 0 and out["speedup"] > 0


def test_generalist_headroom_schema() -> None:
    out = run_script("benchmarks/generalist_headroom.py", "--system", "ose", "--repeats", "1")
    assert out["fights"] == 100 and set(out["win_rate"]) == {"by-the-book", "aggressive", "cautious", "random",
                                                             "shipped"}
    # the best agent per fight wins at least as often as every agent does on average
    assert out["best_per_fight"] >= max(out["win_rate"].values())


def test_generalist_lookahead_schema() -> None:
    out = run_script("benchmarks/generalist_lookahead.py", "--system", "ose", "--encounters", "2", "--repeats", "1",
                     "--rollouts", "2", "--workers", "1")
    assert out["fights"] == 2 and out["plans"] == ["cautious", "aggressive"]
    assert set(out["rows"]) == {"lookahead", "shipped", "by-the-book"}
    assert out["rows"]["by-the-book"]["gain_over_book"] == 0.0
    for row in out["rows"].values():
        assert row["wilson"][0] <= row["win_rate"] <= row["wilson"][1]


@pytest.mark.parametrize("args", [["--margin", "2"], ["--plans", "nosuch"], ["--workers", "0"]])
def test_generalist_lookahead_refuses_bad_arguments_in_one_line(args: list[str]) -> None:
    proc = subprocess.run([sys.executable, "benchmarks/generalist_lookahead.py", *args], cwd=ROOT,
                          capture_output=True, text=True)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr and "error:" in proc.stderr


def test_generalist_select_schema() -> None:
    shipped = str(ROOT / "npc_tactics" / "policies" / "ose")
    out = run_script("benchmarks/generalist_select.py", "--system", "ose", shipped, "--size", "5", "--repeats", "2",
                     "--scenario-fights", "4")
    assert out["pick"] == shipped and out["validation_fights"] == 5
    (row,) = out["candidates"]
    assert row["fights"] == 10 and row["draws"] + row["losses"] + row["fled"] <= 10
    assert 0.0 <= row["win_ci"][0] <= row["win_rate"] <= row["win_ci"][1] <= 1.0
    # every shipped scenario is checked against by-the-book on the same dice seeds
    assert set(out["by_the_book_scenarios"]) == {"caster_duel", "goblin_band", "goblin_duel", "losing_band"}
    assert set(row["scenarios_below"]) <= set(out["by_the_book_scenarios"])
    assert out["pick_keeps_scenarios"] == (not row["scenarios_below"])


def test_generalist_select_refuses_negative_scenario_fights() -> None:
    proc = subprocess.run([sys.executable, "benchmarks/generalist_select.py", "--system", "ose",
                           str(ROOT / "npc_tactics" / "policies" / "ose"), "--scenario-fights", "-1"], cwd=ROOT,
                          capture_output=True, text=True)
    assert proc.returncode == 2 and "--scenario-fights: expected 0 or more" in proc.stderr


def test_generalist_select_refuses_a_missing_folder(tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, "benchmarks/generalist_select.py", "--system", "ose",
                           str(tmp_path / "nope")], cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 2 and "not a folder" in proc.stderr


def test_generalist_report_runs_and_reports_an_encounter_interval(tmp_path: Path) -> None:
    subprocess.run([sys.executable, "benchmarks/generalist_report.py", "--systems", "ose", "--repeats", "1",
                    "--scenario-fights", "3", "--out", str(tmp_path)], cwd=ROOT, capture_output=True, text=True,
                   check=True)
    (data,) = json.loads((tmp_path / "report.json").read_text())
    assert data["system"] == "ose" and len(data["heldout"]) == 6 and data["heldout"][0]["fights"] == 100
    boot = data["encounter_bootstrap"]
    assert boot["low"] <= data["heldout"][0]["win_rate"] <= boot["high"]
    assert "Resampling whole encounters" in (tmp_path / "report.md").read_text()


def test_generalist_select_refuses_another_system_s_policy() -> None:
    proc = subprocess.run([sys.executable, "benchmarks/generalist_select.py", "--system", "ose",
                           str(ROOT / "npc_tactics" / "policies" / "runequest")], cwd=ROOT, capture_output=True,
                          text=True)
    assert proc.returncode == 2 and "a policy made for runequest, not ose" in proc.stderr


@pytest.mark.parametrize("args", [["--repeats", "0"], ["--systems", "nosuch"], ["--bundle", "ose"]])
def test_generalist_report_refuses_bad_arguments_in_one_line(args: list[str]) -> None:
    proc = subprocess.run([sys.executable, "benchmarks/generalist_report.py", *args], cwd=ROOT, capture_output=True,
                          text=True)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr and "error:" in proc.stderr


def test_ood_share_schema() -> None:
    """The share of GM-built bestiary fights outside the shipped policy's training (issue 28's in-distribution
    goal): every system, shares in [0, 1] inside their interval, the fields that trip it named."""
    rows = run_script("benchmarks/ood_share.py", "--fights", "12")
    assert [r["system"] for r in rows] == ["ose", "runequest", "mrq", "dicepool"]
    for r in rows:
        assert r["fights"] + r["skipped"] + r["unbuildable"] == 12 and r["npc_templates"] > 30
        assert r["interval"][0] <= r["share"] <= r["interval"][1] and r["outside"] <= r["fights"]
        assert all("." in field and 0 < share <= 1 for field, share in r["top_fields"])
