"""``train(config)``: MaskablePPO on a system's Gymnasium env, with a run folder and resume.

Reads top to bottom like CleanRL's ``ppo.py``: resolve the config and the run folder, seed, build
the vec env, create (or load) the model, learn with callbacks (progress, evaluation, checkpoints),
save the final model. The run folder layout is documented in :mod:`npc_tactics.training.run_dir`.

Resume restores the policy and Adam state dicts and the counters from the latest checkpoint into a model
built from the run's config (no pickle is read; see :mod:`npc_tactics.training.run_dir`). A resume whose
config names another system, scenario, side or network than the run's is refused unless ``force``. The
run folder is locked (:mod:`npc_tactics.training.lock`) from before the first read to after the last write.

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
from npc_tactics.runs import POLICY_FILE, RunDir
from npc_tactics.training.config import TrainConfig, as_schedule, parse_train_config, validate_names
from npc_tactics.training.curves import plot_learning_curve
from npc_tactics.training.lock import RunLock
from npc_tactics.training.out_dir import CreatedRunDir, check_out_dir
from npc_tactics.training.rllib import RayOptions, require_ray
from npc_tactics.training.run_dir import (
    append_eval_rows,
    default_run_dir,
    git_sha,
    latest_run_dir,
    package_versions,
    read_checkpoint_record,
    read_eval_rows,
    read_json_object,
    read_meta,
    remove_stale_temp_files,
    restore_checkpoint,
    save_model_atomic,
    save_policy_atomic,
    truncate_eval_rows,
    write_checkpoint,
    write_json,
    write_yaml,
)

__all__ = ["train", "segment_seed", "RESUME_IDENTITY"]

TB_NAME = "MaskablePPO"
#: what a resumed run cannot change without ``force``: the policy would be trained for something else
RESUME_IDENTITY = ("system", "scenario", "encounter", "side", "ppo.net_arch")


def segment_seed(seed: int, start_timesteps: int) -> int:
    """The seed of a training segment starting at ``start_timesteps`` (the config seed for a fresh
    run)."""
    if start_timesteps == 0:
        return seed
    return int(np.random.SeedSequence([seed, start_timesteps]).generate_state(1)[0] % (2**31 - 1))


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _config_diff(a: TrainConfig, b: TrainConfig, ignore: tuple[str, ...]) -> list[str]:
    """Dotted fields whose values differ between two configs (for the resume checks)."""

    def flat(d: Any, prefix: str = "") -> dict[str, Any]:
        if isinstance(d, dict):
            out: dict[str, Any] = {}
            for k, v in d.items():
                out.update(flat(v, f"{prefix}{k}."))
            return out
        return {prefix[:-1]: d}

    fa, fb = flat(a.to_yaml_dict()), flat(b.to_yaml_dict())
    return sorted(k for k in set(fa) | set(fb) if fa.get(k) != fb.get(k) and k not in ignore)


def _run_path(config: TrainConfig, out_dir: Path | None, resume: bool) -> Path:
    """The run folder to write: ``out_dir``, the latest matching run (resume) or a new timestamped one."""
    if resume:
        run = out_dir or latest_run_dir(config.system, config.label())
        if run is None or not RunDir(run).is_run():
            raise UserError(f"{run or 'runs/'}: nothing to resume (no run folder with config.yaml)")
        return run
    run = out_dir or default_run_dir(config.system, config.label())
    if run.exists() and not run.is_dir():
        raise UserError(f"--out: {run} exists and is not a directory; choose another --out")
    return run


def _prepare_run(
    config: TrainConfig,
    run: Path,
    resume: bool,
    timesteps: int | None,
    seed: int | None,
    say: Any,
    force: bool = False,
) -> TrainConfig:
    """The effective config of ``run`` (a fresh one, or the saved one to resume); called under the lock."""
    folder = RunDir(run)
    if resume:
        saved = parse_train_config(folder.raw_config(), str(folder.config_path))
        target = timesteps if timesteps is not None else config.budget.timesteps
        diff = _config_diff(saved, config, ("budget.timesteps", "seed", "description"))
        identity = [k for k in diff if k in RESUME_IDENTITY or k.startswith("ppo.net_arch")]
        if identity and not force:
            what = "; ".join(f"{k}: run {_field(saved, k)!r}, config {_field(config, k)!r}" for k in identity)
            raise UserError(f"{run}: the config does not match the run to resume ({what}); use another --out "
                            "for a new run, or --force to continue this run with its own saved config")
        if diff:
            say(f"[yellow]resume: keeping the run's saved config; ignoring edits to {', '.join(diff)}")
        return saved.with_overrides(**{"budget.timesteps": target})
    if folder.config_path.exists() or folder.checkpoints() or folder.legacy_checkpoints() or \
            (run / "model.zip").exists() or folder.policy_path.exists():
        raise UserError(
            f"{run}: a training run already exists there; pass --resume to continue it or choose another --out"
        )
    changes: dict[str, Any] = {}
    if timesteps is not None:
        changes["budget.timesteps"] = timesteps
    if seed is not None:
        changes["seed"] = seed
    return config.with_overrides(**changes) if changes else config


def _field(config: TrainConfig, dotted: str) -> Any:
    node: Any = config.to_yaml_dict()
    for part in dotted.split("."):
        node = node.get(part) if isinstance(node, dict) else None
    return node


def _close_tensorboard(model: Any, points: Any) -> None:
    """Write what is still waiting (the final evaluation, what was recorded after ``learn``'s last dump) and stop
    the writer's thread."""
    points.flush(model)
    logger = getattr(model, "_logger", None)  # set by learn(); absent when a resume had nothing left to train
    if logger is not None:
        logger.dump(int(model.num_timesteps))
        logger.close()


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
    meta = read_meta(run)
    engine = vec.get_attr("session", [0])[0].engine  # either backend: the first worker's fight session
    meta.update(
        {
            "system": config.system,
            "scenario": config.scenario,
            "encounter": config.encounter,
            "side": config.side,
            "seed": config.seed,
            "spec": {"name": engine.spec.name, "version": engine.spec.version},
            "action_names": list(engine.catalogue.names),
            "observation_size": int(vec.observation_space.shape[0]),
            "weights": {"file": POLICY_FILE, "format": "torch.save of an SB3 MaskableActorCriticPolicy state_dict",
                        "net_arch": list(config.ppo.net_arch)},
            "git_sha": git_sha(),
            "packages": package_versions(),
            "config_source": meta.get("config_source") or config_source,
            "created": meta.get("created", _now()),
            "finished": False,
        }
    )
    meta.setdefault("segments", []).append(dict(segment, spec_version=engine.spec.version))
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
    force: bool = False,
    backend: str | None = None,
    ray_options: RayOptions | None = None,
) -> Path:
    """Train MaskablePPO as ``config`` says and return the run folder.

    ``backend`` overrides the config's (``rllib``: RLlib PPO on Ray, see :mod:`npc_tactics.training.rllib`,
    where ``ray_options`` says which cluster and how many env runners); a resumed run keeps its own.

    ``timesteps``/``seed`` override the config's budget and seed (recorded in ``args.yaml``). With
    ``resume=True`` the run in ``out_dir`` (default: the latest ``runs/<system>-<scenario>-*``)
    continues from its latest complete checkpoint to the budget, appending to its eval history; its
    saved config wins over ``config`` except for ``budget.timesteps``; a ``config`` of another system,
    scenario, side or ``ppo.net_arch`` is a UserError unless ``force``. The run folder is locked for the
    whole call (another train/resume of it is a UserError naming its PID). On ``KeyboardInterrupt`` a
    checkpoint is written and the interrupt re-raised, so ``--resume`` picks up from there. Raises
    :class:`UserError` for a bad run folder.
    """
    from rich.console import Console

    console = Console(stderr=True)

    def say(msg: str) -> None:
        if progress:
            console.print(msg)

    out = Path(out_dir) if out_dir is not None else None
    if backend is not None and backend != config.backend:
        config = config.with_overrides(backend=backend)
    config = validate_names(config)
    if config.backend == "rllib":
        from npc_tactics.training.rllib.algo import check_config

        check_config(config, config_source or "<config>")
        require_ray()
    check_out_dir(out, resume)
    run = _run_path(config, out, resume)
    with CreatedRunDir(run):  # a failed fresh run leaves no half folder; a failed write names its file
        run.mkdir(parents=True, exist_ok=True)
        with RunLock(run, say=lambda msg: console.print(msg, soft_wrap=True)):
            cfg = _prepare_run(config, run, resume, timesteps, seed, say, force)
            return _train_locked(cfg, run, console, say, resume=resume, out=out, timesteps=timesteps,
                                 seed=seed, progress=progress, config_source=config_source, ray_options=ray_options)


def _train_locked(cfg: TrainConfig, run: Path, console: Any, say: Any, *, resume: bool,
                  out: Path | None, timesteps: int | None, seed: int | None, progress: bool,
                  config_source: str, ray_options: RayOptions | None = None) -> Path:
    """The body of :func:`train`, run while holding the run folder's lock."""
    import torch
    from stable_baselines3.common.callbacks import CallbackList
    from stable_baselines3.common.utils import set_random_seed

    from npc_tactics.training.callbacks import (
        EveryNSteps,
        OutcomeStatsCallback,
        RichProgressCallback,
        RolloutMark,
        SnapshotCallback,
        TensorBoardPoints,
    )
    from npc_tactics.training.envs import eval_opponents, make_vec_env, resolve_opponents
    from npc_tactics.training.evaluate import evaluate_policy
    from npc_tactics.training.opponent_pool import OpponentPool

    folder = RunDir(run)
    remove_stale_temp_files(run)
    ckpts = folder.checkpoints() if resume else []
    if resume and not ckpts and (folder.legacy_checkpoints() or (run / "model.zip").exists()):
        raise folder.legacy_error()
    if ckpts:  # every file --resume trusts is checked before anything is written
        read_checkpoint_record(ckpts[-1])
    elif resume:  # always said, even without a progress bar: the user asked to continue, not to restart
        console.print(f"[yellow]{run} has no checkpoint yet: training starts from 0", soft_wrap=True)
    read_meta(run)
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

    start_steps = ckpts[-1].timesteps if ckpts else 0
    seg_seed = segment_seed(cfg.seed, start_steps)
    if cfg.backend == "rllib":
        from npc_tactics.training.rllib.train import train_segment

        return train_segment(cfg, run, ckpts, seg_seed, say=say, progress=progress, config_source=config_source,
                             options=ray_options)
    set_random_seed(seg_seed)
    # tiny MLPs: one thread is fastest, and the machine's other core runs other work
    torch.set_num_threads(1)

    opponents = resolve_opponents(cfg, seg_seed)
    vec = make_vec_env(cfg, seg_seed, opponents=opponents)
    eval_path = run / "eval_history.csv"
    model = _new_model(cfg, vec, run, seg_seed)
    if ckpts:
        say(f"resuming {run} from {ckpts[-1].name} ({start_steps} timesteps)")
        try:
            restore_checkpoint(model, ckpts[-1])
        except BaseException:
            vec.close()
            raise
        model.set_random_seed(seg_seed)
        truncate_eval_rows(eval_path, start_steps)
    else:
        if eval_path.exists():
            eval_path.unlink()
    pool = opponents[0] if opponents and isinstance(opponents[0], OpponentPool) else None
    if pool is not None and pool.has_self:
        # self-play: the snapshots saved up to the checkpoint come back; a fresh run starts from the model's own
        # initial weights (replacing the placeholder the envs were checked with) before the first episode
        restored = pool.restore_snapshots(run, start_steps) if ckpts else []
        if restored:
            say(f"self-play: restored {len(restored)} snapshot(s) ({', '.join(map(str, restored))} timesteps)")
        else:
            pool.save_snapshot(run, pool.add_snapshot(start_steps, model.policy.state_dict()))
    _write_meta(
        run,
        cfg,
        vec,
        {
            "start_timesteps": start_steps,
            "seed": seg_seed,
            "started": _now(),
            "resumed_from": ckpts[-1].name if ckpts else None,
        },
        config_source,
    )

    budget = cfg.budget
    bookkeeping = {"seed": cfg.seed, "segment_seed": seg_seed}

    yardsticks = eval_opponents(cfg, opponents)

    points = TensorBoardPoints()

    def evaluate(m: Any) -> None:
        rows = []
        for label, opp in yardsticks:
            row = evaluate_policy(m, cfg, opp, budget.eval_episodes, cfg.seed)
            row["opponent"] = label
            row["timesteps"] = int(m.num_timesteps)
            rows.append(row)
        append_eval_rows(eval_path, rows)
        points.add(m, int(m.num_timesteps), {f"eval/win_rate/{Path(str(r['opponent'])).name}": r["win_rate"]
                                             for r in rows})
        plot_learning_curve(run)

    def checkpoint(m: Any) -> None:
        write_checkpoint(run, m, bookkeeping, budget.keep_checkpoints)

    stats = OutcomeStatsCallback()
    mark = RolloutMark()
    callbacks: list[Any] = [
        mark,
        stats,
        points,
        EveryNSteps(budget.eval_every, evaluate),
        EveryNSteps(budget.checkpoint_every, checkpoint),
    ]
    if pool is not None and pool.has_self:
        callbacks.append(SnapshotCallback(pool, run))
    bar = RichProgressCallback(budget.timesteps, stats, f"{cfg.system}/{cfg.label()}") if progress else None
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
    _close_tensorboard(model, points)
    save_policy_atomic(model, run / POLICY_FILE)
    save_model_atomic(model, run / "model.zip")
    meta = read_json_object(run / "meta.json", "meta.json")
    meta.update({"finished": True, "timesteps": int(model.num_timesteps), "finished_at": _now()})
    write_json(run / "meta.json", meta)
    return run
