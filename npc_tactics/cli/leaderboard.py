"""``npc-tactics leaderboard SUITE.yaml``: the command's typer function (registered in :mod:`npc_tactics.cli.main`)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from npc_tactics.cli.ray import AddressOption, ray_executor
from npc_tactics.cli.support import check_out, report_write_error
from npc_tactics.errors import UserError
from npc_tactics.limits import MAX_FIGHTS, MAX_WORKERS, check_workers

__all__ = ["leaderboard"]


def leaderboard(
    suite: Annotated[str, typer.Argument(metavar="SUITE.yaml",
                                         help="A suite file, or a shipped suite's name (ose, runequest, mrq, "
                                         "dicepool, cross_system).")],
    out: Annotated[Path | None, typer.Option(metavar="DIR",
                                             help="Report folder (default reports/leaderboard-SUITE).")] = None,
    workers: Annotated[int | None, typer.Option(metavar="N", help=f"Worker processes, 1 to {MAX_WORKERS} "
                                                "(default: one per core). The results do not depend on it.")] = None,
    fights: Annotated[int | None, typer.Option(metavar="N", help=f"Fights per ordered pairing and scenario, 1 to "
                                               f"{MAX_FIGHTS:,} (default: the suite's).")] = None,
    progress: Annotated[bool, typer.Option(metavar="", help="Show a progress bar on stderr.")] = True,
    address: AddressOption = None,
) -> None:
    """Round robins on paired seeds over a suite's scenarios and systems: win/draw/flee rates with Wilson 95%
    intervals, ratings per seat, mean fight length and each agent's tactic profile, in report.md and a
    self-contained report.html (results.json holds every number; timing.json the wall time)."""
    from npc_tactics.leaderboard import load_suite, run_leaderboard
    from npc_tactics.leaderboard.document import counted

    check_workers(workers)
    if fights is not None and not 1 <= fights <= MAX_FIGHTS:
        raise UserError(f"--fights: expected 1 to {MAX_FIGHTS:,}, got {fights}")
    loaded = load_suite(suite)
    out = out or Path("reports") / f"leaderboard-{loaded.name}"
    check_out(out)
    try:
        result = run_leaderboard(loaded, out, workers=workers, fights=fights, progress=progress,
                                 executor=ray_executor(address, workers))
    except OSError as exc:
        raise report_write_error(out, exc) from None
    for section in result.data["sections"]:
        best = section["leaderboard"][0]
        typer.echo(f"{section['label']}: best {best['agent']} (score {best['score']:.3f}, "
                   f"{counted(best['fights'], 'fight', 'fights')})")
    typer.echo(f"{counted(result.data['fights'], 'fight', 'fights')} in {result.seconds:.1f} s with "
               f"{counted(result.workers, 'worker', 'workers')}")
    typer.echo(f"report: {result.report_path} (and report.html)")
