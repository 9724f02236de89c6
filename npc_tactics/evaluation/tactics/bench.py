"""What the ``benchmarks/<system>_tactics.py`` scripts share: the command line of a run-dir breakdown (the
main() the OSE and RuneQuest scripts had twice) and the ``--tactics`` section (every named tactic of the
system, by-the-book and the run on the same seeds). In the package so the scripts import it however they are
loaded (as ``__main__`` or by file path from the tests)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from npc_tactics.evaluation.tactics.report import measure_tactics, render_tactics

Measure = Callable[[str, str, int, int], dict[str, Any]]
Render = Callable[[dict[str, Any]], str]


def tactics_section(system: str, run_dir: str, against: str, fights: int, seed: int,
                    scenario: str | None = None) -> dict[str, Any]:
    """Every tactic of ``system`` for by-the-book and the run's policy, same seat, seeds and opponent."""
    from npc_tactics.registry import get_system

    return measure_tactics(get_system(system), ["by-the-book", run_dir], against=against, scenario=scenario,
                           fights=fights, seed=seed)


def run_dir_main(doc: str, system: str, measure: Measure, render: Render, argv: list[str] | None = None) -> int:
    """``SCRIPT RUN_DIR [--against NAME] [--fights N] [--seed S] [--tactics] [--json]``: the script's own
    breakdown (``measure``/``render``), or with ``--tactics`` the tactics section of the system."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("run_dir", help="training run directory (its config.yaml and policy.pt are read)")
    parser.add_argument("--against", default="by-the-book", help="scripted agent name or run dir")
    parser.add_argument("--fights", type=int, default=500)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--scenario", default=None, help="with --tactics: scenario (default: the run's)")
    parser.add_argument("--tactics", action="store_true",
                        help="measure every named tactic of the system for by-the-book and the run")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    if args.fights < 1:
        parser.error("--fights must be at least 1")
    if not Path(args.run_dir).is_dir():
        print(f"{args.run_dir}: run dir not found", file=sys.stderr)
        return 2
    if args.tactics:
        data = tactics_section(system, args.run_dir, args.against, args.fights, args.seed, args.scenario)
        print(json.dumps(data, indent=2) if args.json else render_tactics(data))
        return 0
    data = measure(args.run_dir, args.against, args.fights, args.seed)
    print(json.dumps(data, indent=2) if args.json else render(data))
    return 0
