"""Wall time of a leaderboard suite with one process and with N worker processes, and the speed-up.

Both runs play the same fights (per-fight seeds) and must write the same ``results.json``; the script checks it
and says so. Reports go to a temporary folder. On a machine shared with other jobs the speed-up is noisy: run it
under ``flock /tmp/npc-train.lock`` and repeat.

    python benchmarks/leaderboard_workers.py [SUITE] [--fights 20] [--workers N] [--json]
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

from npc_tactics.leaderboard import run_leaderboard
from npc_tactics.leaderboard.runner import default_workers


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("suite", nargs="?", default="cross_system")
    parser.add_argument("--fights", type=int, default=20)
    parser.add_argument("--workers", type=int, default=default_workers())
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    out: dict[str, object] = {"suite": args.suite, "fights_per_pairing": args.fights}
    with tempfile.TemporaryDirectory() as tmp:
        one = run_leaderboard(args.suite, Path(tmp) / "one", workers=1, fights=args.fights, progress=False,
                              plots=False)
        many = run_leaderboard(args.suite, Path(tmp) / "many", workers=args.workers, fights=args.fights,
                               progress=False, plots=False)
        same = (Path(tmp) / "one" / "results.json").read_bytes() == (Path(tmp) / "many" / "results.json").read_bytes()
    out.update({"fights": one.data["fights"], "one_process_s": round(one.seconds, 3), "workers": many.workers,
                "workers_s": round(many.seconds, 3), "speedup": round(one.seconds / many.seconds, 2),
                "identical_results": same})
    if args.json:
        print(json.dumps(out, indent=2))
    else:
        print(f"{args.suite}: {out['fights']:,} fights; 1 process {one.seconds:.1f} s, {many.workers} workers "
              f"{many.seconds:.1f} s: speed-up x{out['speedup']}; identical results: {same}")


if __name__ == "__main__":
    main()
