"""An agent that plays (or ranks moves) from an exported bundle with onnxruntime: numpy, no torch.

``OnnxPolicy`` runs the network (observation + legal mask -> masked probabilities, the mask applied inside the
graph); ``OnnxAgent`` adds what the rest of the project expects of a policy: ``act(observation, mask)``,
``action_probabilities(vector, mask)``, ``system``, ``scenario``, ``side``, ``options`` and ``name``. Sampling
(``deterministic=False``) draws from an explicit numpy Generator.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from npc_tactics.errors import UserError
from npc_tactics.policy_io.bundle import Bundle, BundleError, read_bundle

__all__ = ["OnnxAgent", "OnnxPolicy", "load_bundle_agent"]


class OnnxPolicy:
    """An onnxruntime session over a bundle's network. One intra-op thread by default: one observation is a
    few small matrix products, and threads cost more than they save (and other processes share the cores)."""

    def __init__(self, model: bytes, *, threads: int = 1, where: str = "policy.onnx") -> None:
        from npc_tactics.policy_io.onnx_check import check_onnx

        try:
            shape = check_onnx(model, where)  # before onnxruntime: it would read external data files
        except UserError as exc:
            raise BundleError(str(exc)) from None
        try:
            import onnxruntime as ort
        except ImportError as exc:  # pragma: no cover - a dependency of the package
            raise BundleError(f"onnxruntime is needed to run a policy bundle ({exc})") from None
        opts = ort.SessionOptions()
        opts.intra_op_num_threads = threads
        opts.inter_op_num_threads = 1
        try:
            self.session = ort.InferenceSession(model, sess_options=opts, providers=["CPUExecutionProvider"])
        except Exception as exc:  # onnxruntime raises its own exception types for a malformed model
            raise BundleError(f"{where} cannot be loaded by onnxruntime ({type(exc).__name__}: {exc})") from None
        self.obs_size = shape.obs_size
        self.n_actions = shape.n_actions

    def probabilities(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """Masked probabilities for a batch: ``observations`` (N, obs_size), ``masks`` (N, n_actions) -> (N, n_actions)
        float32, 0 on illegal actions."""
        obs = np.ascontiguousarray(observations, dtype=np.float32)
        legal = np.ascontiguousarray(masks, dtype=bool)
        out = self.session.run(["probabilities"], {"observation": obs, "action_mask": legal})[0]
        return np.asarray(out)


class OnnxAgent:
    """A bundle's policy as an agent. ``name`` is ``bundle:<folder name>``; ``warnings`` are the bundle's
    compatibility warnings (rules version ...), for callers to show."""

    def __init__(self, policy: OnnxPolicy, *, system: str, scenario: str, side: int, name: str,
                 options: dict[str, Any] | None = None, deterministic: bool = True,
                 rng: np.random.Generator | None = None, bundle: Bundle | None = None) -> None:
        self.policy = policy
        self.system = system
        self.scenario = scenario
        self.side = side
        self.name = name
        self.options: dict[str, Any] = dict(options or {})
        self.deterministic = deterministic
        self.rng = rng if rng is not None else np.random.default_rng(0)
        self.bundle = bundle
        self.warnings: list[str] = list(bundle.warnings) if bundle is not None else []
        self.notes: list[str] = []
        self.n_actions = policy.n_actions
        self.obs_size = policy.obs_size

    @classmethod
    def from_bundle(cls, bundle: Bundle, *, deterministic: bool = True, rng: np.random.Generator | None = None,
                    threads: int = 1) -> OnnxAgent:
        s = bundle.schema
        policy = OnnxPolicy(bundle.onnx_bytes, threads=threads, where=str(bundle.path / "policy.onnx"))
        if (policy.obs_size, policy.n_actions) != (s.observation.size, len(s.actions)):
            raise BundleError(f"{bundle.path}: policy.onnx takes {policy.obs_size} values and {policy.n_actions} "
                              f"actions, schema.json says {s.observation.size} and {len(s.actions)}")
        return cls(policy, system=s.system, scenario=s.scenario, side=s.side, name=f"bundle:{bundle.name}",
                   options=dict(s.options), deterministic=deterministic, rng=rng, bundle=bundle)

    def action_probabilities(self, vector: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """The policy's probability of each catalogue action: 0 where ``mask`` is false, sum 1 (float64)."""
        vec = np.asarray(vector, dtype=np.float32).reshape(-1)
        legal = np.array(mask, dtype=bool).reshape(-1)
        if vec.shape[0] != self.obs_size:
            raise ValueError(f"{self.name}: observation has {vec.shape[0]} values, the policy expects "
                             f"{self.obs_size} (trained on another system or encoder version?)")
        if legal.shape[0] != self.n_actions:
            raise ValueError(f"{self.name}: mask has {legal.shape[0]} entries, the policy's catalogue has "
                             f"{self.n_actions}")
        if not legal.any():
            raise ValueError(f"{self.name}: empty action mask")
        raw: np.ndarray = self.policy.probabilities(vec[None, :], legal[None, :])[0]
        probs = np.where(legal, raw.astype(np.float64), 0.0)
        total = float(probs.sum())
        return probs / total if total > 0 else legal / legal.sum()

    def act(self, observation: Any, mask: np.ndarray) -> int:
        """The most probable legal action (deterministic) or one sampled from the masked distribution."""
        probs = self.action_probabilities(observation.vector, mask)
        if self.deterministic:
            return int(np.argmax(np.where(mask, probs, -1.0)))
        return int(self.rng.choice(len(probs), p=probs))

    def out_of_range(self, vector: np.ndarray) -> list[tuple[str, float, float, float]]:
        """``(field, value, min, max)`` of each feature outside the range seen when the bundle was made (empty
        without a bundle): a situation unlike anything the policy was measured on."""
        if self.bundle is None:
            return []
        fields = self.bundle.schema.observation.fields
        vec = np.asarray(vector, dtype=np.float64).reshape(-1)
        return [(f.name, float(v), f.min, f.max) for f, v in zip(fields, vec, strict=True)
                if v < f.min - 1e-6 or v > f.max + 1e-6]


def load_bundle_agent(path: str | Path, *, deterministic: bool = True, rng: np.random.Generator | None = None,
                      strict: bool = False) -> OnnxAgent:
    """Read and check the bundle in ``path`` (:func:`~npc_tactics.policy_io.bundle.read_bundle`) as an agent."""
    return OnnxAgent.from_bundle(read_bundle(path, strict=strict), deterministic=deterministic, rng=rng)
