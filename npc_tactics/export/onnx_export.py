"""The trained actor as ONNX: observation + legal mask -> masked action probabilities.

Only the actor leaves the project (features -> policy MLP -> action logits); the value head is training-only.
The mask is applied in the graph exactly as sb3-contrib's ``MaskableCategorical`` does it (illegal logits
replaced by -1e8, then softmax), so the bundle's probabilities equal SB3's masked ones. The legacy TorchScript
exporter (``dynamo=False``) is used on purpose: the dynamo exporter of torch 2.13 needs ``onnxscript`` and
fails inside SB3's ``Categorical``; on this small module the legacy one is exact.
"""

from __future__ import annotations

import tempfile
import warnings
from pathlib import Path
from typing import Any

ONNX_OPSET = 17
#: sb3_contrib.common.maskable.distributions.MaskableCategorical's value for masked logits.
MASKED_LOGIT = -1e8
INPUTS = {"observation": "float32 [batch, observation size]", "action_mask": "bool [batch, actions]"}
OUTPUTS = {"probabilities": "float32 [batch, actions], 0 on illegal actions, rows sum to 1"}


def actor_module(policy: Any) -> Any:
    """A ``torch.nn.Module`` computing ``policy``'s masked action probabilities (shares its weights)."""
    import torch
    from torch import nn

    class MaskedActor(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.features = policy.pi_features_extractor
            self.latent = policy.mlp_extractor.policy_net
            self.action_net = policy.action_net

        def forward(self, observation: torch.Tensor, action_mask: torch.Tensor) -> torch.Tensor:
            logits = self.action_net(self.latent(self.features(observation.float())))
            masked = torch.where(action_mask, logits, torch.full_like(logits, MASKED_LOGIT))
            return torch.softmax(masked, dim=-1)

    module = MaskedActor()
    module.eval()
    return module


def export_actor(policy: Any, opset: int = ONNX_OPSET) -> bytes:
    """``policy`` (a ``MaskableActorCriticPolicy`` over a flat Box observation and a Discrete action space) as
    ONNX bytes, checked by ``onnx.checker``; the batch axis is dynamic."""
    import onnx
    import torch

    obs_size = int(policy.observation_space.shape[0])
    n_actions = int(policy.action_space.n)
    module = actor_module(policy)
    example = (torch.zeros(1, obs_size, dtype=torch.float32), torch.ones(1, n_actions, dtype=torch.bool))
    with tempfile.TemporaryDirectory() as tmp, warnings.catch_warnings(), torch.no_grad():
        path = Path(tmp) / "policy.onnx"
        warnings.simplefilter("ignore")  # the legacy exporter's deprecation notice
        torch.onnx.export(
            module,
            example,
            path,
            input_names=list(INPUTS),
            output_names=list(OUTPUTS),
            dynamic_axes={"observation": {0: "batch"}, "action_mask": {0: "batch"}, "probabilities": {0: "batch"}},
            opset_version=opset,
            dynamo=False,
        )
        data = path.read_bytes()
    onnx.checker.check_model(onnx.load_from_string(data))
    return data


def torch_probabilities(policy: Any, observations: Any, masks: Any) -> Any:
    """SB3's own masked probabilities for a batch (numpy in, numpy out): the reference the ONNX graph must
    match."""
    import numpy as np
    import torch

    with torch.no_grad():
        obs = torch.as_tensor(np.asarray(observations, dtype=np.float32))
        dist = policy.get_distribution(obs, action_masks=np.asarray(masks, dtype=bool))
        return dist.distribution.probs.cpu().numpy()
