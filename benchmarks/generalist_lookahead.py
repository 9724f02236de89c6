"""What one better choice at each decision gains over by-the-book on a system's held-out fights: the lookahead
search agent (npc_tactics.agents.lookahead: every legal move played out ``--rollouts`` times with by-the-book
on both sides, the best kept unless by-the-book's own move is within ``--margin``) against by-the-book, beside
by-the-book's own and the shipped bundle's win rates on the same fights (docs/encounters.md, "What the
policies still get wrong").

The search knows the rules, the opponent's script and its declarations, and needs no training, so its gain
is a yardstick for the trained generalist's: on the dice pool it gains about what the generalist does; on a
system where it gains little, the 60% target asks more of tactics than the fights hold. It is slow (OSE about
a second a fight with 64 play-outs, the dice pool and MRQ several), so it plays the first ``--encounters`` of
the held-out fights, ``--repeats`` dice seeds each (the seeds of generalist_report.py), over ``--workers``
processes.

    python benchmarks/generalist_lookahead.py --system ose [--rollouts 64] [--margin 0.05] [--encounters 100]
        [--repeats 3] [--workers 2] [--json]
"""

from __future__ import annotations

import argparse
import json
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from generalist_report import _bundle_factory  # benchmarks/ is this script's folder (sys.path[0])

from npc_tactics.agents.lookahead import lookahead_factory
from npc_tactics.agents.resolve import agent_factory
from npc_tactics.encounters.heldout import load_heldout
from npc_tactics.errors import UserError, one_line
from npc_tactics.evaluation.generalist import encounter_bootstrap, fight_seed, play_encounters
from npc_tactics.evaluation.stats import wilson_interval
from npc_tactics.gm.advice.suggest import shipped_bundle
from npc_tactics.registry import get_system

ROWS = ("lookahead", "shipped", "by-the-book")


def _wins(system: str, row: str, first: int, count: int, repeats: int, rollouts: int, margin: float,
          plans: tuple[str, ...]) -> list[bool]:
    """Side 0's wins (``row``'s agent against by-the-book) on held-out fights ``first .. first + count - 1``,
    on the dice seeds :func:`play_encounters` gives them in the whole set."""
    book = agent_factory(system, "by-the-book")
    if row == "lookahead":
        agent = lookahead_factory(book, rollouts=rollouts, margin=margin,
                                  plans=[agent_factory(system, name) for name in plans])
    elif row == "shipped":
        agent = _bundle_factory(shipped_bundle(system))
    else:
        agent = book
    encounters = load_heldout(system)[first:first + count]
    # fight_seed(i, r, seed) = seed + 100_003 * i + r: offsetting seed by the chunk's start keeps each fight's dice
    records = play_encounters(get_system(system), encounters, agent, book, repeats, seed=fight_seed(first, 0))
    return [r.results[0] == "win" for r in records]


def _chunks(total: int, workers: int) -> list[tuple[int, int]]:
    size = -(-total // workers)
    return [(start, min(size, total - start)) for start in range(0, total, size)]


def measure(system: str, *, rollouts: int, margin: float, encounters: int, repeats: int, workers: int,
            plans: tuple[str, ...] = ()) -> dict[str, Any]:
    """Every row's wins on the same fights, with Wilson and encounter-resampling intervals."""
    available = len(load_heldout(system))
    encounters = min(encounters, available)
    started = time.perf_counter()
    wins: dict[str, list[bool]] = {}
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for row in ROWS:
            jobs = [pool.submit(_wins, system, row, first, count, repeats, rollouts, margin, plans)
                    for first, count in _chunks(encounters, workers)]
            wins[row] = [w for job in jobs for w in job.result()]
    out: dict[str, Any] = {"system": system, "rollouts": rollouts, "margin": margin, "plans": list(plans),
                           "encounters": encounters,
                           "repeats": repeats, "fights": encounters * repeats, "rows": {}}
    for row in ROWS:
        n, k = len(wins[row]), sum(wins[row])
        boot = encounter_bootstrap(wins[row], repeats, wins["by-the-book"])
        out["rows"][row] = {
            "win_rate": round(k / n, 4), "wilson": [round(x, 4) for x in wilson_interval(k, n)],
            "encounters_ci": [round(boot["low"], 4), round(boot["high"], 4)],
            "gain_over_book": round(boot["diff"], 4),
            "gain_ci": [round(boot["diff_low"], 4), round(boot["diff_high"], 4)],
        }
    out["seconds"] = round(time.perf_counter() - started, 1)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--system", default="ose")
    ap.add_argument("--rollouts", type=int, default=64, help="play-outs of every legal move at each decision")
    ap.add_argument("--margin", type=float, default=0.05,
                    help="keep by-the-book's move unless another's win rate beats it by more than this")
    ap.add_argument("--plans", default="cautious,aggressive",
                    help="scripts the search's own side may also follow after its move (comma-separated; "
                         "by-the-book always; '' for by-the-book only)")
    ap.add_argument("--encounters", type=int, default=100, help="the first N held-out fights (all 100 default)")
    ap.add_argument("--repeats", type=int, default=3, help="dice seeds per held-out fight")
    ap.add_argument("--workers", type=int, default=2, help="processes (this machine has 2 cores)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    for name in ("rollouts", "encounters", "repeats", "workers"):
        if getattr(args, name) < 1:
            ap.error(f"--{name}: expected at least 1, got {getattr(args, name)}")
    if not 0.0 <= args.margin <= 1.0:
        ap.error(f"--margin: expected a win-rate difference in [0, 1], got {args.margin}")
    plans = tuple(name for name in args.plans.split(",") if name)
    try:
        load_heldout(args.system)
        shipped_bundle(args.system)
        for name in plans:
            agent_factory(args.system, name)
    except UserError as exc:  # an unknown system, no shipped bundle: one line, exit 2
        ap.error(one_line(exc))
    out = measure(args.system, rollouts=args.rollouts, margin=args.margin, encounters=args.encounters,
                  repeats=args.repeats, workers=args.workers, plans=plans)
    if args.json:
        print(json.dumps(out, indent=2))
        return 0
    print(f"{out['system']}: {out['encounters']} held-out fights x {out['repeats']} seeds, side 1 by-the-book; "
          f"lookahead {out['rollouts']} play-outs a move and plan (by-the-book{''.join(', ' + p for p in plans)}), "
          f"margin {out['margin']} ({out['seconds']:.0f} s)")
    for row, r in out["rows"].items():
        lo, hi = r["wilson"]
        glo, ghi = r["gain_ci"]
        print(f"  {row:<12} {r['win_rate']:.1%} [{lo:.1%}, {hi:.1%}]  gain over by-the-book "
              f"{100 * r['gain_over_book']:+.1f} [{100 * glo:+.1f}, {100 * ghi:+.1f}] points")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
