"""How much a held-out set leaves to tactics: each agent's win rate on every held-out fight, and the best of
them chosen per fight with hindsight (docs/encounters.md, "What the policies still get wrong").

Side 0 is each agent in turn (the scripted ones and the shipped bundle, or ``--bundle``'s, e.g. a
single-scenario policy's, labelled ``bundle``), side 1 by-the-book, on the
held-out fights of ``--system`` with ``--repeats`` dice seeds each (the seeds of ``generalist_report.py``). A
best-per-fight rate near by-the-book's says the fights are decided by who is in them and by the dice more
than by any of these agents' choices; it is no bound on what a better policy can do.

    python benchmarks/generalist_headroom.py --system ose [--bundle DIR] [--repeats 10] [--json]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np
from generalist_report import _bundle_factory  # benchmarks/ is this script's folder (sys.path[0])

from npc_tactics.agents.resolve import AgentFactory, agent_factory
from npc_tactics.encounters.heldout import load_heldout
from npc_tactics.errors import UserError, one_line
from npc_tactics.evaluation.generalist import play_encounters
from npc_tactics.gm.advice.suggest import shipped_bundle
from npc_tactics.registry import get_system

SCRIPTED = ("by-the-book", "aggressive", "cautious", "random")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--system", default="ose")
    ap.add_argument("--bundle", type=Path, default=None, help="default: the shipped generalist of --system")
    ap.add_argument("--repeats", type=int, default=10, help="dice seeds per held-out fight")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    if args.repeats < 1:
        ap.error(f"--repeats: expected at least 1, got {args.repeats}")
    try:
        heldout = load_heldout(args.system)
        opponent = agent_factory(args.system, "by-the-book")
        agents: dict[str, AgentFactory] = {name: agent_factory(args.system, name) for name in SCRIPTED}
        agents["bundle" if args.bundle else "shipped"] = _bundle_factory(args.bundle or shipped_bundle(args.system))
    except UserError as exc:  # an unknown system, a bundle that does not load: one line, exit 2
        ap.error(one_line(exc))
    per_fight = {}
    for name, agent in agents.items():
        records = play_encounters(get_system(args.system), heldout, agent, opponent, args.repeats, seed=0)
        wins = np.array([r.results[0] == "win" for r in records], dtype=float)
        per_fight[name] = wins.reshape(len(heldout), args.repeats).mean(axis=1)
    best = np.max(np.stack(list(per_fight.values())), axis=0)
    out = {
        "system": args.system,
        "fights": len(heldout) * args.repeats,
        "win_rate": {name: round(float(rates.mean()), 4) for name, rates in per_fight.items()},
        "best_per_fight": round(float(best.mean()), 4),
        "fights_none_wins_over_10pct": int((best <= 0.1).sum()),
        "fights_book_always_wins": int((per_fight["by-the-book"] >= 0.95).sum()),
    }
    if args.json:
        print(json.dumps(out, indent=2))
        return 0
    print(f"{args.system}: {len(heldout)} held-out fights x {args.repeats} seeds, side 1 by-the-book")
    for name, rate in out["win_rate"].items():
        print(f"  {name:<12} {rate:.1%}")
    print(f"  best per fight (hindsight): {out['best_per_fight']:.1%}; fights none of them wins more than 10% of: "
          f"{out['fights_none_wins_over_10pct']}; fights by-the-book wins 95%+ of: {out['fights_book_always_wins']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
