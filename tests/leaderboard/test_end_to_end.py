"""A small real suite end to end (two systems, real engines and scripted agents, real matplotlib): the Markdown
and HTML reports and the PNGs exist and hold what they promise; the report data does not depend on the worker
count; the CLI runs it."""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path

import pytest
import yaml

from npc_tactics.leaderboard import run_leaderboard

SUITE = {
    "name": "tiny",
    "question": "Does leaving pay?",
    "fights": 3,
    "seed": 11,
    "sections": [
        {"system": "ose", "scenarios": ["losing_band", "goblin_duel"], "agents": ["aggressive", "cautious", "random"]},
        {"system": "runequest", "scenarios": ["losing_retreat"], "agents": ["by-the-book", "cautious"]},
    ],
}
PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def suite_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("suite") / "tiny.yaml"
    path.write_text(yaml.safe_dump(SUITE))
    return path


@pytest.fixture(scope="module")
def one_worker(suite_file: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("w1") / "report"
    run_leaderboard(suite_file, out, workers=1, progress=False)
    return out


def test_reports_and_plots(one_worker: Path) -> None:
    data = json.loads((one_worker / "results.json").read_text())
    ose, rq = data["sections"]
    # 3 agents: 6 ordered pairs x 2 scenarios x 3 seeds; 2 agents: 2 pairs x 1 scenario x 3 seeds
    assert data["fights"] == 6 * 2 * 3 + 2 * 3
    assert sum(r["fights"] for r in ose["leaderboard"]) == 2 * 6 * 2 * 3  # each fight counts for both agents
    for section in (ose, rq):
        for row in section["leaderboard"]:
            assert sum(row["rates"][k]["count"] for k in ("win", "draw", "fled", "loss")) == row["fights"]
            assert set(row["ratings"]) == {"side0", "side1"}
        for agent in section["agents"]:
            profile = section["profiles"][agent]["all"]
            assert profile["fights"] == next(r["fights"] for r in section["leaderboard"] if r["agent"] == agent)
            assert sum(profile["flee_wound_bands"].values()) == profile["flights"]

    md = (one_worker / "report.md").read_text()
    assert "# Leaderboard: tiny" in md and "Does leaving pay?" in md and "## Side by side" in md
    assert "| 1 |" in md and "Tactic profiles" in md and "focus fire" in md.lower()
    linked = re.findall(r"!\[[^\]]*\]\(([^)]+\.png)\)", md)
    assert "cross.png" in linked and "ose-outcomes.png" in linked and "runequest-tactics.png" in linked
    for name in linked:
        assert (one_worker / name).read_bytes().startswith(PNG)

    page = (one_worker / "report.html").read_text()
    embedded = re.findall(r'src="data:image/png;base64,([A-Za-z0-9+/=]+)"', page)
    assert len(embedded) == len(linked)
    assert all(base64.b64decode(e).startswith(PNG) for e in embedded)
    assert "<script" not in page and "http://" not in page and "https://" not in page  # self-contained
    timing = json.loads((one_worker / "timing.json").read_text())
    assert timing["workers"] == 1 and timing["fights"] == data["fights"] and timing["seconds"] > 0
    assert not list(one_worker.glob("*.tmp")) and not list(one_worker.glob(".*"))  # atomic writes cleaned up


def test_the_report_data_does_not_depend_on_the_worker_count(suite_file: Path, one_worker: Path,
                                                             tmp_path: Path) -> None:
    result = run_leaderboard(suite_file, tmp_path / "w2", workers=2, progress=False)
    assert result.workers == 2
    for name in ("results.json", "report.md", "report.html"):
        assert (tmp_path / "w2" / name).read_bytes() == (one_worker / name).read_bytes(), name


def test_the_fight_budget_override(suite_file: Path, tmp_path: Path) -> None:
    result = run_leaderboard(suite_file, tmp_path / "f1", workers=1, fights=1, progress=False, plots=False)
    assert result.data["fights"] == 6 * 2 + 2
    assert result.data["suite"]["seeds"] == [11, 11]
    assert "--fights 1" in (tmp_path / "f1" / "report.md").read_text()
    assert not list((tmp_path / "f1").glob("*.png"))


def test_the_command(suite_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from tests.cli_helpers import run_cli

    out = tmp_path / "cli"
    code, stdout, stderr = run_cli(["leaderboard", str(suite_file), "--out", str(out), "--workers", "1",
                                    "--fights", "1", "--no-progress"], capsys)
    assert code == 0, stderr
    assert "report:" in stdout and "ose: best" in stdout and (out / "report.html").is_file()
