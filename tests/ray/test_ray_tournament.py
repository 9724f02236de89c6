"""A tournament fanned out over Ray workers writes the same results.json as the local run on the same seeds,
byte for byte (trained RLlib policies and scripted agents; each fight depends on its seed only)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.ray.conftest import RllibRun

pytestmark = pytest.mark.integration


@pytest.mark.parametrize("system, agents", [
    ("ose", ["{run}", "by-the-book", "aggressive", "cautious"]),
    ("dicepool", ["{run}", "aggressive", "cautious"]),
])
def test_ray_tournament_equals_local(rllib_runs: dict[str, RllibRun], ray_local: Any, tmp_path: Path,
                                     system: str, agents: list[str]) -> None:
    from npc_tactics.cluster import RayExecutor
    from npc_tactics.evaluation.fanout import DEFAULT_CHUNK
    from npc_tactics.evaluation.tournament import run_tournament

    specs = [str(rllib_runs[system].run) if a == "{run}" else a for a in agents]
    fights = 60
    common = {"options": None, "progress": False, "plots": False, "command": "same"}
    local = run_tournament(system, None, specs, fights, 11, tmp_path / "local", **common)
    chunks: list[int] = []

    def pool(initializer: Any, initargs: tuple[Any, ...]) -> RayExecutor:
        executor = RayExecutor(2, initializer, initargs)
        real_map = executor.map
        executor.map = lambda fn, items: real_map(fn, [c for c in items if not chunks.append(len(c))])  # type: ignore[method-assign]
        return executor

    remote = run_tournament(system, None, specs, fights, 11, tmp_path / "ray", pool=pool, **common)
    assert len(chunks) >= 8 and sum(chunks) == sum(p.fights for p in local.pairings)  # 4+ chunks per worker
    assert max(chunks) <= DEFAULT_CHUNK
    assert (tmp_path / "ray" / "results.json").read_bytes() == (tmp_path / "local" / "results.json").read_bytes()
    assert remote.ratings == local.ratings
