"""How much decision-time search adds to the shipped network: on each system's held-out fights, the NPC side
(side 0, against by-the-book) played by the shipped bundle alone, by ``search:<bundle>@<budget>``
(npc_tactics.agents.search: sequential halving over the network's top moves, play-outs continued by the
network and by-the-book) and by by-the-book, on the same fight seeds (paired); the win rates with Wilson and
encounter-resampled 95% intervals, the paired gains of search over the network and over by-the-book
(encounter-resampled, npc_tactics.evaluation.generalist.encounter_bootstrap), the search's play-outs per second
and its per-decision latency p50/p95 (decisions with one legal move are not searched and not counted).

Latency and play-outs per second are measured inside the worker processes, so with ``--workers 2`` on this
2-core machine each search shares the machine with another.

A 1,000-fight row of RuneQuest or MRQ at 256 play-outs takes hours, so the fights are played in chunks of a few
held-out encounters; with ``--record FILE`` each finished chunk is appended to FILE (one JSON line) as it lands
and a rerun with the same settings plays only the chunks FILE lacks. Progress goes to stderr.

    python benchmarks/search_strength.py [--systems ose,runequest,mrq,dicepool] [--budget 64]
        [--encounters 100] [--repeats 1] [--workers 2] [--record FILE] [--quick] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

import numpy as np

from npc_tactics.agents.base import Agent, AgentFactory
from npc_tactics.agents.resolve import agent_factory, parse_search_spec
from npc_tactics.agents.search import DEFAULT_BUDGET, DEFAULT_TOP_K, DEFAULT_Z, SearchAgent, search_factory
from npc_tactics.agents.value import OUTCOME_VALUE
from npc_tactics.encounters.heldout import load_heldout
from npc_tactics.errors import UserError, one_line
from npc_tactics.evaluation.generalist import encounter_bootstrap, fight_seed, play_encounters
from npc_tactics.evaluation.stats import wilson_interval
from npc_tactics.gm.advice.suggest import shipped_bundle
from npc_tactics.registry import get_system

ROWS = ("network", "search", "by-the-book")
SYSTEMS = ("ose", "runequest", "mrq", "dicepool")


def _wins(system: str, row: str, first: int, count: int, repeats: int, budget: int,
          distribution: str = "generalist", top_k: int = DEFAULT_TOP_K, z: float = DEFAULT_Z) -> dict[str, Any]:
    """Side 0's wins with ``row``'s agent on held-out fights ``first .. first + count - 1`` (the dice seeds
    :func:`play_encounters` gives them in the whole set), and the search's timings."""
    bundle = str(shipped_bundle(system))
    book = agent_factory(system, "by-the-book")
    searches: list[SearchAgent] = []
    agent: AgentFactory = agent_factory(system, bundle if row == "network" else "by-the-book")
    if row == "search":
        build = search_factory(agent_factory(system, bundle), book, budget=budget, top_k=top_k, z=z)

        def agent(engine: Any, rng: np.random.Generator) -> Agent:
            built = build(engine, rng)
            assert isinstance(built, SearchAgent)
            searches.append(built)
            return built
    encounters = load_heldout(system, distribution)[first:first + count]
    records = play_encounters(get_system(system), encounters, agent, book, repeats, seed=fight_seed(first, 0))
    return {"wins": [r.results[0] == "win" for r in records],
            "values": [OUTCOME_VALUE.get(r.results[0], 0.0) for r in records],
            "timings": [t for s in searches for t in s.timings], "playouts": sum(s.playouts for s in searches)}


CHUNK = 4  # held-out encounters per job: small enough that a stopped run loses minutes, not hours


def _chunks(total: int, size: int = CHUNK) -> list[tuple[int, int]]:
    return [(start, min(size, total - start)) for start in range(0, total, size)]


def _settings(system: str, row: str, distribution: str, repeats: int, budget: int, top_k: int,
              z: float) -> dict[str, Any]:
    """What a recorded chunk must match to be reused (the budget, top-k and z only matter to the search)."""
    out: dict[str, Any] = {"system": system, "set": distribution, "row": row, "repeats": repeats,
                           "bundle": str(shipped_bundle(system))}
    if row == "search":
        out.update(budget=budget, top_k=top_k, z=z)
    return out


def _recorded(path: Path | None) -> list[dict[str, Any]]:
    """The chunks already in ``path``; a line cut short by a stopped run is skipped."""
    if path is None or not path.exists():
        return []
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            out.append(json.loads(line))
        except json.JSONDecodeError:
            continue
    return out


def _record(path: Path, chunk: dict[str, Any]) -> None:
    """Append one finished chunk as one line, flushed to disk before the next one starts."""
    cut_short = False
    if path.exists() and path.stat().st_size:
        with path.open("rb") as f:
            f.seek(-1, os.SEEK_END)
            cut_short = f.read(1) != b"\n"
    with path.open("a", encoding="utf-8") as f:
        f.write(("\n" if cut_short else "") + json.dumps(chunk, sort_keys=True) + "\n")
        f.flush()
        os.fsync(f.fileno())


def measure(system: str, *, budget: int, encounters: int, repeats: int, workers: int,
            distribution: str = "generalist", top_k: int = DEFAULT_TOP_K, z: float = DEFAULT_Z,
            record: Path | None = None, quiet: bool = True) -> dict[str, Any]:
    """Every row's wins on the same fights, the paired gains and the search's speed."""
    encounters = min(encounters, len(load_heldout(system, distribution)))
    started = time.perf_counter()
    done: dict[tuple[str, int, int], dict[str, Any]] = {}
    for chunk in _recorded(record):
        row = chunk.get("settings", {}).get("row")
        if row in ROWS and chunk["settings"] == _settings(system, row, distribution, repeats, budget, top_k, z):
            done[(row, chunk["first"], chunk["count"])] = chunk
    todo = [(row, first, count) for row in ROWS for first, count in _chunks(encounters)
            if (row, first, count) not in done]
    if not quiet:
        print(f"{system}: {len(done)} chunks recorded, {len(todo)} to play", file=sys.stderr, flush=True)
    with ProcessPoolExecutor(max_workers=workers) as pool:
        jobs = {pool.submit(_wins, system, row, first, count, repeats, budget, distribution, top_k, z):
                (row, first, count) for row, first, count in todo}
        for n, job in enumerate(as_completed(jobs), 1):
            row, first, count = jobs[job]
            chunk = {"settings": _settings(system, row, distribution, repeats, budget, top_k, z),
                     "first": first, "count": count, **job.result()}
            done[(row, first, count)] = chunk
            if record is not None:
                _record(record, chunk)
            if not quiet:
                print(f"{system}: {n}/{len(todo)} chunks ({row} {first}..{first + count - 1}), "
                      f"{time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)
    parts = {row: [done[(row, first, count)] for first, count in _chunks(encounters)] for row in ROWS}
    wins = {row: [w for p in parts[row] for w in p["wins"]] for row in ROWS}
    timings = [t for p in parts["search"] for t in p["timings"]]
    playouts = sum(p["playouts"] for p in parts["search"])
    out: dict[str, Any] = {"system": system, "set": distribution, "budget": budget, "top_k": top_k, "z": z,
                           "encounters": encounters, "repeats": repeats, "fights": encounters * repeats,
                           "rows": {}, "gains": {}}
    for row in ROWS:
        n, k = len(wins[row]), sum(wins[row])
        boot = encounter_bootstrap(wins[row], repeats)
        values = [v for p in parts[row] for v in p["values"]]
        out["rows"][row] = {"value": round(float(np.mean(values)), 4), "win_rate": round(k / n, 4),
                            "wilson": [round(x, 4) for x in wilson_interval(k, n)],
                            "encounters_ci": [round(boot["low"], 4), round(boot["high"], 4)]}
    for name, (a, b) in {"search_over_network": ("search", "network"), "search_over_book": ("search", "by-the-book"),
                         "network_over_book": ("network", "by-the-book")}.items():
        boot = encounter_bootstrap(wins[a], repeats, wins[b])
        out["gains"][name] = {"diff": round(boot["diff"], 4),
                              "ci": [round(boot["diff_low"], 4), round(boot["diff_high"], 4)]}
    seconds = sum(timings)
    out["search"] = {"decisions": len(timings), "playouts": playouts,
                     "playouts_per_s": round(playouts / seconds, 1) if seconds > 0 else 0.0,
                     "latency_p50_s": round(float(np.percentile(timings, 50)), 4) if timings else 0.0,
                     "latency_p95_s": round(float(np.percentile(timings, 95)), 4) if timings else 0.0}
    out["seconds"] = round(time.perf_counter() - started, 1)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--systems", default=",".join(SYSTEMS), help="comma-separated systems")
    ap.add_argument("--budget", type=int, default=DEFAULT_BUDGET, help="play-outs per searched decision")
    ap.add_argument("--encounters", type=int, default=100, help="the first N held-out fights (all 100 default)")
    ap.add_argument("--repeats", type=int, default=1, help="dice seeds per held-out fight")
    ap.add_argument("--workers", type=int, default=2, help="processes (this machine has 2 cores)")
    ap.add_argument("--top-k", type=int, default=DEFAULT_TOP_K, help="moves searched from the policy's prior")
    ap.add_argument("--z", type=float, default=DEFAULT_Z, help="standard errors a move must clear to overrule")
    ap.add_argument("--set", default="generalist", choices=("generalist", "creatures_heldout"),
                    help="the held-out fights (generalist) or the held-out creatures' fights (creatures_heldout)")
    ap.add_argument("--record", type=Path, default=None,
                    help="append each finished chunk to this JSON-lines file and reuse the chunks it holds")
    ap.add_argument("--quiet", action="store_true", help="no progress on stderr")
    ap.add_argument("--quick", action="store_true", help="a smoke run: 2 fights of OSE, budget 4, one worker")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    if args.quick:
        args.systems, args.budget, args.encounters, args.repeats, args.workers = "ose", 4, 2, 1, 1
    for name in ("budget", "encounters", "repeats", "workers"):
        if getattr(args, name) < 1:
            ap.error(f"--{name}: expected at least 1, got {getattr(args, name)}")
    if args.record is not None and (args.record.is_dir() or not args.record.parent.is_dir()):
        ap.error(f"--record: expected a file in an existing folder, got {args.record}")
    systems = [s for s in args.systems.split(",") if s]
    try:
        for system in systems:
            load_heldout(system, args.set)
            parse_search_spec(f"search:{shipped_bundle(system)}@{args.budget}")
    except UserError as exc:  # an unknown system, no shipped bundle: one line, exit 2
        ap.error(one_line(str(exc)))
    results = [measure(s, budget=args.budget, encounters=args.encounters, repeats=args.repeats,
                       workers=args.workers, distribution=args.set, top_k=args.top_k, z=args.z, record=args.record,
                       quiet=args.quiet or args.json) for s in systems]
    if args.json:
        print(json.dumps(results, indent=2))
        return 0
    for out in results:
        sr = out["search"]
        print(f"{out['system']} ({out['set']}): {out['encounters']} held-out fights x {out['repeats']} seeds, "
              "side 1 by-the-book; "
              f"search budget {out['budget']} ({out['seconds']:.0f} s)")
        for row, r in out["rows"].items():
            lo, hi = r["encounters_ci"]
            print(f"  {row:<12} {r['win_rate']:.1%} [{lo:.1%}, {hi:.1%}]  side value {r['value']:.3f}")
        for name, g in out["gains"].items():
            print(f"  {name:<20} {100 * g['diff']:+.1f} [{100 * g['ci'][0]:+.1f}, {100 * g['ci'][1]:+.1f}] points")
        print(f"  search: {sr['playouts_per_s']:.0f} play-outs/s, latency p50 {sr['latency_p50_s']:.3f} s, "
              f"p95 {sr['latency_p95_s']:.3f} s over {sr['decisions']} searched decisions")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
