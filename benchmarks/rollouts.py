"""Fights per second of the lockstep runner, and the wall time of ``suggest --odds 200`` (issue 12).

    python benchmarks/rollouts.py [--bundle SYSTEM=DIR ...] [--train DIR] [--fights 1000] [--ks 1,64,256]
                                  [--workers 1,2] [--odds 200] [--systems ose,runequest,mrq,dicepool] [--json]

For every system: (a) scripted vs scripted (by-the-book vs aggressive on the default scenario) and (b) a policy
bundle vs by-the-book (the bundle on the side it learned, on its own scenario), each at K = 1, 64, 256 fights in
lockstep and 1 vs 2 worker processes; then the wall time (and CPU time, children included) of
``npc-tactics suggest --bundle B --situation examples/<system>_situation.yaml --odds 200`` in a fresh process,
what a GM waits for. Target: under 2 s on the 2-core machine.

Bundles: ``--bundle ose=DIR`` per system, or ``--train DIR`` to train what is missing there with the system's
preset for 20,000 steps and export it (``DIR/<system>/bundle``; reused on the next run). Training is heavy: run
the script under ``flock /tmp/npc-train.lock`` on a shared machine. Systems without a bundle report (b) and the
odds as unavailable. Each cell starts its own worker pool (counted, as every caller pays it): with too few
fights the start-up hides the second process's gain. Figures depend on the machine's load: run it alone.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

PRESETS = {"ose": "ose_goblin_duel", "runequest": "runequest_dodge_duel", "mrq": "mrq_shield_vs_greataxe",
           "dicepool": "dicepool_melee_duel"}


def ensure_bundle(system: str, folder: Path, timesteps: int) -> Path:
    """Train ``system``'s preset into ``folder/<system>`` and export ``folder/<system>/bundle`` unless there."""
    bundle = folder / system / "bundle"
    if (bundle / "schema.json").is_file():
        return bundle
    from npc_tactics.export.bundle_export import export_bundle
    from npc_tactics.training.config import load_train_config
    from npc_tactics.training.train import train

    run = train(load_train_config(PRESETS[system]), folder / system, timesteps=timesteps, seed=0, progress=False)
    export_bundle(run, bundle, fights=100, seed=0)
    return bundle


def fights_per_s(system: str, scenario: str, agents: list[str], fights: int, k: int, workers: int) -> float:
    from npc_tactics.rollouts import run_fights

    seeds = list(range(fights))
    started = time.perf_counter()
    run_fights(system, scenario, agents, seeds, k=k, workers=workers)
    return fights / (time.perf_counter() - started)


def grid(system: str, scenario: str, agents: list[str], fights: int, ks: list[int],
         workers: list[int]) -> dict[str, float]:
    run_fights_warmup(system, scenario, agents)
    return {f"k{k}_w{w}": round(fights_per_s(system, scenario, agents, fights, k, w), 1) for k in ks for w in workers}


def run_fights_warmup(system: str, scenario: str, agents: list[str]) -> None:
    from npc_tactics.rollouts import run_fights

    run_fights(system, scenario, agents, [0, 1], k=2, workers=1)


def suggest_wall(system: str, bundle: Path, odds: int) -> dict[str, float]:
    """One ``npc-tactics suggest --odds N`` in a fresh process: wall and CPU seconds (children included)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    cmd = [sys.executable, "-m", "npc_tactics.cli.main", "suggest", "--bundle", str(bundle), "--situation",
           str(ROOT / "examples" / f"{system}_situation.yaml"), "--odds", str(odds), "--json"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    out = subprocess.run(cmd, capture_output=True, text=True, env=env, check=True)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    moves = len(json.loads(out.stdout)["moves"])
    return {"wall_s": round(wall, 2), "cpu_s": round(after.ru_utime + after.ru_stime - before.ru_utime
                                                        - before.ru_stime, 2), "moves": moves,
            "rollouts": moves * odds}


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bundle", action="append", default=[], metavar="SYSTEM=DIR")
    parser.add_argument("--train", type=Path, metavar="DIR", help="train and export missing bundles here")
    parser.add_argument("--timesteps", type=int, default=20_000)
    parser.add_argument("--fights", type=int, default=1000)
    parser.add_argument("--ks", default="1,64,256")
    parser.add_argument("--workers", default="1,2")
    parser.add_argument("--odds", type=int, default=200)
    parser.add_argument("--systems", default="ose,runequest,mrq,dicepool")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    from npc_tactics.policy_io.bundle import read_bundle
    from npc_tactics.registry import get_system

    bundles = {}
    for item in args.bundle:
        system, _, path = item.partition("=")
        bundles[system] = Path(path)
    ks = [int(x) for x in args.ks.split(",")]
    workers = [int(x) for x in args.workers.split(",")]
    out: dict[str, Any] = {"fights": args.fights, "ks": ks, "workers": workers, "odds": args.odds,
                           "cores": os.cpu_count(), "systems": {}}
    for system in args.systems.split(","):
        info = get_system(system)
        row: dict[str, Any] = {"scripted": grid(system, info.default_scenario, ["by-the-book", "aggressive"],
                                                args.fights, ks, workers)}
        bundle = bundles.get(system)
        if bundle is None and args.train is not None:
            bundle = ensure_bundle(system, args.train, args.timesteps)
        if bundle is not None:
            schema = read_bundle(bundle).schema
            agents = [str(bundle), "by-the-book"] if schema.side == 0 else ["by-the-book", str(bundle)]
            row["bundle"] = grid(system, schema.scenario, agents, args.fights, ks, workers)
            row["suggest_odds"] = suggest_wall(system, bundle, args.odds)
        else:
            row["bundle"] = row["suggest_odds"] = None
        out["systems"][system] = row
    if args.json:
        print(json.dumps(out, indent=2))
    else:
        print(f"fights per second ({args.fights} fights per cell; k = fights in lockstep, w = worker processes)")
        cols = [f"k{k}_w{w}" for k in ks for w in workers]
        print(f"{'system':<10} {'agents':<9} " + " ".join(f"{c:>10}" for c in cols))
        for system, row in out["systems"].items():
            for kind in ("scripted", "bundle"):
                cells = row[kind]
                shown = " ".join(f"{cells[c]:>10.1f}" for c in cols) if cells else "(no bundle)"
                print(f"{system:<10} {kind:<9} {shown}")
        for system, row in out["systems"].items():
            s = row["suggest_odds"]
            if s:
                print(f"suggest --odds {args.odds} {system}: {s['wall_s']:.2f} s wall, {s['cpu_s']:.2f} s CPU "
                      f"({s['moves']} moves, {s['rollouts']} rollouts); target < 2 s")
    return out


if __name__ == "__main__":
    main()
