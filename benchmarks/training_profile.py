"""Where a training step goes: cProfile of MaskablePPO ``learn`` per system and vec-env backend.

Cumulative seconds of the calls that matter, after a one-rollout warm-up, with the settings of
``benchmarks/training_fps.py``: ``collect`` (rollout collection) and ``train`` (gradient updates) inside ``learn``;
inside collection ``env_step`` (``VecEnv.step``), ``masks`` (``get_action_masks``) and ``policy_forward``; inside
the env ``engine_step`` (rules), ``legal_mask``, ``encode`` (the learner's observation), ``new_combat`` (episode
starts) and ``agent_act`` (the scripted opponents' decisions). cProfile inflates Python-heavy code, so read the
shares, not the totals; speed itself is ``training_fps.py``.

    python benchmarks/training_profile.py [--json] [--timesteps N] [--systems ose,mrq] [--backends dummy,native]
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
from typing import Any

import torch

#: name -> (file suffix, function name) of the calls whose cumulative time is reported
CALLS = {
    "learn": ("ppo_mask.py", "learn"),
    "collect": ("ppo_mask.py", "collect_rollouts"),
    "train": ("ppo_mask.py", "train"),
    "env_step": ("base_vec_env.py", "step"),
    "masks": ("maskable/utils.py", "get_action_masks"),
    "policy_forward": ("maskable/policies.py", "forward"),
    "engine_step": ("rules/base.py", "step"),
    "new_combat": ("rules/base.py", "new_combat"),
    "encode": ("encoders/base.py", "encode_into"),
    "encode_alloc": ("encoders/base.py", "encode"),
}


def profile(system: str, backend: str, timesteps: int) -> dict[str, float]:
    from sb3_contrib import MaskablePPO
    from training_fps import SETTINGS  # the sibling script (run from benchmarks/ as sys.path[0]): same settings

    from npc_tactics.training.config import TrainConfig, validate_names
    from npc_tactics.training.envs import make_vec_env

    vec = make_vec_env(validate_names(TrainConfig(system=system)), 0, n_envs=SETTINGS["n_envs"], backend=backend)
    model = MaskablePPO("MlpPolicy", vec, n_steps=SETTINGS["n_steps"], batch_size=SETTINGS["batch_size"],
                        n_epochs=SETTINGS["n_epochs"], policy_kwargs={"net_arch": SETTINGS["net_arch"]}, seed=0,
                        device="cpu")
    model.learn(SETTINGS["n_envs"] * SETTINGS["n_steps"])
    prof = cProfile.Profile()
    prof.enable()
    model.learn(timesteps, reset_num_timesteps=False)
    prof.disable()
    vec.close()
    row: dict[str, float] = {"agent_act": 0.0, "legal_mask": 0.0}
    stats: dict[Any, Any] = pstats.Stats(prof).stats  # type: ignore[attr-defined,unused-ignore]  # untyped table
    for (file, _line, fn), (_cc, _nc, _tt, cumulative, _callers) in stats.items():
        for name, (suffix, function) in CALLS.items():
            if file.endswith(suffix) and fn == function:
                row[name] = max(row.get(name, 0.0), cumulative)
        if ("/agents/" in file or file.endswith("/agents.py")) and fn == "act":  # the kit or a system's agents
            row["agent_act"] += cumulative
        if "/rules/" in file and fn == "legal_mask":
            row["legal_mask"] = max(row["legal_mask"], cumulative)
    return {k: round(v, 3) for k, v in row.items()}


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--timesteps", type=int, default=5120, help="profiled timesteps per run")
    parser.add_argument("--systems", default="ose,runequest,mrq,dicepool")
    parser.add_argument("--backends", default="dummy,native")
    args = parser.parse_args(argv)
    torch.set_num_threads(1)
    result: dict[str, Any] = {"timesteps": args.timesteps, "runs": {}}
    for system in args.systems.split(","):
        for backend in args.backends.split(","):
            row = profile(system, backend, args.timesteps)
            result["runs"][f"{system}/{backend}"] = row
            if not args.json:
                total = row.get("learn") or 1.0
                shares = ", ".join(f"{k} {v / total:.0%}" for k, v in row.items() if k != "learn")
                print(f"{system:10s} {backend:6s} learn {total:.2f} s: {shares}", flush=True)
    if args.json:
        print(json.dumps(result))
    return result


if __name__ == "__main__":
    main()
