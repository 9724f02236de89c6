"""Does a trained band focus its blows more than the aggressive scripted band, and does it beat it?

Plays ``--fights`` paired-seed fights of the run's N vs M scenario and prints three watched series
(``npc_tactics.evaluation.tactics.skirmish_focus``, definitions in docs/selfplay.md "Focus fire"): the trained
band against ``--against`` (its win rate and focus rates), the same fights seen from the scripted band's seat,
and the scripted band in the trained band's seat against the same opponent. Rates carry Wilson 95% intervals
and the rate a uniformly random choice among the same targets would give::

    .venv/bin/python benchmarks/skirmish_focus.py RUN_DIR [--against aggressive] [--fights 500] [--seed 0] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from npc_tactics.evaluation.tactics import render_skirmish_focus, skirmish_focus


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("band", help="a training run directory or bundle folder of a band scenario")
    parser.add_argument("--system", default=None, help="default: read from the run's config.yaml")
    parser.add_argument("--against", default="aggressive", help="scripted band (default aggressive)")
    parser.add_argument("--scenario", default=None, help="default: the run's scenario")
    parser.add_argument("--fights", type=int, default=500)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    if args.fights < 1:
        parser.error("--fights must be at least 1")
    if not Path(args.band).is_dir():
        print(f"{args.band}: run dir not found", file=sys.stderr)
        return 2
    system = args.system
    if system is None:
        from npc_tactics.runs import RunDir

        system = RunDir(Path(args.band)).config().system
    from npc_tactics.registry import get_system

    data = skirmish_focus(get_system(system), args.band, against=args.against, scenario=args.scenario,
                          fights=args.fights, seed=args.seed)
    print(json.dumps(data, indent=2) if args.json else render_skirmish_focus(data))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
