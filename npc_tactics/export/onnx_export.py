"""The trained actor as ONNX: observation + legal mask -> masked action probabilities.

Only the actor leaves the project (features -> policy MLP -> action logits); the value head is training-only.
The mask is applied in the graph exactly as sb3-contrib's ``MaskableCategorical`` does it (illegal logits
replaced by -1e8, then softmax), so the bundle's probabilities equal SB3's masked ones. The legacy TorchScript
exporter (``dynamo=False``) is used on purpose: the dynamo exporter of torch 2.13 needs ``onnxscript`` and
fails inside SB3's ``Categorical``; on this small module the legacy one is exact.

An ensemble (several runs of one system, seat and catalogue) exports as one graph with the same inputs and
output: each member's masked log-probabilities are averaged, then normalised (a geometric mean of the members'
distributions), so everything that reads a bundle reads an ensemble unchanged. ``half_weights`` stores the
weights as float16 (Cast back to float32 in the graph, folded once when onnxruntime loads it): half the bytes,
probabilities within about 1e-3 of the float32 network.
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


def actor_module(policy: Any, *more: Any) -> Any:
    """A ``torch.nn.Module`` computing ``policy``'s masked action probabilities (shares its weights); with
    ``more`` policies, the normalised geometric mean of all of theirs (the ensemble of the module docstring)."""
    import torch
    from torch import nn

    class MaskedLogits(nn.Module):
        def __init__(self, member: Any) -> None:
            super().__init__()
            self.features = member.pi_features_extractor
            self.latent = member.mlp_extractor.policy_net
            self.action_net = member.action_net

        def forward(self, observation: torch.Tensor, action_mask: torch.Tensor) -> torch.Tensor:
            logits = self.action_net(self.latent(self.features(observation.float())))
            return torch.where(action_mask, logits, torch.full_like(logits, MASKED_LOGIT))

    class MaskedActor(MaskedLogits):  # one policy: the same module (and ONNX bytes) as before ensembles
        def forward(self, observation: torch.Tensor, action_mask: torch.Tensor) -> torch.Tensor:
            return torch.softmax(super().forward(observation, action_mask), dim=-1)

    class EnsembleActor(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.members = nn.ModuleList(MaskedLogits(m) for m in (policy, *more))

        def forward(self, observation: torch.Tensor, action_mask: torch.Tensor) -> torch.Tensor:
            logp = torch.stack([torch.log_softmax(m(observation, action_mask), dim=-1) for m in self.members])
            return torch.softmax(logp.mean(dim=0), dim=-1)

    module = EnsembleActor() if more else MaskedActor(policy)
    module.eval()
    return module


def export_actor(policy: Any, *more: Any, opset: int = ONNX_OPSET) -> bytes:
    """``policy`` (a ``MaskableActorCriticPolicy`` over a flat Box observation and a Discrete action space), or
    the ensemble of it and ``more`` (same spaces), as ONNX bytes checked by ``onnx.checker``; the batch axis is
    dynamic."""
    import onnx
    import torch

    obs_size = int(policy.observation_space.shape[0])
    n_actions = int(policy.action_space.n)
    for m in more:
        if (int(m.observation_space.shape[0]), int(m.action_space.n)) != (obs_size, n_actions):
            raise ValueError(f"ensemble members differ: {obs_size} observations and {n_actions} actions, then "
                             f"{m.observation_space.shape[0]} and {m.action_space.n}")
    module = actor_module(policy, *more)
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


def half_weights(data: bytes, min_elements: int = 256) -> bytes:
    """``data`` (an ONNX model) with every float32 initializer of at least ``min_elements`` values stored as
    float16 and cast back to float32 where it is used: the graph computes in float32 as before."""
    import numpy as np
    import onnx
    from onnx import helper, numpy_helper

    model = onnx.load_from_string(data)
    graph = model.graph
    casts = []
    for init in graph.initializer:
        if init.data_type != onnx.TensorProto.FLOAT:
            continue
        values = numpy_helper.to_array(init)
        if values.size < min_elements:
            continue
        name = init.name
        init.CopyFrom(numpy_helper.from_array(values.astype(np.float16), f"{name}__f16"))
        casts.append(helper.make_node("Cast", [f"{name}__f16"], [name], to=onnx.TensorProto.FLOAT,
                                      name=f"{name}__to_f32"))
    for node in reversed(casts):
        graph.node.insert(0, node)
    onnx.checker.check_model(model)
    return bytes(model.SerializeToString())


def torch_probabilities(policy: Any, observations: Any, masks: Any) -> Any:
    """SB3's own masked probabilities for a batch (numpy in, numpy out): the reference the ONNX graph must
    match."""
    import numpy as np
    import torch

    with torch.no_grad():
        obs = torch.as_tensor(np.asarray(observations, dtype=np.float32))
        dist = policy.get_distribution(obs, action_masks=np.asarray(masks, dtype=bool))
        return dist.distribution.probs.cpu().numpy()
