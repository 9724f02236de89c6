"""The RLlib module: MaskablePPO's network, with the legal-action mask applied inside the module.

The layers are those of sb3-contrib's ``MaskableActorCriticPolicy`` with ``MlpPolicy`` (separate policy and
value MLPs of ``net_arch`` with tanh, a linear action head and a linear value head, orthogonal initialisation
with SB3's gains), under SB3's parameter names. So :func:`sb3_state_dict` is a plain copy: an RLlib run writes
the same ``policy.pt`` as an SB3 run, and everything that plays, evaluates or exports a run folder reads it
without knowing which backend trained it.

Masking: the observation is the PettingZoo dict ``{"observation", "action_mask"}``; the logits of illegal
actions are replaced by :data:`MASKED_LOGIT` before RLlib builds its categorical distribution, in every forward
pass (inference, exploration and training), so an illegal action is never sampled and its probability is 0 in
the loss as well. The value head reads the observation only.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.apis.value_function_api import ValueFunctionAPI
from ray.rllib.core.rl_module.torch import TorchRLModule
from torch import nn

__all__ = ["MASKED_LOGIT", "MaskedPPOModule", "masked_probabilities", "sb3_state_dict"]

#: The logit of an illegal action (sb3-contrib's ``MaskableCategorical`` uses -1e8 too): ``exp`` underflows to
#: exactly 0 in float32, and a row whose every entry is masked stays finite (uniform) instead of NaN.
MASKED_LOGIT = -1e8


def _mlp(width: int, net_arch: list[int]) -> nn.Sequential:
    layers: list[nn.Module] = []
    for out in net_arch:
        layers += [nn.Linear(width, out), nn.Tanh()]
        width = out
    return nn.Sequential(*layers)


class _Extractor(nn.Module):
    """SB3's ``MlpExtractor``: ``policy_net`` and ``value_net`` side by side."""

    def __init__(self, width: int, net_arch: list[int]) -> None:
        super().__init__()
        self.policy_net = _mlp(width, net_arch)
        self.value_net = _mlp(width, net_arch)


class MaskedPPOModule(TorchRLModule, ValueFunctionAPI):
    """``model_config``: ``{"net_arch": [64, 64]}`` (the config's ``ppo.net_arch``)."""

    def setup(self) -> None:
        net_arch = [int(w) for w in (self.model_config or {}).get("net_arch", [64, 64])]
        space = self.observation_space["observation"]
        width = int(np.prod(space.shape))
        self.mlp_extractor = _Extractor(width, net_arch)
        last = net_arch[-1] if net_arch else width
        self.action_net = nn.Linear(last, int(self.action_space.n))
        self.value_net = nn.Linear(last, 1)
        self._init_like_sb3()

    def _init_like_sb3(self) -> None:
        """SB3's ``ortho_init``: gain sqrt(2) in the MLPs, 0.01 on the action head, 1 on the value head."""
        for module, gain in ((self.mlp_extractor, np.sqrt(2)), (self.action_net, 0.01), (self.value_net, 1.0)):
            for layer in module.modules():
                if isinstance(layer, nn.Linear):
                    nn.init.orthogonal_(layer.weight, gain=float(gain))
                    layer.bias.data.fill_(0.0)

    # ----- forward passes ------------------------------------------------------------------------------
    def _logits(self, batch: dict[str, Any]) -> torch.Tensor:
        obs = batch[Columns.OBS]
        features = obs["observation"].float()
        logits = self.action_net(self.mlp_extractor.policy_net(features))
        legal = obs["action_mask"] > 0
        return torch.where(legal, logits, torch.full_like(logits, MASKED_LOGIT))

    def _forward(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        return {Columns.ACTION_DIST_INPUTS: self._logits(batch)}

    def _forward_train(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        return {Columns.ACTION_DIST_INPUTS: self._logits(batch)}

    def compute_values(self, batch: dict[str, Any], embeddings: Any = None) -> torch.Tensor:
        features = batch[Columns.OBS]["observation"].float()
        values: torch.Tensor = self.value_net(self.mlp_extractor.value_net(features)).squeeze(-1)
        return values


def sb3_state_dict(module: nn.Module) -> dict[str, torch.Tensor]:
    """The module's weights under SB3 ``MaskableActorCriticPolicy`` names (detached CPU copies)."""
    prefixes = ("mlp_extractor.", "action_net.", "value_net.")
    return {k: v.detach().cpu().clone() for k, v in module.state_dict().items() if k.startswith(prefixes)}


def masked_probabilities(module: Any, vectors: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """The module's action probabilities (softmax of the masked logits) for a batch of observations."""
    batch = {Columns.OBS: {"observation": torch.as_tensor(np.asarray(vectors, dtype=np.float32)),
                           "action_mask": torch.as_tensor(np.asarray(masks, dtype=np.int8))}}
    with torch.no_grad():
        logits = module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS]
    probs: np.ndarray = torch.softmax(logits, dim=-1).cpu().numpy()
    return probs
