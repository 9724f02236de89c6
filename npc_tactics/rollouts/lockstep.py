"""Rollouts of one chunk in lockstep: every fight of the chunk advances to its next policy decision, then one
batched network call answers them all.

A bundle's network costs about as much per call for one observation as for fifty, so batching the policy's
decisions of a chunk's fights divides the inference overhead by the chunk's width. Scripted agents act at once
(they read the state, there is nothing to batch). The batch a fight is in depends only on the chunk (fixed by
``chunk_size``, never by the number of workers), so results stay independent of the worker count even where a
batched matrix product rounds differently from a single-row one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from npc_tactics.agents.base import Observation
from npc_tactics.dice import RngRoller

__all__ = ["Fight", "batched_policy", "play_chunk"]


@dataclass(slots=True)
class Fight:
    move: int
    index: int
    seed: int
    state: Any
    roller: RngRoller
    agents: list[Any]
    start: int
    decisions: int = 0


def batched_policy(agent: Any) -> Any | None:
    """The network behind a deterministic bundle agent (``OnnxAgent``), or None for agents that act alone."""
    policy = getattr(agent, "policy", None)
    if getattr(agent, "deterministic", False) and hasattr(policy, "probabilities"):
        return policy
    return None


def _choose(probs: np.ndarray, mask: np.ndarray) -> int:
    """Exactly ``OnnxAgent.act`` (deterministic) on one row of a batched call."""
    legal = np.asarray(mask, dtype=bool)
    p = np.where(legal, probs.astype(np.float64), 0.0)
    total = float(p.sum())
    p = p / total if total > 0 else legal / legal.sum()
    return int(np.argmax(np.where(legal, p, -1.0)))


def play_chunk(engine: Any, encoder: Any, fights: list[Fight], max_decisions: int) -> None:
    """Play every fight of ``fights`` to its end (in place)."""
    active = list(fights)
    while active:
        waiting: dict[int, list[tuple[Fight, np.ndarray, np.ndarray]]] = {}
        policies: dict[int, Any] = {}
        still: list[Fight] = []
        for f in active:
            while engine.outcome(f.state) is None:
                decision = engine.pending(f.state)
                if decision is None:
                    raise RuntimeError(f"{engine.spec.name} engine has no pending decision but no outcome either")
                mask = engine.legal_mask(f.state, decision)
                agent = f.agents[decision.side]
                policy = batched_policy(agent)
                if policy is not None:
                    vector = encoder.encode(f.state, decision)
                    waiting.setdefault(id(policy), []).append((f, vector, np.array(mask, dtype=bool)))
                    policies[id(policy)] = policy
                    still.append(f)
                    break
                action = int(agent.act(Observation(None, f.state, decision, engine, encoder), mask))
                _step(engine, f, action, mask, max_decisions)
        for key, rows in waiting.items():
            probs = policies[key].probabilities(np.stack([r[1] for r in rows]), np.stack([r[2] for r in rows]))
            for (f, _, mask), p in zip(rows, probs, strict=True):
                _step(engine, f, _choose(p, mask), mask, max_decisions)
        active = [f for f in still if engine.outcome(f.state) is None]


def _step(engine: Any, f: Fight, action: int, mask: np.ndarray, max_decisions: int) -> None:
    f.state, _ = engine.step(f.state, action, f.roller, inplace=True, record_rolls=False, mask=mask)
    f.decisions += 1
    if f.decisions > max_decisions:
        raise RuntimeError(f"rollout seed {f.seed} did not end after {max_decisions} decisions")
