"""A trained MaskablePPO policy acting like any other agent (``act(observation, mask) -> int``).

The policy sees only ``observation.vector`` (the encoder's float32 tensor) and the legal mask;
illegal actions get probability 0 (masked softmax, sb3-contrib ``MaskableCategorical``), so ``act``
always returns a legal action. ``action_probabilities`` gives the full masked distribution over the
catalogue: the GM ``suggest`` ranking. Sampling (``deterministic=False``) draws from an explicit
``numpy`` Generator, never torch's global RNG, so a frozen opponent replays the same moves under the
same seed.

Loading never unpickles (see :mod:`npc_tactics.runs`): the network is rebuilt from the run's validated
``config.yaml`` (``ppo.net_arch``) and the system's current encoder and catalogue, then filled from the
``policy.pt`` state dict read with ``torch.load(weights_only=True)`` after its shapes were checked. So a run
folder from someone else can be played, evaluated or suggested from without running any of its code.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from npc_tactics.agents.base import Observation
from npc_tactics.errors import UnknownNameError, UserError
from npc_tactics.runs import RunDir, expected_policy_shapes, load_policy_weights

__all__ = ["PolicyAgent", "build_policy", "load_policy_agent"]


class PolicyAgent:
    """A trained policy from a run folder. ``name`` is ``policy:<run dir name>``; ``options`` are
    the rules options it was trained under (play it under the same ones); ``notes`` are warnings about
    the run (another rules version) for the GM to see."""

    def __init__(
        self,
        policy: Any,
        *,
        system: str,
        scenario: str,
        side: int,
        name: str,
        n_actions: int,
        obs_size: int,
        deterministic: bool = True,
        rng: np.random.Generator | None = None,
        run_dir: Path | None = None,
        checkpoint: Path | None = None,
        options: dict[str, Any] | None = None,
        notes: list[str] | None = None,
    ) -> None:
        self.policy = policy
        self.system = system
        self.scenario = scenario
        self.side = side
        self.name = name
        self.deterministic = deterministic
        self.rng = rng if rng is not None else np.random.default_rng(0)
        self.run_dir = run_dir
        self.checkpoint = checkpoint
        self.options: dict[str, Any] = dict(options or {})
        self.notes: list[str] = list(notes or [])
        self.warnings: list[str] = []  #: a run's version warnings are in ``notes``
        self.bundle = None  #: a run, not a bundle
        self.n_actions = int(n_actions)
        self.obs_size = int(obs_size)

    def out_of_range(self, vector: np.ndarray) -> list[tuple[str, float, float, float]]:
        """Always empty: a run folder keeps no record of the ranges its observations took (a bundle does)."""
        return []

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




def build_policy(obs_size: int, n_actions: int, net_arch: tuple[int, ...] | list[int]) -> Any:
    """An untrained SB3 ``MaskableActorCriticPolicy`` of the shape training uses (``MlpPolicy``, CPU)."""
    from gymnasium import spaces
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

    policy = MaskableActorCriticPolicy(
        spaces.Box(-1.0, 1.0, (obs_size,), np.float32),
        spaces.Discrete(n_actions),
        lambda _: 0.0,
        net_arch=list(net_arch),
    )
    return policy.to("cpu")


def _check_weights(run: RunDir, path: Path, state: Any, expected: dict[str, tuple[int, ...]], why: str) -> None:
    """The state dict has exactly the expected tensors, or a UserError says which one differs and why."""
    import torch

    if not isinstance(state, dict) or not all(isinstance(v, torch.Tensor) for v in state.values()):
        raise UserError(f"{path}: expected a state dict of tensors")
    missing = [k for k in expected if k not in state]
    extra = [k for k in state if k not in expected]
    wrong = [k for k in expected if k in state and tuple(state[k].shape) != expected[k]]
    if missing or extra or wrong:
        detail = (f"{wrong[0]} is {tuple(state[wrong[0]].shape)}, expected {expected[wrong[0]]}" if wrong
                  else f"missing {missing[0]}" if missing else f"unexpected {extra[0]}")
        raise UserError(f"{run.path}: the weights in {path.name} do not fit {why} ({detail}); "
                        "the run folder is inconsistent or was trained under another encoder")


def load_policy_agent(
    run_dir: str | Path,
    deterministic: bool = True,
    checkpoint: int | str | Path | None = None,
    rng: np.random.Generator | None = None,
) -> PolicyAgent:
    """Load the final policy (or ``checkpoint``: timesteps or a ``.policy.pt`` path) of a training run.

    Reads config.yaml, meta.json and a tensor file only (no pickle). Every problem is a one-line
    :class:`~npc_tactics.errors.UserError` naming the run and what is wrong. A run trained under another
    rules version of its system loads with a :class:`~npc_tactics.runs.RulesVersionWarning` (also kept in
    ``agent.notes``).
    """
    from npc_tactics.registry import get_system

    run = RunDir(Path(run_dir)).require()
    cfg = run.config()
    try:
        info = get_system(cfg.system)
    except UnknownNameError as exc:
        raise UserError(f"{run.config_path}: system: {exc}") from None
    try:
        engine = info.load("engine")(cfg.options)
    except ValueError as exc:
        raise UserError(f"{run.config_path}: options: {exc}") from None
    encoder = info.load("encoder")(engine)
    obs_size, names = int(encoder.size), list(engine.catalogue.names)
    meta = run.meta()
    trained_obs = meta.get("observation_size")
    if isinstance(trained_obs, int) and trained_obs != obs_size:
        raise UserError(f"{run.path}: trained on {trained_obs} observation values, but the {info.name} encoder "
                        f"now gives {obs_size} (another encoder version); re-train it")
    trained_names = meta.get("action_names")
    if isinstance(trained_names, list) and trained_names != names:
        diff = next((i for i, (a, b) in enumerate(zip(trained_names, names, strict=False)) if a != b),
                    min(len(trained_names), len(names)))
        raise UserError(f"{run.path}: trained on another {info.name} action catalogue ({len(trained_names)} "
                        f"actions, now {len(names)}; first difference at index {diff}); re-train it")
    weights = run.weights_path(checkpoint)
    state = load_policy_weights(weights)
    why = (f"config.yaml (ppo.net_arch {list(cfg.net_arch)}) and the {info.name} encoder "
           f"({obs_size} observation values, {len(names)} actions)")
    _check_weights(run, weights, state, expected_policy_shapes(obs_size, len(names), cfg.net_arch), why)
    policy = build_policy(obs_size, len(names), cfg.net_arch)
    policy.load_state_dict(state, strict=True)
    policy.set_training_mode(False)
    note = run.warn_rules_version(info.name, engine.spec.version)
    return PolicyAgent(
        policy,
        system=info.name,
        scenario=str(cfg.scenario or info.default_scenario),
        side=cfg.side,
        name=f"policy:{run.name}",
        n_actions=len(names),
        obs_size=obs_size,
        deterministic=deterministic,
        rng=rng,
        run_dir=run.path,
        checkpoint=weights,
        options=cfg.options,
        notes=[note] if note else [],
    )
