"""Choose between candidate generalist policies on validation fights, not on the held-out set.

Each candidate (a trained run folder or an exported bundle) plays side 0 against ``--opponent`` (default
by-the-book) on ``--size`` validation fights of the system's generalist distribution
(:func:`~npc_tactics.encounters.heldout.draw_validation`: seeds after the held-out ones, never trained on) with
``--repeats`` dice seeds each, the same seeds for every candidate. The candidate with the highest win rate is
the pick; its held-out figure (``generalist_report.py``) stays an unbiased estimate because the held-out set
took no part in the choice. A table with Wilson 95% intervals goes to stdout, ``--json`` for a machine.

The target also asks for at least by-the-book's win rate on every shipped scenario, so each candidate plays
each shipped scenario ``--scenario-fights`` times against by-the-book, on dice seeds from
``SCENARIO_SEED`` on (the report's scenario fights start at seed 0, so the report's scenario figures stay
unseen too), beside by-the-book on the same seeds. A scenario counts as kept when the candidate's rate or the
top of its interval reaches by-the-book's (the report's test). The pick is the best win rate among candidates
that keep every scenario, or the best of all when none does (the table says so).

    python benchmarks/generalist_select.py --system runequest runs/exp/a runs/exp/b [--size 100 --repeats 10]
        [--scenario-fights 300]
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path
from typing import Any

from generalist_report import _policy_factory  # benchmarks/ is this script's folder (sys.path[0])

from npc_tactics.agents.resolve import agent_factory
from npc_tactics.encounters.heldout import draw_validation
from npc_tactics.errors import UserError, one_line
from npc_tactics.evaluation.generalist import figures, play_encounters
from npc_tactics.registry import get_system

#: first dice seed of the scenario checks: far from the report's seeds (0 ...)
SCENARIO_SEED = 1_100_000


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


def _shipped_scenarios(system: str) -> dict[str, Any]:
    from npc_tactics.evaluation.arena import Arena

    return {name: Arena.build(system, name).scenario for name, _ in get_system(system).load("content").list_scenarios()}


def _rate(system: str, scenario: Any, agent: Any, opponent: Any, fights: int) -> float:
    records = play_encounters(get_system(system), [scenario], agent, opponent, fights, seed=SCENARIO_SEED)
    return figures("", "", records).win_rate


def _below(system: str, scenarios: dict[str, Any], book_rates: dict[str, float], factory: Any, opponent: Any,
           fights: int) -> dict[str, float]:
    """The shipped scenarios where ``factory`` does worse than by-the-book beyond its own interval: name -> rate."""
    out = {}
    for name, sc in scenarios.items():
        f = figures("", "", play_encounters(get_system(system), [sc], factory, opponent, fights, seed=SCENARIO_SEED))
        if f.win_rate < book_rates[name] and f.win_ci[1] < book_rates[name]:
            out[name] = round(f.win_rate, 4)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("candidates", nargs="+", help="run folders or bundle folders of --system")
    ap.add_argument("--system", required=True)
    ap.add_argument("--opponent", default="by-the-book", help="side 1 (a scripted agent's name)")
    ap.add_argument("--size", type=int, default=100, help="validation fights (default 100)")
    ap.add_argument("--repeats", type=int, default=10, help="dice seeds per fight (default 10)")
    ap.add_argument("--scenario-fights", type=int, default=300,
                    help="fights per shipped scenario for the scenario check (default 300, as the report; 0: no check)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    if args.size < 1 or args.repeats < 1:
        ap.error(f"--size and --repeats: expected at least 1, got {args.size} and {args.repeats}")
    if args.scenario_fights < 0:
        ap.error(f"--scenario-fights: expected 0 or more, got {args.scenario_fights}")
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
    scenarios = _shipped_scenarios(args.system) if args.scenario_fights else {}
    book_rates = {n: _rate(args.system, sc, opponent, opponent, args.scenario_fights) for n, sc in scenarios.items()}
    rows = []
    for name, factory in factories.items():
        records = play_encounters(get_system(args.system), fights, factory, opponent, args.repeats, seed=0)
        f = figures(name, args.opponent, records)
        results = Counter(r.results[0] for r in records)
        rows.append({"candidate": name, "fights": f.fights, "win_rate": round(f.win_rate, 4),
                     "win_ci": [round(x, 4) for x in f.win_ci], "draws": results["draw"],
                     "losses": results["loss"], "fled": results["fled"],
                     "scenarios_below": _below(args.system, scenarios, book_rates, factory, opponent,
                                               args.scenario_fights)})
    rows.sort(key=lambda r: -float(r["win_rate"]))
    keeping = [r for r in rows if not r["scenarios_below"]]
    out = {"system": args.system, "opponent": args.opponent, "validation_fights": args.size,
           "repeats": args.repeats, "scenario_fights": args.scenario_fights,
           "by_the_book_scenarios": {n: round(v, 4) for n, v in book_rates.items()},
           "pick": (keeping or rows)[0]["candidate"], "pick_keeps_scenarios": bool(keeping), "candidates": rows}
    if args.json:
        print(json.dumps(out, indent=1))
        return 0
    print(f"{args.system}: {args.size} validation fights x {args.repeats} seeds, side 1 {args.opponent}\n")
    print("| candidate | win rate [95% Wilson] | draws | losses | fled | shipped scenarios below by-the-book |\n"
          "|---|---|---|---|---|---|")
    for r in rows:
        lo, hi = r["win_ci"]
        below = ", ".join(f"{n} {v:.0%} vs {book_rates[n]:.0%}" for n, v in r["scenarios_below"].items())
        print(f"| {r['candidate']} | {r['win_rate']:.1%} [{lo:.1%}, {hi:.1%}] | {r['draws']} | {r['losses']} | "
              f"{r['fled']} | {below or ('none' if scenarios else 'not checked')} |")
    note = "" if keeping or not scenarios else " (no candidate keeps every shipped scenario: the best of all)"
    print(f"\npick: {out['pick']}{note}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
