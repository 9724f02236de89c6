"""A :class:`~npc_tactics.training.config.TrainConfig` as an RLlib ``PPOConfig`` (new API stack).

The PPO hyperparameters keep their SB3 meaning where RLlib has the same knob: one update every
``ppo.n_steps x budget.n_envs`` env steps (RLlib's ``train_batch_size_per_learner``), ``ppo.batch_size``
minibatches, ``ppo.n_epochs`` passes, the same discount, GAE lambda, entropy and value coefficients, clip and
gradient-norm clip. Two RLlib defaults that SB3's PPO does not have are turned off so both backends optimise
the same objective: the KL penalty (``use_kl_loss``) and the value-function clip (``vf_clip_param``). A
``learning_rate`` schedule becomes RLlib's piecewise-linear ``lr`` schedule over env steps; a ``clip_range``
schedule has no RLlib counterpart and is refused.

``budget.n_envs`` fights are stepped together, spread over the env runners (``num_env_runners`` 0: all in
the driver process).
"""

from __future__ import annotations

from typing import Any

from npc_tactics.errors import ConfigError
from npc_tactics.training.config import Schedule, TrainConfig

__all__ = ["check_config", "env_config", "lr_setting", "ppo_config"]


def env_config(cfg: TrainConfig) -> dict[str, Any]:
    """What :class:`~npc_tactics.training.rllib.env.NpcSideEnv` is built from: the resolved training config as
    plain data (it travels to the env runners, where it is validated again)."""
    return {"config": cfg.to_yaml_dict()}


def lr_setting(cfg: TrainConfig) -> float | list[list[float]]:
    """``ppo.learning_rate`` for RLlib: a number, or ``[[0, start], [steps, end]]`` for a linear schedule
    (``steps`` = ``end_fraction`` of the budget; RLlib holds the last value after it)."""
    lr = cfg.ppo.learning_rate
    if not isinstance(lr, Schedule):
        return float(lr)
    if lr.kind == "constant":
        return float(lr.start)
    end_at = max(1, int(lr.end_fraction * cfg.budget.timesteps))
    # RLlib refuses a schedule whose value reaches 0 (the optimizer's lr must stay positive)
    return [[0, float(lr.start)], [end_at, max(float(lr.end), 1e-12)]]


def check_config(cfg: TrainConfig, file: str = "<config>") -> None:
    """Refuse, before anything starts, what the RLlib backend cannot do (a ``ConfigError`` naming the field)."""
    clip = cfg.ppo.clip_range
    if isinstance(clip, Schedule) and clip.kind != "constant":
        raise ConfigError(file, "ppo.clip_range", "a clip_range schedule is not supported by backend rllib "
                                                  "(RLlib's PPO clip is a constant); give a number")


def ppo_config(cfg: TrainConfig, num_env_runners: int, seed: int) -> Any:
    """The ``PPOConfig`` that trains ``cfg`` with ``num_env_runners`` remote env runners."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec

    from npc_tactics.training.rllib.env import POLICY_ID, NpcSideEnv, policy_mapping
    from npc_tactics.training.rllib.module import MaskedPPOModule

    check_config(cfg)
    ppo = cfg.ppo
    clip = ppo.clip_range.start if isinstance(ppo.clip_range, Schedule) else ppo.clip_range
    n_envs = cfg.budget.n_envs
    per_runner = max(1, -(-n_envs // max(1, num_env_runners)))  # ceil: at least n_envs fights in all
    module = RLModuleSpec(module_class=MaskedPPOModule, model_config={"net_arch": list(ppo.net_arch)})
    return (
        PPOConfig()
        .api_stack(enable_rl_module_and_learner=True, enable_env_runner_and_connector_v2=True)
        .environment(NpcSideEnv, env_config=env_config(cfg))
        .multi_agent(policies={POLICY_ID}, policy_mapping_fn=policy_mapping)
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={POLICY_ID: module}))
        .env_runners(num_env_runners=num_env_runners, num_envs_per_env_runner=per_runner,
                     num_cpus_per_env_runner=1, rollout_fragment_length="auto")
        .learners(num_learners=0)
        .training(
            lr=lr_setting(cfg),
            gamma=ppo.gamma,
            lambda_=ppo.gae_lambda,
            train_batch_size_per_learner=ppo.n_steps * n_envs,
            minibatch_size=min(ppo.batch_size, ppo.n_steps * n_envs),
            num_epochs=ppo.n_epochs,
            entropy_coeff=ppo.ent_coef,
            clip_param=float(clip),
            vf_loss_coeff=ppo.vf_coef,
            grad_clip=ppo.max_grad_norm,
            grad_clip_by="global_norm",
            use_kl_loss=False,
            vf_clip_param=float("inf"),
        )
        .debugging(seed=seed, log_level="ERROR")
        .reporting(metrics_num_episodes_for_smoothing=100)
    )
