"""``train(config)``: MaskablePPO on a system's Gymnasium env, with a run folder and resume.

Reads top to bottom like CleanRL's ``ppo.py``: resolve the config and the run folder, seed, build
the vec env, create (or load) the model, learn with callbacks (progress, evaluation, checkpoints),
save the final model. The run folder layout is documented in :mod:`npc_tactics.training.run_dir`.

Seeding: each training *segment* (the first start, then every resume) has its own seed, derived from
the config seed and the timestep it starts at, recorded in ``meta.json``. Global seeding
(``set_random_seed``) happens here and nowhere else in the library. A resumed run is reproducible
from its checkpoint, but not bit-identical to an uninterrupted run (the workers start fresh episodes
at the resume point).
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from npc_tactics.configs import load_yaml
from npc_tactics.errors import UserError
from npc_tactics.training.config import TrainConfig, as_schedule, parse_train_config, validate_names
from npc_tactics.training.curves import plot_learning_curve
from npc_tactics.training.run_dir import (
    append_eval_rows,
    checkpoint_paths,
    default_run_dir,
    git_sha,
    latest_run_dir,
    package_versions,
    read_eval_rows,
    read_json,
    remove_stale_temp_files,
    save_model_atomic,
    truncate_eval_rows,
    write_checkpoint,
    write_json,
    write_yaml,
)

__all__ = ["train", "segment_seed"]

TB_NAME = "MaskablePPO"


def segment_seed(seed: int, start_timesteps: int) -> int:
    """The seed of a training segment starting at ``start_timesteps`` (the config seed for a fresh
    run)."""
    if start_timesteps == 0:
        return seed
    return int(np.random.SeedSequence([seed, start_timesteps]).generate_state(1)[0] % (2**31 - 1))


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _config_diff(a: TrainConfig, b: TrainConfig, ignore: tuple[str, ...]) -> list[str]:
    """Dotted fields whose values differ between two configs (for the resume warning)."""

    def flat(d: Any, prefix: str = "") -> dict[str, Any]:
        if isinstance(d, dict):
            out: dict[str, Any] = {}
            for k, v in d.items():
                out.update(flat(v, f"{prefix}{k}."))
            return out
        return {prefix[:-1]: d}

    fa, fb = flat(a.to_yaml_dict()), flat(b.to_yaml_dict())
    return sorted(k for k in set(fa) | set(fb) if fa.get(k) != fb.get(k) and k not in ignore)


def _prepare_run(
    config: TrainConfig,
    out_dir: Path | None,
    resume: bool,
    timesteps: int | None,
    seed: int | None,
    say: Any,
) -> tuple[TrainConfig, Path]:
    """Resolve the effective config and the run folder (fresh, or the existing one to resume)."""
    config = validate_names(config)
    assert config.scenario is not None
    if resume:
        run = out_dir or latest_run_dir(config.system, config.scenario)
        if run is None or not (run / "config.yaml").is_file():
            raise UserError(f"{run or 'runs/'}: nothing to resume (no run folder with config.yaml)")
        saved = parse_train_config(load_yaml(run / "config.yaml"), str(run / "config.yaml"))
        target = timesteps if timesteps is not None else config.budget.timesteps
        diff = _config_diff(saved, config, ("budget.timesteps", "seed", "description"))
        if diff:
            changed = ", ".join(diff)
            say(f"[yellow]resume: keeping the run's saved config; ignoring edits to {changed}")
        effective = saved.with_overrides(**{"budget.timesteps": target})
        return effective, run
    run = out_dir or default_run_dir(config.system, config.scenario)
    if (run / "config.yaml").exists() or checkpoint_paths(run) or (run / "model.zip").exists():
        raise UserError(
            f"{run}: a training run already exists there; pass --resume to continue it or choose another --out"
        )
    changes: dict[str, Any] = {}
    if timesteps is not None:
        changes["budget.timesteps"] = timesteps
    if seed is not None:
        changes["seed"] = seed
    return config.with_overrides(**changes) if changes else config, run


def _new_model(config: TrainConfig, vec: Any, run: Path, seed: int) -> Any:
    from sb3_contrib import MaskablePPO

    ppo = config.ppo
    return MaskablePPO(
        "MlpPolicy",
        vec,
        learning_rate=as_schedule(ppo.learning_rate),
        n_steps=ppo.n_steps,
        batch_size=ppo.batch_size,
        n_epochs=ppo.n_epochs,
        gamma=ppo.gamma,
        gae_lambda=ppo.gae_lambda,
        ent_coef=ppo.ent_coef,
        clip_range=as_schedule(ppo.clip_range),
        vf_coef=ppo.vf_coef,
        max_grad_norm=ppo.max_grad_norm,
        policy_kwargs={"net_arch": list(ppo.net_arch)},
        tensorboard_log=str(run / "tb"),
        seed=seed,
        device="cpu",
        verbose=0,
    )


def _write_meta(run: Path, config: TrainConfig, vec: Any, segment: dict[str, Any], config_source: str) -> None:
    meta_path = run / "meta.json"
    meta = read_json(meta_path) if meta_path.is_file() else {}
    env = vec.envs[0].unwrapped
    engine = env.session.engine
    meta.update(
        {
            "system": config.system,
            "scenario": config.scenario,
            "side": config.side,
            "seed": config.seed,
            "spec": {"name": engine.spec.name, "version": engine.spec.version},
            "action_names": list(engine.catalogue.names),
            "observation_size": int(env.observation_space.shape[0]),
            "git_sha": git_sha(),
            "packages": package_versions(),
            "config_source": meta.get("config_source") or config_source,
            "created": meta.get("created", _now()),
            "finished": False,
        }
    )
    meta.setdefault("segments", []).append(segment)
    write_json(meta_path, meta)


def train(
    config: TrainConfig,
    out_dir: Path | None = None,
    *,
    resume: bool = False,
    timesteps: int | None = None,
    seed: int | None = None,
    progress: bool = True,
    config_source: str = "",
) -> Path:
    """Train MaskablePPO as ``config`` says and return the run folder.

    ``timesteps``/``seed`` override the config's budget and seed (recorded in ``args.yaml``). With
    ``resume=True`` the run in ``out_dir`` (default: the latest ``runs/<system>-<scenario>-*``)
    continues from its latest complete checkpoint to the budget, appending to its eval history; its
    saved config wins over ``config`` except for ``budget.timesteps``. On ``KeyboardInterrupt`` a
    checkpoint is written and the interrupt re-raised, so ``--resume`` picks up from there. Raises
    :class:`UserError` for a bad run folder.
    """
    import torch
    from rich.console import Console
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import CallbackList
    from stable_baselines3.common.utils import set_random_seed

    from npc_tactics.training.callbacks import (
        EveryNSteps,
        OutcomeStatsCallback,
        RichProgressCallback,
        RolloutMark,
    )
    from npc_tactics.training.envs import make_vec_env, resolve_opponents
    from npc_tactics.training.evaluate import evaluate_policy

    console = Console(stderr=True)

    def say(msg: str) -> None:
        if progress:
            console.print(msg)

    out = Path(out_dir) if out_dir is not None else None
    cfg, run = _prepare_run(config, out, resume, timesteps, seed, say)
    run.mkdir(parents=True, exist_ok=True)
    remove_stale_temp_files(run)
    write_yaml(run / "config.yaml", cfg.to_yaml_dict())
    args_path = run / "args.yaml"
    history = load_yaml(args_path) if args_path.is_file() else []
    history = history if isinstance(history, list) else []
    history.append(
        {
            "time": _now(),
            "config": config_source,
            "out": str(out) if out else None,
            "resume": resume,
            "timesteps": timesteps,
            "seed": seed,
        }
    )
    write_yaml(args_path, history)

    ckpts = checkpoint_paths(run) if resume else []
    start_steps = ckpts[-1][0] if ckpts else 0
    seg_seed = segment_seed(cfg.seed, start_steps)
    set_random_seed(seg_seed)
    # tiny MLPs: one thread is fastest, and the machine's other core runs other work
    torch.set_num_threads(1)

    opponents = resolve_opponents(cfg, seg_seed)
    vec = make_vec_env(cfg, seg_seed, opponents=opponents)
    eval_path = run / "eval_history.csv"
    if ckpts:
        say(f"resuming {run} from {ckpts[-1][1].name} ({start_steps} timesteps)")
        model = MaskablePPO.load(ckpts[-1][1], env=vec, device="cpu", tensorboard_log=str(run / "tb"))
        model.set_random_seed(seg_seed)
        truncate_eval_rows(eval_path, start_steps)
    else:
        if resume:
            say(f"[yellow]{run}: no checkpoint yet; starting from 0 timesteps")
        if eval_path.exists():
            eval_path.unlink()
        model = _new_model(cfg, vec, run, seg_seed)
    _write_meta(
        run,
        cfg,
        vec,
        {
            "start_timesteps": start_steps,
            "seed": seg_seed,
            "started": _now(),
            "resumed_from": ckpts[-1][1].name if ckpts else None,
        },
        config_source,
    )

    budget = cfg.budget
    bookkeeping = {"seed": cfg.seed, "segment_seed": seg_seed}

    def evaluate(m: Any) -> None:
        rows = []
        for k, opp in enumerate(opponents):
            row = evaluate_policy(m, cfg, opp, budget.eval_episodes, cfg.seed)
            row["opponent"] = cfg.opponents[k]
            row["timesteps"] = int(m.num_timesteps)
            if getattr(m, "_logger", None) is not None:
                m.logger.record(f"eval/win_rate/{Path(cfg.opponents[k]).name}", row["win_rate"])
            rows.append(row)
        append_eval_rows(eval_path, rows)
        plot_learning_curve(run)

    def checkpoint(m: Any) -> None:
        write_checkpoint(run, m, bookkeeping, budget.keep_checkpoints)

    stats = OutcomeStatsCallback()
    mark = RolloutMark()
    callbacks: list[Any] = [
        mark,
        stats,
        EveryNSteps(budget.eval_every, evaluate),
        EveryNSteps(budget.checkpoint_every, checkpoint),
    ]
    bar = RichProgressCallback(budget.timesteps, stats, f"{cfg.system}/{cfg.scenario}") if progress else None
    if bar is not None:
        callbacks.append(bar)

    remaining = budget.timesteps - int(model.num_timesteps)
    try:
        if not ckpts:
            evaluate(model)  # the untrained baseline: first point of the learning curve
        if remaining > 0:
            model.learn(
                total_timesteps=remaining,
                callback=CallbackList(callbacks),
                tb_log_name=TB_NAME,
                reset_num_timesteps=not ckpts,
                progress_bar=False,
            )
    except KeyboardInterrupt:
        if bar is not None:
            bar.close()
        model.num_timesteps = max(mark.steps, start_steps)
        checkpoint(model)
        console.print(  # always, even without a progress bar: the user must know how to go on
            f"[yellow]interrupted at {model.num_timesteps} timesteps; checkpoint saved; "
            f"continue with --resume --out {run}"
        )
        raise
    finally:
        vec.close()

    rows = read_eval_rows(eval_path)
    if not rows or int(rows[-1]["timesteps"]) != int(model.num_timesteps):
        evaluate(model)
    checkpoint(model)
    save_model_atomic(model, run / "model.zip")
    meta = read_json(run / "meta.json")
    meta.update({"finished": True, "timesteps": int(model.num_timesteps), "finished_at": _now()})
    write_json(run / "meta.json", meta)
    return run
