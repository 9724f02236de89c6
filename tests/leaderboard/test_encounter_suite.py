"""Leaderboard suites with encounter sets: a distribution and a held-out set play drawn fights (wear applied)
through the runner, the report names them, and the figures do not depend on the worker count."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from npc_tactics.leaderboard import load_suite, run_leaderboard
from npc_tactics.leaderboard.runner import jobs, plan_section
from npc_tactics.rollouts import FromEncounter, FromScenario

SUITE = {
    "name": "drawn",
    "fights": 4,
    "seed": 3,
    "system": "mrq",
    "scenarios": ["spear_vs_sword"],
    "encounters": ["generalist", "heldout:generalist"],
    "agents": ["by-the-book", "random"],
}


@pytest.fixture(scope="module")
def suite_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("suite") / "drawn.yaml"
    path.write_text(yaml.safe_dump(SUITE))
    return path


def test_encounter_entries_plan_as_drawn_starts(suite_file: Path) -> None:
    suite = load_suite(suite_file)
    labels = [s.label for s in suite.sections[0].scenarios]
    assert labels == ["spear_vs_sword", "encounters:generalist", "heldout:generalist"]
    plan = plan_section(suite, 0)
    assert isinstance(plan.starts[0], FromScenario)
    assert isinstance(plan.starts[1], FromEncounter) and plan.starts[1].spec is not None
    assert isinstance(plan.starts[2], FromEncounter) and len(plan.starts[2].fixed) >= 1
    played = [start for _, _, job in jobs(suite, [plan]) for start in job.starts]
    assert played == plan.starts  # the fight jobs begin where the plan says (drawn, not the arena's scenario)


def test_an_encounter_suite_end_to_end(suite_file: Path, tmp_path: Path) -> None:
    one = run_leaderboard(suite_file, tmp_path / "w1", workers=1, progress=False, plots=False)
    two = run_leaderboard(suite_file, tmp_path / "w2", workers=2, progress=False, plots=False)
    assert (tmp_path / "w1" / "results.json").read_bytes() == (tmp_path / "w2" / "results.json").read_bytes()
    data = json.loads((tmp_path / "w1" / "results.json").read_text())
    assert one.data["fights"] == two.data["fights"] == 3 * 2 * 4  # 3 starts x 2 ordered pairings x 4 seeds
    section = data["sections"][0]
    assert section["scenarios"] == ["spear_vs_sword", "encounters:generalist", "heldout:generalist"]
    assert "heldout:generalist" in (tmp_path / "w1" / "report.md").read_text()
