"""Ray figures (docs/scale.md): RLlib PPO env steps/s against the SB3 path on the same scenario and config, with
0, 1 and 2 env runners; and the wall time of one tournament played locally and through Ray with 2 workers.

Training: both backends train the same preset (its PPO settings and ``budget.n_envs``) in this process, after a
warm-up update; steps/s counts env steps (NPC decisions) per second of training (sampling + updates). The Ray
instance is local (``num_cpus`` = max(cores, runners)), started before timing. Tournament: ``--fights`` fights
in all over the pairings of ``--agents`` (scripted, so no policy loading), played by the lockstep runner in 1
and 2 local processes and by ``RayExecutor(2)``, whose time is given with and without starting Ray; every
results.json must be identical (the script fails otherwise).

    python benchmarks/ray_scale.py [--json] [--preset ose_goblin_duel] [--iterations 3] [--fights 20000]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any


def sb3_steps_per_s(cfg: Any, timesteps: int) -> float:
    import torch

    from npc_tactics.training.envs import make_vec_env
    from npc_tactics.training.train import _new_model

    torch.set_num_threads(1)
    with tempfile.TemporaryDirectory() as tmp:
        vec = make_vec_env(cfg, 0)
        model = _new_model(cfg, vec, Path(tmp), 0)
        model.tensorboard_log = None
        model.learn(cfg.ppo.n_steps * cfg.budget.n_envs)  # warm-up
        start = time.perf_counter()
        model.learn(timesteps, reset_num_timesteps=False)
        elapsed = time.perf_counter() - start
        vec.close()
    return timesteps / elapsed


def rllib_steps_per_s(cfg: Any, runners: int, iterations: int) -> float:
    import torch

    from npc_tactics.training.rllib.algo import ppo_config

    torch.set_num_threads(1)
    algo = ppo_config(cfg, runners, seed=0).build_algo()
    try:
        algo.train()  # warm-up
        steps, start = 0, time.perf_counter()
        for _ in range(iterations):
            steps += int(algo.train()["env_runners"]["num_env_steps_sampled"])
        return steps / (time.perf_counter() - start)
    finally:
        algo.stop()


def tournament_seconds(system: str, agents: list[str], fights: int) -> dict[str, Any]:
    import ray

    from npc_tactics.cluster import RayExecutor
    from npc_tactics.evaluation.tournament import run_tournament

    pairings = len(agents) * (len(agents) - 1)
    per_pairing = max(1, fights // pairings)
    common: dict[str, Any] = {"progress": False, "plots": False, "command": "benchmark"}
    times: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        def timed(name: str, **kwargs: Any) -> None:
            start = time.perf_counter()
            run_tournament(system, None, agents, per_pairing, 0, Path(tmp) / name, **common, **kwargs)
            times[name] = round(time.perf_counter() - start, 2)

        timed("local_1_process_s", workers=1)
        timed("local_2_processes_s", workers=2)
        timed("ray_2_workers_s", executor=RayExecutor(2))  # starts and stops a local Ray instance
        ray.init(num_cpus=max(2, os.cpu_count() or 1), include_dashboard=False, log_to_driver=False)
        try:
            timed("ray_2_workers_running_s", executor=RayExecutor(2))
        finally:
            ray.shutdown()
        reference = (Path(tmp) / "local_1_process_s" / "results.json").read_bytes()
        same = all((Path(tmp) / name / "results.json").read_bytes() == reference for name in times)
    if not same:
        raise SystemExit("a tournament's results.json differs from the local one")
    return {"fights": per_pairing * pairings, "agents": agents, **times, "identical_results": same}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--preset", default="ose_goblin_duel")
    parser.add_argument("--iterations", type=int, default=3, help="measured RLlib updates per runner count")
    parser.add_argument("--runners", default="0,1,2")
    parser.add_argument("--fights", type=int, default=20_000)
    parser.add_argument("--system", default="ose")
    parser.add_argument("--agents", default="by-the-book,aggressive")
    parser.add_argument("--skip-training", action="store_true")
    args = parser.parse_args()
    import ray

    from npc_tactics.training.config import load_train_config

    out: dict[str, Any] = {"cores": os.cpu_count()}
    if not args.skip_training:
        cfg = load_train_config(args.preset)
        batch = cfg.ppo.n_steps * cfg.budget.n_envs
        sb3 = sb3_steps_per_s(cfg, batch * args.iterations)
        training: dict[str, Any] = {"preset": args.preset, "batch": batch, "sb3_steps_per_s": round(sb3, 1),
                                    "rllib": {}}
        runners = [int(r) for r in args.runners.split(",")]
        ray.init(num_cpus=max([os.cpu_count() or 1, *runners]), include_dashboard=False, log_to_driver=False)
        try:
            for n in runners:
                rate = rllib_steps_per_s(cfg, n, args.iterations)
                training["rllib"][str(n)] = {"steps_per_s": round(rate, 1), "vs_sb3": round(rate / sb3, 3)}
        finally:
            ray.shutdown()
        out["training"] = training
    out["tournament"] = tournament_seconds(args.system, args.agents.split(","), args.fights)
    if args.json:
        print(json.dumps(out, indent=2))
        return
    if "training" in out:
        t = out["training"]
        print(f"training {t['preset']} (batch {t['batch']}): SB3 {t['sb3_steps_per_s']} env steps/s")
        for n, row in t["rllib"].items():
            print(f"  RLlib, {n} env runners: {row['steps_per_s']} env steps/s ({row['vs_sb3']:.2f} x SB3)")
    r = out["tournament"]
    print(f"tournament, {r['fights']} fights: local {r['local_1_process_s']} s (1 process), "
          f"{r['local_2_processes_s']} s (2 processes); Ray 2 workers {r['ray_2_workers_s']} s (Ray already "
          f"running: {r['ray_2_workers_running_s']} s); identical results: {r['identical_results']}")


if __name__ == "__main__":
    sys.exit(main())
