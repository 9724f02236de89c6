"""Random-legal decisions per second of every rules engine, against CartPole-v1 raw steps in the same run.

One decision = ``legal_mask`` + a uniform legal choice + ``step(..., inplace=True, mask=mask)`` (what an
environment does per step, without the encoder: it hands the mask it computed to ``step``). CartPole is
``gymnasium.make("CartPole-v1")`` stepped with random actions.
The two are measured in alternating slices (CartPole, system, CartPole, system, ...) and the ratio is the
median of the per-slice ratios, so a load that comes and goes on a shared machine hits both sides alike.

Every system is measured with roll recording off (the target: >= 1.0x CartPole) and on. This process runs the
engines it finds (compiled when the build is there, see docs/speed.md); unless ``--no-pure``, the same
measurement is then repeated in a subprocess with ``NPC_TACTICS_PURE=1`` (pure Python, its own CartPole slices).

    python benchmarks/engine_throughput.py [--seconds 3] [--repeats 5] [--no-pure] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np

from npc_tactics.compiled import PURE_ENV, status
from npc_tactics.dice import RngRoller
from npc_tactics.registry import available_systems

TARGET = 1.0


def cartpole_steps_per_s(seconds: float) -> float:
    env = gymnasium.make("CartPole-v1")
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    actions = rng.integers(0, 2, size=1_000_000).tolist()
    n, start = 0, time.perf_counter()
    while True:
        for _ in range(1000):
            _, _, terminated, truncated, _ = env.step(actions[n % 1_000_000])
            n += 1
            if terminated or truncated:
                env.reset()
        if time.perf_counter() - start >= seconds:
            break
    return n / (time.perf_counter() - start)


def engine_decisions_per_s(system: str, seconds: float, scenario: str | None = None,
                           record_rolls: bool = False) -> dict[str, Any]:
    info = available_systems()[system]
    engine = info.load("engine")()
    content = info.load("content")
    scen = content.load_scenario(scenario or info.default_scenario)
    rng = np.random.default_rng(0)
    roller = RngRoller(np.random.default_rng(1))
    decisions = fights = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state, _ = engine.new_combat(scen, roller, record_rolls=record_rolls)
        fights += 1
        while True:
            decision = engine.pending(state)
            if decision is None:
                break
            mask = engine.legal_mask(state, decision)
            legal = np.flatnonzero(mask)
            state, _ = engine.step(state, int(legal[rng.integers(len(legal))]), roller, inplace=True,
                                   record_rolls=record_rolls, mask=mask)
            decisions += 1
    elapsed = time.perf_counter() - start
    return {"decisions_per_s": decisions / elapsed, "fights_per_s": fights / elapsed,
            "scenario": scenario or info.default_scenario}


def measure(seconds: float, repeats: int) -> dict[str, Any]:
    """Every system, recording off and on, each against CartPole slices taken in between."""
    slice_s = seconds / repeats
    cartpole_all: list[float] = []
    systems: dict[str, dict[str, Any]] = {}
    for name in available_systems():
        row: dict[str, Any] = {}
        for record, suffix in ((False, ""), (True, "_recording")):
            ratios, rates = [], []
            for _ in range(repeats):
                cp = cartpole_steps_per_s(slice_s)
                r = engine_decisions_per_s(name, slice_s, record_rolls=record)
                cartpole_all.append(cp)
                rates.append(r["decisions_per_s"])
                ratios.append(r["decisions_per_s"] / cp)
            row.update({f"decisions_per_s{suffix}": statistics.median(rates),
                        f"ratio{suffix}": statistics.median(ratios),
                        f"ratio_min{suffix}": min(ratios), f"ratio_max{suffix}": max(ratios)})
            row["scenario"] = r["scenario"]
        systems[name] = row
    engines = status()
    return {"cartpole_steps_per_s": statistics.median(cartpole_all), "engines": engines["engines"],
            "compiled_modules": len(engines["compiled_modules"]), "systems": systems}


def pure_run(seconds: float, repeats: int) -> dict[str, Any]:
    env = {**os.environ, PURE_ENV: "1"}
    proc = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--seconds", str(seconds), "--repeats",
                           str(repeats), "--no-pure", "--json"], env=env, capture_output=True, text=True, check=True)
    return json.loads(proc.stdout)  # type: ignore[no-any-return]


def print_table(label: str, result: dict[str, Any]) -> None:
    print(f"{label}: engines {result['engines']}, CartPole-v1 raw steps/s (median of slices) "
          f"{result['cartpole_steps_per_s']:,.0f}")
    for name, r in result["systems"].items():
        verdict = "meets" if r["ratio"] >= TARGET else "below"
        print(f"  {name:<10} recording off {r['decisions_per_s']:>8,.0f}/s ratio {r['ratio']:.2f} "
              f"({r['ratio_min']:.2f}-{r['ratio_max']:.2f}, {verdict} {TARGET:.1f}x)   recording on "
              f"{r['decisions_per_s_recording']:>8,.0f}/s ratio {r['ratio_recording']:.2f}   ({r['scenario']})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="measuring time per subject, split in slices")
    parser.add_argument("--repeats", type=int, default=5, help="alternating slices per system")
    parser.add_argument("--no-pure", action="store_true", help="skip the NPC_TACTICS_PURE=1 subprocess")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    result = measure(args.seconds, args.repeats)
    if not args.no_pure and result["engines"] == "compiled":
        result["pure"] = pure_run(args.seconds, args.repeats)
        for name, row in result["systems"].items():
            row["speedup_vs_pure"] = row["decisions_per_s"] / result["pure"]["systems"][name]["decisions_per_s"]
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print_table("this process", result)
    if "pure" in result:
        print_table(f"subprocess with {PURE_ENV}=1", result["pure"])
        print("compiled / pure decisions/s: " + ", ".join(
            f"{n} {r['speedup_vs_pure']:.2f}x" for n, r in result["systems"].items()))


if __name__ == "__main__":
    main()
