"""Run a suite end to end: play it, sum it, write the report."""

from __future__ import annotations

import datetime as _dt
import shlex
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from npc_tactics.leaderboard.results import build_results
from npc_tactics.leaderboard.runner import play_suite
from npc_tactics.leaderboard.suite import Suite, load_suite

__all__ = ["LeaderboardResult", "run_leaderboard"]


@dataclass(slots=True)
class LeaderboardResult:
    """The report's data (``results.json``), the wall time and the files written."""

    data: dict[str, Any]
    seconds: float
    workers: int
    out_dir: Path
    files: dict[str, Path] = field(default_factory=dict)

    @property
    def report_path(self) -> Path:
        return self.out_dir / "report.md"


def reproduce_command(suite: Suite, fights: int | None) -> str:
    parts = ["npc-tactics", "leaderboard", suite.path]
    if fights is not None:
        parts += ["--fights", str(fights)]
    return shlex.join(parts)


def run_leaderboard(suite: Suite | str | Path, out_dir: Path, *, workers: int | None = None,
                    fights: int | None = None, progress: bool = True, plots: bool = True) -> LeaderboardResult:
    """Play ``suite`` (a :class:`Suite` or a suite file) with ``workers`` processes (default: one per core;
    the results do not depend on it) and ``fights`` per pairing (default: the suite's), and write the report
    into ``out_dir``."""
    if not isinstance(suite, Suite):
        suite = load_suite(suite)
    if fights is not None:
        suite = suite.with_fights(fights)
    sums, seconds, used = play_suite(suite, workers=workers, progress=progress)
    data = build_results(suite, sums)
    timing = {"seconds": round(seconds, 3), "workers": used, "fights": data["fights"],
              "fights_per_second": round(data["fights"] / seconds, 1) if seconds > 0 else None,
              "finished": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds")}
    from npc_tactics.leaderboard.render import write_report

    out_dir = Path(out_dir)
    files = write_report(data, out_dir, reproduce_command(suite, fights), timing, plots=plots)
    return LeaderboardResult(data, seconds, used, out_dir, files)
