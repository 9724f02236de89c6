"""Training speed: MaskablePPO fps on each system vs SB3 PPO fps on CartPole-v1, measured in the same run.

Every run uses the same settings (n_envs, n_steps, batch size, epochs, network, one torch thread, CPU), so the
ratio cancels out the machine. fps counts environment timesteps per second of ``learn`` (rollouts and
gradient updates), after a one-rollout warm-up. Each system is measured on both training vec-env backends of
:func:`npc_tactics.training.envs.make_vec_env`: ``dummy`` (the Gymnasium env + Monitor in a DummyVecEnv, the
path before the native env) and ``native`` (:class:`~npc_tactics.training.vec_env.TacticsVecEnv`, the
default), against the system's default scenario and training config (by-the-book opponent). CartPole is
measured before and after the systems; the ratio uses the mean of the two runs (both are reported: their
spread says how steady the machine was). Target: ratio >= 0.7 on the native backend for every system.

The split says where ``learn`` goes: ``collect`` (rollout collection) vs ``train`` (gradient updates), and,
inside collection, ``env`` (``VecEnv.step`` plus the action masks) vs ``policy`` (the rest: forward pass,
sampling, rollout buffer, callbacks). It comes from timers around those calls, not from a profiler.

    python benchmarks/training_fps.py [--json] [--timesteps N] [--backend native|dummy|both]
                                      [--systems ose,mrq] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import pstats
import sys
import time
from collections.abc import Callable
from typing import Any

import gymnasium as gym
import numpy as np
import torch
from stable_baselines3 import PPO
from stable_baselines3.common.vec_env import DummyVecEnv, VecEnv

SETTINGS: dict[str, Any] = {
    "n_envs": 8,
    "n_steps": 128,
    "batch_size": 256,
    "n_epochs": 4,
    "net_arch": [64, 64],
}
TARGET = 0.7


class _Timer:
    """Accumulates the wall time of the calls it wraps."""

    def __init__(self) -> None:
        self.seconds = 0.0

    def wrap(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                self.seconds += time.perf_counter() - start

        return timed


def _measure(algo: Any, vec: VecEnv, timesteps: int, profile: bool = False) -> dict[str, Any]:
    """fps of ``learn(timesteps)`` on ``vec`` and the split of its time."""
    vec.seed(0)
    model = algo("MlpPolicy", vec, n_steps=SETTINGS["n_steps"], batch_size=SETTINGS["batch_size"],
                 n_epochs=SETTINGS["n_epochs"], policy_kwargs={"net_arch": SETTINGS["net_arch"]}, seed=0,
                 device="cpu", verbose=0)
    model.learn(SETTINGS["n_envs"] * SETTINGS["n_steps"])  # warm-up: first rollout, lazy imports
    collect, train, env = _Timer(), _Timer(), _Timer()
    model.collect_rollouts = collect.wrap(model.collect_rollouts)
    model.train = train.wrap(model.train)
    vec.step = env.wrap(vec.step)  # type: ignore[method-assign]
    vec.env_method = env.wrap(vec.env_method)  # type: ignore[method-assign]  # the action masks
    prof = cProfile.Profile() if profile else None
    start = time.perf_counter()
    if prof is not None:
        prof.enable()
    model.learn(timesteps, reset_num_timesteps=False)
    if prof is not None:
        prof.disable()
    elapsed = time.perf_counter() - start
    vec.close()
    if prof is not None:
        out = io.StringIO()
        pstats.Stats(prof, stream=out).sort_stats("tottime").print_stats(30)
        print(out.getvalue(), file=sys.stderr)

    def share(seconds: float) -> float:
        return round(seconds / elapsed, 3)

    return {"fps": round(timesteps / elapsed, 1),
            "split": {"collect": share(collect.seconds), "train": share(train.seconds),
                      "env": share(env.seconds), "policy": share(collect.seconds - env.seconds),
                      "env_us_per_step": round(1e6 * env.seconds / timesteps, 1)}}


def _cartpole(timesteps: int) -> dict[str, Any]:
    vec = DummyVecEnv([lambda: gym.make("CartPole-v1") for _ in range(SETTINGS["n_envs"])])
    return _measure(PPO, vec, timesteps)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--timesteps", type=int, default=16384, help="timesteps measured per run")
    parser.add_argument("--backend", choices=("native", "dummy", "both"), default="both",
                        help="training vec env(s) to measure (default: both, before and after)")
    parser.add_argument("--systems", default="", help="comma-separated systems (default: all)")
    parser.add_argument("--profile", action="store_true", help="cProfile each system run (to stderr)")
    args = parser.parse_args(argv)
    torch.set_num_threads(1)  # as in npc_tactics.training.train

    from sb3_contrib import MaskablePPO

    from npc_tactics.registry import available_systems
    from npc_tactics.training.config import TrainConfig, validate_names
    from npc_tactics.training.envs import make_vec_env

    systems = available_systems()
    names = [s for s in args.systems.split(",") if s] or list(systems)
    backends = ["dummy", "native"] if args.backend == "both" else [args.backend]
    first = _cartpole(args.timesteps)
    rows: dict[str, Any] = {}
    for name in names:
        config = validate_names(TrainConfig(system=name))
        row: dict[str, Any] = {"scenario": config.scenario, "opponents": config.opponents}
        for backend in backends:
            vec = make_vec_env(config, 0, n_envs=SETTINGS["n_envs"], backend=backend)
            row[backend] = _measure(MaskablePPO, vec, args.timesteps, args.profile)
        rows[name] = row
    last = _cartpole(args.timesteps)
    cartpole = float(np.mean([first["fps"], last["fps"]]))
    for row in rows.values():
        for backend in backends:
            row[backend]["ratio"] = round(row[backend]["fps"] / cartpole, 3)
    result: dict[str, Any] = {"cartpole_fps": round(cartpole, 1), "cartpole_runs": [first, last],
                              "settings": SETTINGS, "timesteps": args.timesteps, "target": TARGET,
                              "systems": rows}
    if args.json:
        print(json.dumps(result))
        return result
    print(f"CartPole-v1 PPO: {cartpole:,.0f} fps (runs {first['fps']:,.0f} and {last['fps']:,.0f}; "
          f"settings {SETTINGS}; split {first['split']})")
    for name, row in rows.items():
        for backend in backends:
            r = row[backend]
            s = r["split"]
            print(f"{name:10s} {backend:6s} MaskablePPO {r['fps']:7,.0f} fps  ratio {r['ratio']:.2f}  "
                  f"collect {s['collect']:.0%} (env {s['env']:.0%}, policy {s['policy']:.0%}) "
                  f"train {s['train']:.0%}  env {s['env_us_per_step']:.0f} us/step  ({row['scenario']})")
    return result


if __name__ == "__main__":
    main()
