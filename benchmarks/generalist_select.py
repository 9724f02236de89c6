"""Choose between candidate generalist policies on validation fights, not on the held-out set.

Each candidate (a trained run folder or an exported bundle) plays side 0 against ``--opponent`` (default
by-the-book) on ``--size`` validation fights of the system's generalist distribution
(:func:`~npc_tactics.encounters.heldout.draw_validation`: seeds after the held-out ones, never trained on) with
``--repeats`` dice seeds each, the same seeds for every candidate. The candidate with the highest win rate is
the pick; its held-out figure (``generalist_report.py``) stays an unbiased estimate because the held-out set
took no part in the choice. A table with Wilson 95% intervals goes to stdout, ``--json`` for a machine.

    python benchmarks/generalist_select.py --system runequest runs/exp/a runs/exp/b [--size 100 --repeats 10]
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

from generalist_report import _policy_factory  # benchmarks/ is this script's folder (sys.path[0])

from npc_tactics.agents.resolve import agent_factory
from npc_tactics.encounters.heldout import draw_validation
from npc_tactics.errors import UserError, one_line
from npc_tactics.evaluation.generalist import figures, play_encounters


def _system_of(folder: Path) -> str | None:
    """The system a bundle (schema.json) or a run folder (config.yaml) was made for; None if neither says."""
    try:
        if (folder / "schema.json").is_file():
            return str(json.loads((folder / "schema.json").read_text(encoding="utf-8"))["system"])
        if (folder / "config.yaml").is_file():
            from npc_tactics.runs import RunDir

            return str(RunDir(folder).config().system)
    except (OSError, ValueError, KeyError, TypeError, UserError):
        return None  # unreadable: the loader below says why
    return None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("candidates", nargs="+", help="run folders or bundle folders of --system")
    ap.add_argument("--system", required=True)
    ap.add_argument("--opponent", default="by-the-book", help="side 1 (a scripted agent's name)")
    ap.add_argument("--size", type=int, default=100, help="validation fights (default 100)")
    ap.add_argument("--repeats", type=int, default=10, help="dice seeds per fight (default 10)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    if args.size < 1 or args.repeats < 1:
        ap.error(f"--size and --repeats: expected at least 1, got {args.size} and {args.repeats}")
    for c in args.candidates:
        if not Path(c).is_dir():
            ap.error(f"{c}: not a folder (expected a run folder or a bundle folder)")
        made_for = _system_of(Path(c))
        if made_for is not None and made_for != args.system:
            ap.error(f"{c}: a policy made for {made_for}, not {args.system}")
    try:
        fights = draw_validation(args.system, size=args.size)
        opponent = agent_factory(args.system, args.opponent)
        factories = {c: _policy_factory(args.system, c) for c in args.candidates}
    except (UserError, ValueError) as exc:  # an unknown system, a run that does not load: one line, exit 2
        ap.error(one_line(str(exc)))
    rows = []
    for name, factory in factories.items():
        records = play_encounters(args.system, fights, factory, opponent, args.repeats, seed=0)
        f = figures(name, args.opponent, records)
        results = Counter(r.results[0] for r in records)
        rows.append({"candidate": name, "fights": f.fights, "win_rate": round(f.win_rate, 4),
                     "win_ci": [round(x, 4) for x in f.win_ci], "draws": results["draw"],
                     "losses": results["loss"], "fled": results["fled"]})
    rows.sort(key=lambda r: -float(r["win_rate"]))
    out = {"system": args.system, "opponent": args.opponent, "validation_fights": args.size,
           "repeats": args.repeats, "pick": rows[0]["candidate"], "candidates": rows}
    if args.json:
        print(json.dumps(out, indent=1))
        return 0
    print(f"{args.system}: {args.size} validation fights x {args.repeats} seeds, side 1 {args.opponent}\n")
    print("| candidate | win rate [95% Wilson] | draws | losses | fled |\n|---|---|---|---|---|")
    for r in rows:
        lo, hi = r["win_ci"]
        print(f"| {r['candidate']} | {r['win_rate']:.1%} [{lo:.1%}, {hi:.1%}] | {r['draws']} | {r['losses']} | "
              f"{r['fled']} |")
    print(f"\npick: {out['pick']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
