"""The leaderboard's counts agree with their number: a suite of one pairing (each agent held to one seat) and one
fight per pairing reports "1 fight; 1 per ordered pairing and scenario, on the paired seed 11" and the command
says "1 fight in ... with 1 worker", where they read "1 fights", "seeds 11..11" and "1 worker(s)"; two fights
read as before. Real engines, scripted agents, no plots."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from npc_tactics.leaderboard import run_leaderboard

SUITE = {"name": "one-pairing", "fights": 1, "seed": 11, "system": "ose", "scenarios": ["goblin_duel"],
         "agents": ["aggressive", "cautious"], "seats": {"aggressive": 0, "cautious": 1}}


@pytest.fixture(scope="module")
def suite_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("suite") / "one_pairing.yaml"
    path.write_text(yaml.safe_dump(SUITE))
    return path


@pytest.mark.parametrize(("fights", "said"), [
    (1, "1 fight; 1 per ordered pairing and scenario, on the paired seed 11 (every pairing of a scenario plays the "
        "same seed)."),
    (2, "2 fights; 2 per ordered pairing and scenario, on the paired seeds 11..12 (every pairing of a scenario "
        "plays the same seeds)."),
])
def test_the_report_counts_its_fights_and_seeds(suite_file: Path, tmp_path: Path, fights: int, said: str) -> None:
    result = run_leaderboard(suite_file, tmp_path / "report", workers=1, fights=fights, progress=False, plots=False)
    assert result.data["fights"] == fights  # one pairing, one scenario
    md = (tmp_path / "report" / "report.md").read_text(encoding="utf-8")
    html = (tmp_path / "report" / "report.html").read_text(encoding="utf-8")
    assert said in md and said in html
    assert json.loads((tmp_path / "report" / "results.json").read_text())["suite"]["seeds"] == [11, 10 + fights]


def test_the_command_says_one_fight_and_one_worker(suite_file: Path, tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    from tests.cli_helpers import run_cli

    code, stdout, stderr = run_cli(["leaderboard", str(suite_file), "--out", str(tmp_path / "cli"), "--workers", "1",
                                    "--no-progress"], capsys)
    assert code == 0, stderr
    lines = stdout.splitlines()
    assert lines[0].startswith("ose: best ") and lines[0].endswith(", 1 fight)"), lines
    assert lines[1].startswith("1 fight in ") and lines[1].endswith(" s with 1 worker"), lines


def test_counted_agrees_at_0_1_and_2() -> None:
    from npc_tactics.leaderboard.document import counted

    assert [counted(n, "fight", "fights") for n in (0, 1, 2, 2000)] == ["0 fights", "1 fight", "2 fights",
                                                                       "2,000 fights"]
