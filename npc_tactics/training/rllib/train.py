"""One RLlib training segment into a run folder (called by :func:`npc_tactics.training.train.train`).

The SB3 trainer has already resolved the config, locked the folder, written ``config.yaml`` and
``args.yaml``, and chosen the segment seed; this module builds the RLlib PPO algorithm on Ray, restores the
latest checkpoint on ``--resume``, and loops ``algo.train()`` (one PPO update per iteration) until the budget,
evaluating and checkpointing on the same ``budget.eval_every`` / ``checkpoint_every`` marks as SB3. What it
writes is the run folder of :mod:`npc_tactics.runs`, so every reader treats the run like an SB3 one:

* ``policy.pt`` and ``checkpoints/ckpt_<steps>.policy.pt``: the module's weights under SB3 names
  (:func:`~npc_tactics.training.rllib.module.sb3_state_dict`), read by ``evaluate``, ``export``, ``suggest``;
* ``checkpoints/ckpt_<steps>.rllib/``: RLlib's own checkpoint (module, optimizer, counters), for resume only;
  written to a temporary folder and renamed, then the json is written last, so a kill never leaves a
  checkpoint that counts but is partial. RLlib checkpoints contain pickles: resume reads them (your own
  run); playing a run never does;
* ``eval_history.csv`` (the learning curve, same seeds as SB3), ``meta.json`` (``backend: rllib``, Ray
  version, segments), ``tb/`` (TensorBoard scalars per iteration).

Iterations are whole PPO updates, so the run stops at the first update that reaches the budget (up to one
update past it) and the evaluation and checkpoint marks are hit at the first update past each mark.
"""

from __future__ import annotations

import dataclasses
import hashlib
import logging
import os
import shutil
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from npc_tactics.configs.files import read_bytes
from npc_tactics.errors import UserError
from npc_tactics.runs import MAX_TENSOR_BYTES, POLICY_FILE, Checkpoint, RunDir
from npc_tactics.training.config import TrainConfig
from npc_tactics.training.rllib import RayOptions
from npc_tactics.training.run_dir import (
    append_eval_rows,
    atomic_write_bytes,
    git_sha,
    package_versions,
    read_checkpoint_record,
    read_eval_rows,
    read_json_object,
    read_meta,
    tensor_bytes,
    truncate_eval_rows,
    write_json,
)

__all__ = ["TB_NAME", "train_segment"]

TB_NAME = "RLlibPPO"
PARTIAL = ".partial"  #: suffix of an RLlib checkpoint folder still being written (removed on the next start)


def _no_usage_tags() -> None:
    """With usage stats off (``RAY_USAGE_STATS_ENABLED=0``, as :func:`~npc_tactics.cluster.ray_session` sets
    them), RLlib still records its usage tags at every ``build_algo`` through a driver-to-GCS call that has no
    timeout; on a loaded machine one such call never returned (a CI run, and once more here), hanging training
    beyond any test timeout since it blocks in C. Off means off: the tags are not recorded."""
    if os.environ.get("RAY_USAGE_STATS_ENABLED") == "0":
        from ray.rllib.algorithms.algorithm import Algorithm

        Algorithm._record_usage = lambda self, config: None


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _sb3_policy(cfg: TrainConfig, state: dict[str, Any], obs_size: int, n_actions: int) -> Any:
    """An SB3 ``MaskableActorCriticPolicy`` holding ``state`` (what evaluation and ``policy.pt`` readers use)."""
    from npc_tactics.agents.policy import build_policy

    policy = build_policy(obs_size, n_actions, cfg.ppo.net_arch)
    policy.load_state_dict(state, strict=True)
    policy.set_training_mode(False)
    return policy


def write_rllib_checkpoint(run: Path, algo: Any, steps: int, state: dict[str, Any], bookkeeping: dict[str, Any],
                           keep: int) -> Path:
    """``ckpt_<steps>``: the RLlib folder (temp + rename), the SB3-named weights, then the json; prune to ``keep``."""
    folder = run / "checkpoints"
    folder.mkdir(parents=True, exist_ok=True)
    stem = f"ckpt_{steps:09d}"
    final = folder / f"{stem}.rllib"
    partial = folder / f"{stem}.rllib{PARTIAL}"
    shutil.rmtree(partial, ignore_errors=True)
    algo.save_to_path(str(partial.resolve()))
    shutil.rmtree(final, ignore_errors=True)
    partial.rename(final)
    weights = tensor_bytes(state)
    atomic_write_bytes(folder / f"{stem}.policy.pt", weights)
    record = dict(bookkeeping, timesteps=steps, backend="rllib", policy_sha256=_sha256(weights))
    write_json(folder / f"{stem}.json", record)
    for ckpt in RunDir(run).checkpoints()[:-keep]:
        ckpt.json_path.unlink(missing_ok=True)
        ckpt.policy_path.unlink(missing_ok=True)
        shutil.rmtree(ckpt.rllib_path, ignore_errors=True)
    return folder / f"{stem}.json"


def _remove_partial(run: Path) -> None:
    folder = run / "checkpoints"
    if folder.is_dir():
        for p in folder.glob(f"*{PARTIAL}"):
            shutil.rmtree(p, ignore_errors=True)


def _restore(algo: Any, ckpt: Checkpoint) -> None:
    if not ckpt.rllib_path.is_dir():
        raise UserError(f"{ckpt.json_path.parent}: checkpoint {ckpt.name} has no RLlib state ({ckpt.rllib_path.name}); "
                        "it was written by the sb3 backend, resume it without --backend rllib")
    record = read_checkpoint_record(ckpt)
    if record.get("policy_sha256") != _sha256(read_bytes(ckpt.policy_path, MAX_TENSOR_BYTES, "checkpoint file")):
        raise UserError(f"{ckpt.policy_path}: does not match the checksum recorded in {ckpt.json_path.name} "
                        "(damaged or edited); refusing to resume from it")
    algo.restore_from_path(str(ckpt.rllib_path.resolve()))


def _write_meta(run: Path, cfg: TrainConfig, env: Any, segment: dict[str, Any], config_source: str,
                options: RayOptions) -> None:
    meta_path = run / "meta.json"
    meta = read_meta(run)
    engine = env.session.engine
    meta.update({
        "system": cfg.system,
        "scenario": cfg.scenario,
        "encounter": cfg.encounter,
        "side": cfg.side,
        "seed": cfg.seed,
        "backend": "rllib",
        "spec": {"name": engine.spec.name, "version": engine.spec.version},
        "action_names": list(engine.catalogue.names),
        "observation_size": int(env.session.encoder.size),
        "weights": {"file": POLICY_FILE,
                    "format": "torch.save of an SB3 MaskableActorCriticPolicy state_dict (the RLlib module's "
                              "weights: same layers, same names)",
                    "net_arch": list(cfg.ppo.net_arch)},
        "git_sha": git_sha(),
        "packages": package_versions() | package_versions(("ray",)),
        "config_source": meta.get("config_source") or config_source,
        "created": meta.get("created", _now()),
        "finished": False,
    })
    meta.setdefault("segments", []).append(dict(segment, spec_version=engine.spec.version,
                                                address=options.address or "local",
                                                num_env_runners=options.num_env_runners))
    write_json(meta_path, meta)


def train_segment(cfg: TrainConfig, run: Path, ckpts: list[Checkpoint], seg_seed: int, *,
                  say: Callable[[str], None], progress: bool, config_source: str,
                  options: RayOptions | None = None) -> Path:
    """Train ``cfg`` from the latest of ``ckpts`` (or from scratch) to ``budget.timesteps``; see the module
    docstring. Runs under the caller's run-folder lock."""
    import numpy as np
    import torch

    from npc_tactics.cluster import ray_session
    from npc_tactics.evaluation.arena import progress_bar
    from npc_tactics.training.curves import plot_learning_curve
    from npc_tactics.training.envs import eval_opponents
    from npc_tactics.training.evaluate import evaluate_policy
    from npc_tactics.training.rllib.algo import env_config, ppo_config
    from npc_tactics.training.rllib.env import POLICY_ID, NpcSideEnv
    from npc_tactics.training.rllib.module import sb3_state_dict
    from npc_tactics.training.rllib.selfplay import Marks, SelfPlay

    logging.getLogger("ray.rllib").setLevel(logging.ERROR)  # RLlib's notices would break the progress bar
    options = options or RayOptions()
    if options.address is None and options.num_cpus is None:  # a local instance: room for every runner
        options = dataclasses.replace(options, num_cpus=max(os.cpu_count() or 1, options.num_env_runners))
    _remove_partial(run)
    torch.set_num_threads(1)
    torch.manual_seed(seg_seed)
    np.random.seed(seg_seed % (2**32))
    probe = NpcSideEnv(env_config(cfg))
    yardsticks = eval_opponents(cfg, probe.learner.opponent_pool)
    obs_size, n_actions = int(probe.session.encoder.size), int(probe.session.n_actions)
    start_steps = ckpts[-1].timesteps if ckpts else 0
    eval_path = run / "eval_history.csv"
    budget = cfg.budget
    bookkeeping = {"seed": cfg.seed, "segment_seed": seg_seed}

    with ray_session(options):
        _no_usage_tags()
        algo = ppo_config(cfg, options.num_env_runners, seg_seed).build_algo()
        try:
            if ckpts:
                say(f"resuming {run} from {ckpts[-1].name} ({start_steps} timesteps)")
                _restore(algo, ckpts[-1])
                truncate_eval_rows(eval_path, start_steps)
            elif eval_path.exists():
                eval_path.unlink()
            _write_meta(run, cfg, probe, {"start_timesteps": start_steps, "seed": seg_seed, "started": _now(),
                                          "resumed_from": ckpts[-1].name if ckpts else None},
                        config_source, options)
            steps, iterations = start_steps, 0

            def weights() -> dict[str, Any]:
                return sb3_state_dict(algo.get_module(POLICY_ID))

            def evaluate(state: dict[str, Any]) -> None:
                policy = _sb3_policy(cfg, state, obs_size, n_actions)
                rows = []
                for label, opponent in yardsticks:
                    row = evaluate_policy(policy, cfg, opponent, budget.eval_episodes, cfg.seed)
                    row["opponent"] = label
                    row["timesteps"] = steps
                    rows.append(row)
                append_eval_rows(eval_path, rows)
                plot_learning_curve(run)

            def checkpoint() -> None:
                write_rllib_checkpoint(run, algo, steps, weights(), dict(bookkeeping, iterations=iterations),
                                      budget.keep_checkpoints)

            writer = _tensorboard(run, ckpts)
            eval_marks, ckpt_marks = Marks(budget.eval_every, start_steps), Marks(budget.checkpoint_every,
                                                                                    start_steps)
            snapshots = SelfPlay(algo, run, probe.pool, start_steps, bool(ckpts), say)
            snapshots.start(weights)
            if not ckpts:
                evaluate(weights())  # the untrained baseline: first point of the learning curve
            try:
                with progress_bar(max(0, budget.timesteps - start_steps), f"{cfg.system}/{cfg.label()} (rllib)",
                                  progress) as advance:
                    while steps < budget.timesteps:
                        result = algo.train()
                        done = int(result["env_runners"]["num_env_steps_sampled"])
                        steps += done
                        iterations += 1
                        advance(done)
                        _log(writer, result, steps)
                        snapshots.after_update(steps, weights)
                        if eval_marks.due(steps):
                            evaluate(weights())
                        if ckpt_marks.due(steps):
                            checkpoint()
            except KeyboardInterrupt:
                checkpoint()
                say(f"[yellow]interrupted at {steps} timesteps; checkpoint saved; continue with --resume --out {run}")
                raise
            finally:
                if writer is not None:
                    writer.close()
            state = weights()
            rows = read_eval_rows(eval_path)
            if not rows or int(rows[-1]["timesteps"]) != steps:
                evaluate(state)
            checkpoint()
            atomic_write_bytes(run / POLICY_FILE, tensor_bytes(state))
            self_play = snapshots.record()
        finally:
            algo.stop()
    meta = read_json_object(run / "meta.json", "meta.json")
    meta.update({"finished": True, "timesteps": steps, "finished_at": _now()})
    if self_play is not None:
        meta["segments"][-1]["self_play"] = self_play
    write_json(run / "meta.json", meta)
    return run


def _tensorboard(run: Path, ckpts: list[Checkpoint]) -> Any:
    """A TensorBoard writer under ``tb/RLlibPPO_<segment>`` (None if tensorboard cannot be imported)."""
    try:
        from torch.utils.tensorboard import SummaryWriter
    except ImportError:  # pragma: no cover - tensorboard is a core dependency
        return None
    k = 1
    while (run / "tb" / f"{TB_NAME}_{k}").exists():
        k += 1
    return SummaryWriter(str(run / "tb" / f"{TB_NAME}_{k}"))


def _log(writer: Any, result: dict[str, Any], steps: int) -> None:
    if writer is None:
        return
    runners = result.get("env_runners", {})
    for key in ("episode_return_mean", "episode_len_mean", "num_env_steps_sampled_lifetime_throughput"):
        value = runners.get(key)
        if isinstance(value, int | float):
            writer.add_scalar(f"rollout/{key}", float(value), steps)
    learner = result.get("learners", {}).get("npc", {})
    for key in ("policy_loss", "vf_loss", "entropy", "mean_kl_loss", "curr_lr"):
        value = learner.get(key)
        if isinstance(value, int | float):
            writer.add_scalar(f"train/{key}", float(value), steps)
