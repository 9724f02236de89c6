"""Time of one ``encoder.encode(state, decision)`` call per system, on states visited by random-legal play.

The same states are encoded by the installed encoder and, when the repository's tests are importable (run
from the repository root), by the frozen pre-declaration copy in ``tests/encoders/legacy`` (issue 9 phase 2),
in alternating slices so a load that comes and goes on a shared machine hits both alike. Figures are the
median over slices of CPU microseconds per call.

    python benchmarks/encode_speed.py [--states 300] [--seconds 1] [--repeats 5] [--json]
"""

from __future__ import annotations

import argparse
import importlib
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from npc_tactics.dice import RngRoller
from npc_tactics.registry import available_systems


def visited(system: str, n: int, seed: int = 0) -> tuple[Any, list[tuple[Any, Any]]]:
    """The engine and ``n`` (state, decision) pairs from random-legal fights over every shipped scenario."""
    info = available_systems()[system]
    engine = info.load("engine")()
    content = info.load("content")
    scenarios = [content.load_scenario(name) for name, _ in sorted(content.list_scenarios())]
    rng, roller = np.random.default_rng(seed), RngRoller(np.random.default_rng(seed + 1))
    out: list[tuple[Any, Any]] = []
    fight = 0
    while len(out) < n:
        state, _ = engine.new_combat(scenarios[fight % len(scenarios)], roller)
        fight += 1
        while len(out) < n and (decision := engine.pending(state)) is not None:
            out.append((state, decision))
            legal = np.flatnonzero(engine.legal_mask(state, decision))
            state, _ = engine.step(state, int(legal[rng.integers(len(legal))]), roller)
    return engine, out


def legacy_encoder(system: str) -> type | None:
    """The frozen pre-declaration encoder of ``system`` from the repository's tests, if they are there."""
    root = str(Path(__file__).resolve().parents[1])
    if root not in sys.path:
        sys.path.append(root)
    name = available_systems()[system].encoder.partition(":")[2]
    try:
        mod = importlib.import_module(f"tests.encoders.legacy.{system}")  # npc_tactics.systems.<system>.encoder
    except ImportError:
        return None
    return getattr(mod, name, None)  # type: ignore[no-any-return]


def us_per_call(encoder: Any, pairs: list[tuple[Any, Any]], seconds: float) -> float:
    """CPU time of this process per call (less disturbed than wall time by other processes on the machine)."""
    n, start = 0, time.process_time()
    while time.process_time() - start < seconds:
        for state, decision in pairs:
            encoder.encode(state, decision)
        n += len(pairs)
    return (time.process_time() - start) / n * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--states", type=int, default=300)
    parser.add_argument("--seconds", type=float, default=1.0, help="per slice")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    results: dict[str, dict[str, Any]] = {}
    for system, info in available_systems().items():
        engine, pairs = visited(system, args.states)
        encoders = {"installed": info.load("encoder")(engine)}
        legacy = legacy_encoder(system)
        if legacy is not None:
            encoders["legacy"] = legacy(engine)
        times: dict[str, list[float]] = {k: [] for k in encoders}
        for _ in range(args.repeats):
            for key, enc in encoders.items():
                times[key].append(us_per_call(enc, pairs, args.seconds))
        row: dict[str, Any] = {"states": len(pairs), "size": int(encoders["installed"].size)}
        row |= {f"{k}_us": round(statistics.median(v), 2) for k, v in times.items()}
        if "legacy" in encoders:
            row["legacy_size"] = int(encoders["legacy"].size)
            row["speedup"] = round(row["legacy_us"] / row["installed_us"], 3)
        results[system] = row
    if args.json:
        print(json.dumps({"systems": results}, indent=2))
        return
    for system, row in results.items():
        line = f"{system:10s} size {row['size']:4d}  encode {row['installed_us']:8.2f} us/call"
        if "legacy_us" in row:
            line += f"   legacy (size {row['legacy_size']}) {row['legacy_us']:8.2f} us/call  x{row['speedup']}"
        print(line)


if __name__ == "__main__":
    main()
