"""Honest CLI outputs (issue 8 §5): --version, help without type placeholders, simulate --json
byte-identical across runs (results.json: tests/evaluation/test_tournament.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli_helpers import run_cli

REPO = Path(__file__).resolve().parents[2]
COMMANDS = ["systems", "scenarios", "agents", "presets", "train", "evaluate", "simulate", "suggest"]


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    import npc_tactics

    code, out, _ = run_cli(["--version"], capsys)
    assert code == 0 and out.strip() == f"npc-tactics {npc_tactics.__version__}"


@pytest.mark.parametrize("command", [[], *([c] for c in COMMANDS)], ids=["top", *COMMANDS])
def test_help_shows_words_not_type_placeholders(command: list[str], capsys: pytest.CaptureFixture[str],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "160")
    code, out, _ = run_cli([*command, "--help"], capsys)
    assert code == 0 and "Usage" in out
    for placeholder in ("<bool>", "<str>", "<int", "<list", "<path>", "{system}", "{scenario}", "[x>="):
        assert placeholder not in out, (placeholder, out)


def _simulate_json() -> bytes:
    env = dict(os.environ, PYTHONPATH=str(REPO))
    return subprocess.run(
        [sys.executable, "-m", "npc_tactics.cli.main", "simulate", "ose", "goblin_band", "--agents", "cautious,random",
         "--fights", "30", "--seed", "11", "--json"], capture_output=True, check=True, env=env, timeout=120,
    ).stdout


def test_simulate_json_is_byte_identical_across_runs() -> None:
    first, second = _simulate_json(), _simulate_json()
    assert first == second
    assert b'"fights": 30' in first and b"seconds" not in first


def test_simulate_text_shows_the_time(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(["simulate", "ose", "goblin_duel", "--fights", "3"], capsys)
    assert code == 0 and "played in" in out


def test_examples_name_a_run_folder_they_say_how_to_create() -> None:
    """Each example situation's `suggest --run DIR` comment names a folder that a `train ... --out DIR`
    command in the same file, or the README tour, creates."""
    import re

    readme = (REPO / "README.md").read_text(encoding="utf-8")
    for path in sorted((REPO / "examples").glob("*_situation.yaml")):
        text = path.read_text(encoding="utf-8")
        runs = re.findall(r"suggest --run (\S+)", text)
        assert runs, path
        for run in runs:
            assert f"--out {run}" in text or f"--out {run} " in readme, (path.name, run)
            assert not run.startswith("/tmp"), (path.name, run)


def test_nothing_users_get_cites_files_they_do_not_have() -> None:
    """Docs, examples and the package cite the rules references under docs/rules/, never the project's
    shared/ folder (issue 8 §5: users do not have it)."""
    places = [REPO / "README.md", *(REPO / "docs").rglob("*.md"), *(REPO / "examples").glob("*"),
              *(REPO / "npc_tactics").rglob("*.py")]
    offenders = [str(p.relative_to(REPO)) for p in places
                 if "shared/rules" in p.read_text(encoding="utf-8") or "/work/shared" in p.read_text(encoding="utf-8")
                 or "shared/seeds" in p.read_text(encoding="utf-8")]
    assert not offenders
