"""Random-legal decisions per second of every rules engine, against CartPole-v1 raw steps in the same run.

One decision = ``legal_mask`` + a uniform legal choice + ``step(..., inplace=True, mask=mask)`` (what an
environment does per step, without the encoder: it hands the mask it computed to ``step``). CartPole is
``gymnasium.make("CartPole-v1")`` stepped with random actions.
The two are measured in alternating slices (CartPole, system, CartPole, system, ...) and the ratio is the
median of the per-slice ratios, so a load that comes and goes on a shared machine hits both sides alike.

    python benchmarks/engine_throughput.py [--seconds 3] [--repeats 5] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

import gymnasium
import numpy as np

from npc_tactics.dice import RngRoller
from npc_tactics.systems import available_systems


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


def engine_decisions_per_s(system: str, seconds: float, scenario: str | None = None) -> dict[str, float]:
    info = available_systems()[system]
    engine = info.load("engine")()
    content = info.load("content")
    scen = content.load_scenario(scenario or info.default_scenario)
    rng = np.random.default_rng(0)
    roller = RngRoller(np.random.default_rng(1))
    decisions = fights = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state, _ = engine.new_combat(scen, roller)
        fights += 1
        while True:
            decision = engine.pending(state)
            if decision is None:
                break
            mask = engine.legal_mask(state, decision)
            legal = np.flatnonzero(mask)
            state, _ = engine.step(state, int(legal[rng.integers(len(legal))]), roller, inplace=True, mask=mask)
            decisions += 1
    elapsed = time.perf_counter() - start
    return {"decisions_per_s": decisions / elapsed, "fights_per_s": fights / elapsed,
            "scenario": scenario or info.default_scenario}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="measuring time per subject, split in slices")
    parser.add_argument("--repeats", type=int, default=5, help="alternating slices per system")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    slice_s = args.seconds / args.repeats
    cartpole_all: list[float] = []
    systems = {}
    for name in available_systems():
        ratios, rates = [], []
        for _ in range(args.repeats):
            cp = cartpole_steps_per_s(slice_s)
            r = engine_decisions_per_s(name, slice_s)
            cartpole_all.append(cp)
            rates.append(r["decisions_per_s"])
            ratios.append(r["decisions_per_s"] / cp)
        systems[name] = {"decisions_per_s": statistics.median(rates), "ratio": statistics.median(ratios),
                         "ratio_min": min(ratios), "ratio_max": max(ratios), "scenario": r["scenario"]}
    cartpole = statistics.median(cartpole_all)
    if args.json:
        print(json.dumps({"cartpole_steps_per_s": cartpole, "systems": systems}, indent=2))
        return
    print(f"CartPole-v1 raw steps/s (median of slices): {cartpole:,.0f}")
    for name, r in systems.items():
        print(f"{name:<10} {r['decisions_per_s']:>10,.0f} decisions/s  ratio {r['ratio']:.2f} "
              f"(slices {r['ratio_min']:.2f}-{r['ratio_max']:.2f}; target >= 0.25; scenario {r['scenario']})")


if __name__ == "__main__":
    main()
