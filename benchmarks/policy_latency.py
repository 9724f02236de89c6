"""Policy latency: one decision's masked probabilities through the exported bundle (onnxruntime) vs the SB3
policy (``MaskablePPO.predict`` and the project's ``PolicyAgent.action_probabilities``), and bundle sizes.

The observations are real ones (visited by the policy in fights against its training opponents), one per call,
cycled; both sides run on one CPU thread (``torch.set_num_threads(1)``, onnxruntime intra-op 1), as suggest and
the evaluation loop call them. Without RUN_DIR arguments it trains each system's default preset (default
network, 1,024 steps: latency and size depend on the network's shape, not on how well it plays) in a temporary
folder and exports it.

    python benchmarks/policy_latency.py [RUN_DIR ...] [--calls N] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

PRESETS = {
    "ose": "ose_goblin_duel",
    "runequest": "runequest_parry_duel",
    "mrq": "mrq_shield_vs_greataxe",
    "dicepool": "dicepool_melee_duel",
}
TINY = {"budget.timesteps": 1024, "budget.n_envs": 2, "budget.eval_every": 0, "budget.eval_episodes": 4,
        "budget.checkpoint_every": 0, "ppo.n_steps": 128, "ppo.batch_size": 128, "ppo.n_epochs": 1}


def _percentiles_us(fn: Callable[[int], Any], calls: int) -> dict[str, float]:
    for k in range(min(50, calls)):  # warm-up
        fn(k)
    times = []
    for k in range(calls):
        start = time.perf_counter()
        fn(k)
        times.append(time.perf_counter() - start)
    times.sort()
    return {"p50_us": round(1e6 * statistics.median(times), 1),
            "p95_us": round(1e6 * times[int(0.95 * (len(times) - 1))], 1)}


def _observations(agent: Any, opponents: list[str], n: int) -> tuple[np.ndarray, np.ndarray]:
    from npc_tactics.agents.resolve import agent_factory
    from npc_tactics.evaluation.arena import Arena
    from npc_tactics.evaluation.fight import agent_rngs, play_fight

    arena = Arena.build(agent.system, agent.scenario, agent.options)
    vectors: list[np.ndarray] = []
    masks: list[np.ndarray] = []

    class Recorder:
        name = "recorder"

        def act(self, observation: Any, mask: np.ndarray) -> int:
            vectors.append(np.array(observation.vector, dtype=np.float32))
            masks.append(np.array(mask, dtype=bool))
            return agent.act(observation, mask)

    seed = 0
    while len(vectors) < n:
        rngs = agent_rngs(seed, arena.sides)
        foe = agent_factory(agent.system, opponents[seed % len(opponents)])(arena.engine, rngs[1 - agent.side])
        seats: list[Any] = [Recorder(), foe] if agent.side == 0 else [foe, Recorder()]
        play_fight(arena.engine, arena.encoder, arena.scenario, seats, seed)
        seed += 1
    return np.stack(vectors[:n]), np.stack(masks[:n])


def measure(run: Path, bundle: Path, calls: int) -> dict[str, Any]:
    from npc_tactics.agents.policy import load_policy_agent
    from npc_tactics.configs import load_yaml
    from npc_tactics.policy_io.onnx_agent import load_bundle_agent

    sb3 = load_policy_agent(run)
    onnx_agent = load_bundle_agent(bundle)
    obs, masks = _observations(onnx_agent, list(load_yaml(run / "config.yaml")["opponents"]), 256)
    n = len(obs)
    session = onnx_agent.policy.session
    figures = {
        "onnxruntime_session": _percentiles_us(
            lambda k: session.run(None, {"observation": obs[k % n][None], "action_mask": masks[k % n][None]}), calls),
        "onnx_agent_probabilities": _percentiles_us(
            lambda k: onnx_agent.action_probabilities(obs[k % n], masks[k % n]), calls),
        "sb3_predict": _percentiles_us(
            lambda k: sb3.policy.predict(obs[k % n], action_masks=masks[k % n], deterministic=True), calls),
        "sb3_agent_probabilities": _percentiles_us(
            lambda k: sb3.action_probabilities(obs[k % n], masks[k % n]), calls),
    }
    sizes = {p.name: p.stat().st_size for p in sorted(bundle.iterdir())}
    schema = onnx_agent.bundle.schema  # type: ignore[union-attr]
    return {
        "system": schema.system,
        "scenario": schema.scenario,
        "net_arch": schema.training.net_arch,
        "observation_size": schema.observation.size,
        "actions": len(schema.actions),
        "latency": figures,
        "speedup_predict_vs_onnx_agent": round(figures["sb3_predict"]["p50_us"]
                                               / figures["onnx_agent_probabilities"]["p50_us"], 2),
        "bundle_bytes": sizes | {"total": sum(sizes.values())},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="*", type=Path, help="run folders (default: tiny runs of each preset)")
    parser.add_argument("--calls", type=int, default=2000, help="timed calls per method")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    import torch

    torch.set_num_threads(1)
    from npc_tactics.export.bundle_export import export_bundle
    from npc_tactics.training.config import load_train_config
    from npc_tactics.training.train import train

    results = []
    with tempfile.TemporaryDirectory() as tmp:
        runs = list(args.runs)
        if not runs:
            for system, preset in PRESETS.items():
                cfg = load_train_config(preset).with_overrides(**TINY)
                runs.append(train(cfg, Path(tmp) / f"{system}-run", progress=False, config_source="benchmark"))
        for k, run in enumerate(runs):
            bundle = Path(tmp) / f"bundle-{k}"
            export_bundle(run, bundle, fights=20)
            results.append(measure(Path(run), bundle, args.calls))
    from npc_tactics.training.run_dir import package_versions

    out = {"calls": args.calls, "threads": 1, "packages": package_versions(("torch", "onnxruntime", "sb3-contrib")),
           "results": results}
    if args.json:
        print(json.dumps(out, indent=2))
        return 0
    print(f"{'system':<10} {'obs':>4} {'acts':>4} {'ORT agent p50':>14} {'ORT raw p50':>12} {'SB3 predict p50':>16} "
          f"{'SB3 agent p50':>14} {'speed-up':>8} {'bundle':>9}")
    for r in results:
        lat = r["latency"]
        print(f"{r['system']:<10} {r['observation_size']:>4} {r['actions']:>4} "
              f"{lat['onnx_agent_probabilities']['p50_us']:>12.0f}us {lat['onnxruntime_session']['p50_us']:>10.0f}us "
              f"{lat['sb3_predict']['p50_us']:>14.0f}us {lat['sb3_agent_probabilities']['p50_us']:>12.0f}us "
              f"{r['speedup_predict_vs_onnx_agent']:>7.1f}x {r['bundle_bytes']['total'] / 1024:>7.0f}KiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
