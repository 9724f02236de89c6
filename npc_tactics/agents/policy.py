"""A trained MaskablePPO policy acting like any other agent (``act(observation, mask) -> int``).

The policy sees only ``observation.vector`` (the encoder's float32 tensor) and the legal mask;
illegal actions get probability 0 (masked softmax, sb3-contrib ``MaskableCategorical``), so ``act``
always returns a legal action. ``action_probabilities`` gives the full masked distribution over the
catalogue: the GM ``suggest`` ranking. Sampling (``deterministic=False``) draws from an explicit
``numpy`` Generator, never torch's global RNG, so a frozen opponent replays the same moves under the
same seed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from npc_tactics.agents.base import Observation
from npc_tactics.errors import ConfigError, UserError

__all__ = ["PolicyAgent", "load_policy_agent"]


class PolicyAgent:
    """A trained policy from a run folder. ``name`` is ``policy:<run dir name>``; ``options`` are
    the rules options it was trained under (play it under the same ones)."""

    def __init__(
        self,
        model: Any,
        *,
        system: str,
        scenario: str,
        side: int,
        name: str,
        deterministic: bool = True,
        rng: np.random.Generator | None = None,
        run_dir: Path | None = None,
        checkpoint: Path | None = None,
        options: dict[str, Any] | None = None,
    ) -> None:
        self.model = model
        self.policy = model.policy
        self.system = system
        self.scenario = scenario
        self.side = side
        self.name = name
        self.deterministic = deterministic
        self.rng = rng if rng is not None else np.random.default_rng(0)
        self.run_dir = run_dir
        self.checkpoint = checkpoint
        self.options: dict[str, Any] = dict(options or {})
        self.n_actions = int(model.action_space.n)
        self.obs_size = int(model.observation_space.shape[0])

    def action_probabilities(self, vector: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """The policy's probability of each catalogue action: 0 where ``mask`` is false, sum 1."""
        import torch as th

        vec = np.asarray(vector, dtype=np.float32).reshape(-1)
        legal = np.array(mask, dtype=bool).reshape(-1)  # a copy: engines may hand out read-only cached masks
        if vec.shape[0] != self.obs_size:
            raise ValueError(
                f"{self.name}: observation has {vec.shape[0]} values, the policy expects "
                f"{self.obs_size} (trained on another system or encoder version?)"
            )
        if legal.shape[0] != self.n_actions:
            raise ValueError(
                f"{self.name}: mask has {legal.shape[0]} entries, the policy's catalogue has {self.n_actions}"
            )
        if not legal.any():
            raise ValueError(f"{self.name}: empty action mask")
        with th.no_grad():
            obs = th.as_tensor(vec[None, :])
            dist = self.policy.get_distribution(obs, action_masks=legal[None, :])
            probs = dist.distribution.probs[0].cpu().numpy().astype(np.float64)
        probs = np.where(legal, probs, 0.0)
        total = probs.sum()
        return probs / total if total > 0 else legal / legal.sum()

    def act(self, observation: Observation, mask: np.ndarray) -> int:
        """The most probable legal action (deterministic) or one sampled from the masked
        distribution."""
        probs = self.action_probabilities(observation.vector, mask)
        if self.deterministic:
            return int(np.argmax(np.where(mask, probs, -1.0)))
        return int(self.rng.choice(len(probs), p=probs))


def _pick_model(run_dir: Path, checkpoint: int | str | Path | None) -> Path:
    from npc_tactics.training.run_dir import checkpoint_paths

    ckpts = checkpoint_paths(run_dir)
    if checkpoint is None:
        if (run_dir / "model.zip").is_file():
            return run_dir / "model.zip"
        if ckpts:
            return ckpts[-1][1]
        raise UserError(f"{run_dir}: not a training run (no model.zip and no checkpoints/ckpt_*.zip)")
    if isinstance(checkpoint, int) or str(checkpoint).isdigit():
        wanted = int(checkpoint)
        for steps, path in ckpts:
            if steps == wanted:
                return path
        have = ", ".join(str(s) for s, _ in ckpts) or "none"
        raise UserError(f"{run_dir}: no checkpoint at {wanted} timesteps (checkpoints: {have})")
    path = Path(checkpoint)
    if not path.is_absolute() and not path.exists():
        path = run_dir / path
    if not path.is_file():
        raise UserError(f"{run_dir}: checkpoint {checkpoint} not found")
    return path


def load_policy_agent(
    run_dir: str | Path,
    deterministic: bool = True,
    checkpoint: int | str | Path | None = None,
    rng: np.random.Generator | None = None,
) -> PolicyAgent:
    """Load the final model (or ``checkpoint``: timesteps or a path) of a training run as an agent.

    An unreadable run dir raises a one-line :class:`~npc_tactics.errors.UserError` naming the dir
    and what is missing.
    """
    run = Path(run_dir)
    if not run.is_dir():
        raise UserError(f"{run}: run dir not found")
    config_path = run / "config.yaml"
    if not config_path.is_file():
        raise UserError(f"{run}: not a training run (config.yaml is missing)")
    from npc_tactics.configs import load_yaml
    from npc_tactics.training.config import parse_train_config

    try:
        config = parse_train_config(load_yaml(config_path), str(config_path))
    except ConfigError as exc:
        raise UserError(f"{run}: unreadable config.yaml ({exc})") from None
    model_path = _pick_model(run, checkpoint)
    from sb3_contrib import MaskablePPO

    try:
        model = MaskablePPO.load(model_path, device="cpu")
    except Exception as exc:  # a truncated or foreign zip: one line, not a traceback
        raise UserError(f"{model_path}: cannot load the model ({type(exc).__name__}: {exc})") from None
    from npc_tactics.systems import SYSTEMS

    info = SYSTEMS.get(config.system)
    scenario = config.scenario or (info.default_scenario if info else "")
    return PolicyAgent(
        model,
        system=config.system,
        scenario=str(scenario),
        side=config.side,
        name=f"policy:{run.name}",
        deterministic=deterministic,
        rng=rng,
        run_dir=run,
        checkpoint=model_path,
        options=dict(config.options),
    )
