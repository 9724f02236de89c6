"""A tournament played by Ray workers (the lockstep runner's Ray executor) writes the same results.json as
the local run on the same seeds, byte for byte (trained RLlib policies and scripted agents; each fight
depends on its seed only)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from tests.ray.conftest import RllibRun

# a Ray hang (a second local Ray instance on the machine was seen to stall actor creation) fails, never blocks CI
pytestmark = pytest.mark.integration  # time limit and rerun: conftest.py


@pytest.mark.parametrize("system, agents", [
    ("ose", ["{run}", "by-the-book", "aggressive", "cautious"]),
    ("dicepool", ["{run}", "aggressive", "cautious"]),
])
def test_ray_tournament_equals_local(rllib_runs: dict[str, RllibRun], ray_local: Any, tmp_path: Path,
                                     system: str, agents: list[str]) -> None:
    import ray

    from npc_tactics.cluster import RayExecutor
    from npc_tactics.evaluation.tournament import run_tournament

    specs = [str(rllib_runs[system].run) if a == "{run}" else a for a in agents]
    fights = 60
    common: dict[str, Any] = {"options": None, "progress": False, "plots": False, "command": "same"}
    local = run_tournament(system, None, specs, fights, 11, tmp_path / "local", workers=1, **common)
    seen: list[tuple[int, int]] = []  # (chunk size, pid of the Ray worker that played it)

    class Counting(RayExecutor):
        @contextmanager
        def session(self, setup: Any, job: Any) -> Iterator[Any]:
            with super().session(setup, job) as mapper:
                real = mapper.map

                def counted(fn: Any, items: Any) -> Any:
                    items = list(items)

                    def traced(chunk: Any) -> Any:
                        import os

                        return os.getpid(), fn(chunk)  # runs in the worker

                    for (pid, part), chunk in zip(real(traced, items), items, strict=True):
                        seen.append((len(chunk[1]), pid))
                        yield part

                mapper.map = counted
                yield mapper

    remote = run_tournament(system, None, specs, fights, 11, tmp_path / "ray", executor=Counting(2), **common)
    assert sum(size for size, _ in seen) == sum(p.fights for p in local.pairings)
    assert len({pid for _, pid in seen}) == 2 and len(seen) >= 2  # both workers played
    assert os.getpid() not in {pid for _, pid in seen}  # none here
    assert (tmp_path / "ray" / "results.json").read_bytes() == (tmp_path / "local" / "results.json").read_bytes()
    assert remote.ratings == local.ratings
    assert ray.is_initialized()  # the session left the test's instance running
