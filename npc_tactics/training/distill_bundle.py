"""An exported bundle as the base of a distillation: its network (an ensemble's averaged members included) labels
the fights of a training config's distribution, and the student starts from one member's actor weights.

Why: a shipped ensemble bundle is stronger than each of its runs (RuneQuest's pair: 65.6% on validation, its
members 63.8% and 61.7%), but ``distill`` took one run, so a specialist could only be distilled into a member
and the ensemble's strength was lost; and the ensemble's geometric mean follows its more confident member, so a
tactic one member has and the other lacks (dodging the troll maul) can vanish. Distilling the bundle itself keeps
the ensemble's moves on its distribution and lets a teacher put the tactic back on its scenario, in one network
of a member's size.

What a bundle does not hold, the caller names: the training config of its runs (``config``: the encounter
distribution, seat, opponent pool, rules options and ``net_arch``; checked against the bundle's system, seat,
options, observation size and action catalogue). The student's value head starts untrained: distillation fits
the actor only, and only the actor is exported (a student is not a run to resume PPO from).
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from npc_tactics.errors import UserError

__all__ = ["BundleBase", "load_bundle_base"]


class BundleBase:
    """What distillation needs of a bundle base: the labeller, the config, the student and the run's meta."""

    def __init__(self, labeller: Any, config: Any, student: Any, meta: dict[str, Any], config_path: Path,
                 onnx_bytes: bytes, member: int) -> None:
        self.labeller, self.config, self.student, self.meta = labeller, config, student, meta
        self.config_path, self.onnx_bytes, self.member = config_path, onnx_bytes, member


def _initialisers(onnx_bytes: bytes) -> dict[str, np.ndarray]:
    """The graph's weights by name, float16 copies (``<name>__f16``) under their float32 name, as float32."""
    import onnx
    from onnx import numpy_helper

    model = onnx.load_from_string(onnx_bytes)
    out: dict[str, np.ndarray] = {}
    for init in model.graph.initializer:
        name = init.name.removesuffix("__f16")
        out[name] = np.asarray(numpy_helper.to_array(init), dtype=np.float32)
    return out


def _member_state(weights: dict[str, np.ndarray], member: int, n_layers: int, where: str) -> dict[str, np.ndarray]:
    """The actor tensors of ``member`` under the SB3 policy's names."""
    prefix = f"members.{member}." if "action_net.weight" not in weights else ""
    if member and not prefix:
        raise UserError(f"{where}: --member {member}: the bundle holds one network (member 0)")
    state: dict[str, np.ndarray] = {}
    for layer in range(n_layers):
        for p in ("weight", "bias"):
            onnx_name = f"{prefix}latent.{2 * layer}.{p}"
            if onnx_name not in weights:
                raise UserError(f"{where}: no tensor {onnx_name} (member {member} of "
                                f"{_members(weights)}, or another network shape than the config's)")
            state[f"mlp_extractor.policy_net.{2 * layer}.{p}"] = weights[onnx_name]
    for p in ("weight", "bias"):
        state[f"action_net.{p}"] = weights[f"{prefix}action_net.{p}"]
    return state


def _members(weights: dict[str, np.ndarray]) -> int:
    """How many networks the bundle averages (1 for a single run's bundle)."""
    k = 0
    while f"members.{k}.action_net.weight" in weights:
        k += 1
    return max(k, 1)


def _check_against_config(schema: Any, config: Any, engine: Any, encoder: Any, where: str) -> None:
    """One line naming the first thing the bundle and the config disagree on."""
    if schema.system != config.system:
        raise UserError(f"{where}: the bundle plays {schema.system}, the config {config.system}")
    if schema.side != config.side:
        raise UserError(f"{where}: the bundle plays side {schema.side}, the config side {config.side}")
    if dict(schema.options) != dict(config.options):
        raise UserError(f"{where}: the bundle's rules options {dict(schema.options)} differ from the config's "
                        f"{dict(config.options)}")
    if schema.observation.size != int(encoder.size):
        raise UserError(f"{where}: the bundle takes {schema.observation.size} observation values, the "
                        f"{config.system} encoder now gives {encoder.size}; re-export or re-train it")
    if list(schema.actions) != list(engine.catalogue.names):
        raise UserError(f"{where}: the bundle's action catalogue ({len(schema.actions)} actions) is not the "
                        f"{config.system} engine's ({len(engine.catalogue.names)}); re-train it")


def load_bundle_base(bundle_dir: Path, config_path: Path | None, member: int = 0) -> BundleBase:
    """Read ``bundle_dir`` as a distillation base under the training config ``config_path`` (module docstring)."""
    import torch

    from npc_tactics.agents.policy import PolicyAgent, build_policy
    from npc_tactics.policy_io.bundle import read_bundle
    from npc_tactics.policy_io.onnx_agent import OnnxAgent
    from npc_tactics.training.config import load_train_config

    where = str(bundle_dir)
    if config_path is None:
        raise UserError(f"{where}: a bundle as the base needs --config: the training config of its runs (the "
                        "distribution to play, e.g. npc_tactics/configs/policies/<system>.yaml)")
    bundle = read_bundle(bundle_dir)
    config = load_train_config(config_path)
    if config.encounter is None or not isinstance(config.side, int):
        raise UserError(f"{config_path}: the base's config must train on an encounter distribution from one seat "
                        "(a generalist), not on one scenario")
    info = config.plugin
    engine = info.load("engine")(dict(config.options))
    encoder = info.load("encoder")(engine)
    _check_against_config(bundle.schema, config, engine, encoder, where)
    weights = _initialisers(bundle.onnx_bytes)
    members = _members(weights)
    if not 0 <= member < members:
        raise UserError(f"{where}: --member {member}: the bundle holds {members} network(s), numbered from 0")
    state = _member_state(weights, member, len(config.ppo.net_arch), where)
    obs_size, n_actions = int(encoder.size), len(engine.catalogue.names)
    with torch.random.fork_rng():  # the untrained value head: the same bytes from the same bundle
        torch.manual_seed(int(config.seed))
        policy = build_policy(obs_size, n_actions, config.ppo.net_arch)
    own = policy.state_dict()
    for name, values in state.items():
        if tuple(own[name].shape) != values.shape:
            raise UserError(f"{where}: member {member}'s {name} is {values.shape}, the config's net_arch "
                            f"{list(config.ppo.net_arch)} gives {tuple(own[name].shape)}")
        own[name] = torch.tensor(values)
    policy.load_state_dict(own, strict=True)
    policy.set_training_mode(False)
    student = PolicyAgent(policy, system=info.name, scenario=str(config.scenario or info.default_scenario),
                          side=int(config.side), name=f"policy:{bundle.name}.member{member}", n_actions=n_actions,
                          obs_size=obs_size, options=dict(config.options))
    labeller = OnnxAgent.from_bundle(bundle)
    training = bundle.schema.training
    meta: dict[str, Any] = {
        "action_names": list(engine.catalogue.names), "observation_size": obs_size,
        "config_source": str(config_path), "created": datetime.now(UTC).isoformat(timespec="seconds"),
        "encounter": str(config.encounter) if isinstance(config.encounter, str) else None,
        "finished": True, "scenario": None, "seed": int(config.seed), "side": int(config.side),
        "spec": {"name": info.name, "version": engine.spec.version}, "system": info.name,
        "timesteps": int(getattr(training, "timesteps", 0) or 0),
        "segments": [{"seed": int(s), "spec_version": bundle.schema.rules_version}
                     for s in getattr(training, "segment_seeds", []) or []],
        "weights": {"file": "policy.pt", "format": "torch.save of an SB3 MaskableActorCriticPolicy state_dict",
                    "net_arch": list(config.ppo.net_arch)},
    }
    return BundleBase(labeller, config, student, meta, Path(config_path), bundle.onnx_bytes, member)
