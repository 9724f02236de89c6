"""Training speed: MaskablePPO fps on each system's Gymnasium env vs SB3 PPO fps on CartPole-v1.

Both use the same vec-env settings (DummyVecEnv, n_envs, n_steps, batch size, epochs, network) in
the same process, so the ratio cancels out the machine. fps counts environment timesteps per second
of ``learn`` (rollouts and gradient updates). Target for OSE: ratio >= 0.9.

    python benchmarks/training_fps.py [--json] [--timesteps N] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import pstats
import sys
import time
from typing import Any

import gymnasium as gym
import torch
from stable_baselines3 import PPO
from stable_baselines3.common.vec_env import DummyVecEnv

SETTINGS: dict[str, Any] = {
    "n_envs": 8,
    "n_steps": 128,
    "batch_size": 256,
    "n_epochs": 4,
    "net_arch": [64, 64],
}


def _fps(algo: Any, make_env: Any, timesteps: int, profile: bool = False) -> float:
    vec = DummyVecEnv([make_env for _ in range(SETTINGS["n_envs"])])
    vec.seed(0)
    model = algo(
        "MlpPolicy",
        vec,
        n_steps=SETTINGS["n_steps"],
        batch_size=SETTINGS["batch_size"],
        n_epochs=SETTINGS["n_epochs"],
        policy_kwargs={"net_arch": SETTINGS["net_arch"]},
        seed=0,
        device="cpu",
        verbose=0,
    )
    model.learn(SETTINGS["n_envs"] * SETTINGS["n_steps"])  # warm-up: first rollout, lazy imports
    prof = cProfile.Profile() if profile else None
    start = time.perf_counter()
    if prof is not None:
        prof.enable()
    model.learn(timesteps, reset_num_timesteps=False)
    if prof is not None:
        prof.disable()
        out = io.StringIO()
        pstats.Stats(prof, stream=out).sort_stats("cumulative").print_stats(25)
        print(out.getvalue(), file=sys.stderr)
    elapsed = time.perf_counter() - start
    vec.close()
    return timesteps / elapsed


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--timesteps", type=int, default=16384, help="timesteps measured per env")
    parser.add_argument("--profile", action="store_true", help="cProfile the system runs (to stderr)")
    args = parser.parse_args(argv)
    torch.set_num_threads(1)  # as in npc_tactics.training.train

    from sb3_contrib import MaskablePPO

    import npc_tactics.envs  # noqa: F401  (registers the ids)
    from npc_tactics.systems import available_systems

    cartpole = _fps(PPO, lambda: gym.make("CartPole-v1"), args.timesteps)
    result: dict[str, Any] = {
        "cartpole_fps": round(cartpole, 1),
        "settings": SETTINGS,
        "timesteps": args.timesteps,
        "systems": {},
    }
    for name, info in available_systems().items():
        fps = _fps(MaskablePPO, lambda gid=info.gym_id: gym.make(gid), args.timesteps, args.profile)
        result["systems"][name] = {
            "fps": round(fps, 1),
            "ratio": round(fps / cartpole, 3),
            "scenario": info.default_scenario,
        }
    if args.json:
        print(json.dumps(result))
    else:
        print(f"CartPole-v1 PPO: {cartpole:,.0f} fps  (settings {SETTINGS})")
        for name, row in result["systems"].items():
            if "error" in row:
                print(f"{name:10s} skipped: {row['error']}")
                continue
            print(f"{name:10s} MaskablePPO: {row['fps']:,.0f} fps  ratio {row['ratio']:.2f} ({row['scenario']})")
    return result


if __name__ == "__main__":
    main()
