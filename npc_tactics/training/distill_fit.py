"""Fitting a distilled student (:mod:`npc_tactics.training.distill`): its teachers' masked move probabilities,
the masked soft cross-entropy it is fitted by, and how closely it then follows each teacher."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from npc_tactics.training.distill import DistillSettings

__all__ = ["agreement", "cross_entropy", "fit", "probabilities"]


def probabilities(policy: Any, vectors: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """Masked move probabilities of a torch policy or a bundle's network (``OnnxPolicy``) for a batch."""
    if hasattr(policy, "session"):  # a bundle's onnxruntime network, an ensemble's average included
        probs = np.where(masks, np.asarray(policy.probabilities(vectors, masks), dtype=np.float64), 0.0)
        return probs / probs.sum(axis=1, keepdims=True)
    import torch as th

    with th.no_grad():
        dist = policy.get_distribution(th.as_tensor(vectors), action_masks=masks)
        probs = dist.distribution.probs.cpu().numpy()
    probs = np.where(masks, probs, 0.0)
    return probs / probs.sum(axis=1, keepdims=True)


def agreement(student: Any, vectors: np.ndarray, masks: np.ndarray, targets: np.ndarray,
               groups: np.ndarray) -> dict[str, float]:
    """Per group, the share of decisions where the student's most probable move is the teacher's."""
    mine = probabilities(student, vectors, masks).argmax(axis=1)
    theirs = targets.argmax(axis=1)
    return {str(g): round(float((mine[groups == g] == theirs[groups == g]).mean()), 4) for g in np.unique(groups)}


def _mean(per_row: Any, weights: Any | None) -> Any:
    """The plain mean, or the ``weights``-weighted one (None: the plain mean, so unweighted fits keep their bytes)."""
    return per_row.mean() if weights is None else (per_row * weights).sum() / weights.sum()


def cross_entropy(student: Any, vectors: np.ndarray, masks: np.ndarray, targets: np.ndarray,
                  weights: np.ndarray | None = None) -> float:
    """The mean masked cross-entropy of the student's actor against ``targets`` (what :func:`fit` lowers),
    weighted per decision by ``weights`` when given."""
    import torch as th

    with th.no_grad():
        latent = student.mlp_extractor.policy_net(student.extract_features(th.as_tensor(vectors),
                                                                           student.pi_features_extractor))
        logits = student.action_net(latent).masked_fill(~th.as_tensor(masks), -1e8)
        p = th.as_tensor(targets, dtype=th.float32)
        w = None if weights is None else th.as_tensor(weights, dtype=th.float32)
        return float(_mean(-(p * th.log_softmax(logits, dim=1)).sum(dim=1), w))


def fit(student: Any, vectors: np.ndarray, masks: np.ndarray, targets: np.ndarray, settings: DistillSettings,
        round_index: int, weights: np.ndarray | None = None) -> float:
    """``epochs`` passes of masked soft cross-entropy on the student's actor (each decision's term weighted by
    ``weights`` when given); the last pass's mean loss."""
    import torch as th

    th.manual_seed(settings.seed * 1_000 + round_index)
    params = (list(student.features_extractor.parameters()) + list(student.mlp_extractor.policy_net.parameters())
              + list(student.action_net.parameters()))
    optimiser = th.optim.Adam(params, lr=settings.learning_rate)
    x, m, p = th.as_tensor(vectors), th.as_tensor(masks), th.as_tensor(targets, dtype=th.float32)
    w = None if weights is None else th.as_tensor(weights, dtype=th.float32)
    order = th.Generator().manual_seed(settings.seed * 1_000 + round_index)
    student.set_training_mode(True)
    loss_sum = 0.0
    for _ in range(settings.epochs):
        loss_sum = 0.0
        for batch in th.randperm(len(x), generator=order).split(settings.batch_size):
            latent = student.mlp_extractor.policy_net(student.extract_features(x[batch], student.pi_features_extractor))
            logits = student.action_net(latent).masked_fill(~m[batch], -1e8)
            loss = _mean(-(p[batch] * th.log_softmax(logits, dim=1)).sum(dim=1), None if w is None else w[batch])
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            loss_sum += float(loss.detach()) * (len(batch) if w is None else float(w[batch].sum()))
    student.set_training_mode(False)
    return loss_sum / (len(x) if w is None else float(w.sum()))
