"""Leaderboards and probes played by Ray workers give the local numbers on the same seeds (the tournament's
case is tests/ray/test_ray_tournament.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

# a Ray hang (a second local Ray instance on the machine was seen to stall actor creation) fails, never blocks CI
pytestmark = pytest.mark.integration  # time limit and rerun: conftest.py


def test_ray_leaderboard_equals_local(ray_local: Any, tmp_path: Path) -> None:
    from npc_tactics.cluster import RayExecutor
    from npc_tactics.leaderboard import run_leaderboard

    common: dict[str, Any] = {"fights": 6, "progress": False, "plots": False}
    run_leaderboard("ose", tmp_path / "local", workers=1, **common)
    run_leaderboard("ose", tmp_path / "ray", executor=RayExecutor(2), **common)
    local = (tmp_path / "local" / "results.json").read_text()
    assert local.count('"fights"') > 1  # a real report
    assert (tmp_path / "ray" / "results.json").read_text() == local


def test_ray_probes_equal_local(ray_local: Any) -> None:
    from npc_tactics.cluster import RayExecutor
    from npc_tactics.probes import load_probe_file, probe_files, run_probe_file
    from npc_tactics.probes.report import summary

    (path,) = probe_files(["dicepool"])
    probes = load_probe_file(path)
    local = run_probe_file(probes, "by-the-book", rollouts=20, seed=3, workers=1)
    remote = run_probe_file(probes, "by-the-book", rollouts=20, seed=3, executor=RayExecutor(2))
    assert local and summary("by-the-book", remote) == summary("by-the-book", local)


def test_ray_encounter_odds_equal_local(ray_local: Any) -> None:
    from npc_tactics.cluster import RayExecutor
    from npc_tactics.gm.encounter.odds import odds_of
    from npc_tactics.registry import get_system

    kwargs: dict[str, Any] = {"party": "fighter_2", "foes": "goblin x3", "fights": 200, "seed": 5}
    local = odds_of(get_system("ose"), workers=1, **kwargs)
    remote = odds_of(get_system("ose"), executor=RayExecutor(2), **kwargs)
    assert local["odds"] == remote["odds"] and local["odds"]
