"""Fights of one chunk in lockstep: every fight advances to its next policy decision, then one batched network
call per policy answers them all.

A network costs about as much per call for one observation as for fifty, so batching the policy decisions of a
chunk's fights divides the inference overhead by the chunk's width. Scripted agents act at once (they read the
state, there is nothing to batch). A decision with a single legal move is taken without asking the network: a
deterministic policy can only choose it (an exact shortcut, no encoding either).

**Results do not depend on the chunk.** Which fights share a batch changes with the chunk's width ``k`` (and a
fight's row with its neighbours), so a policy is only batched through :class:`BatchedPolicy`, which checks once
per loaded network whether a row's probabilities depend on the batch's height (onnxruntime's CPU kernels: no;
torch's: yes, for small batches). Where they do, the network is always called with exactly
:data:`PAD_WIDTH` rows (padded), so every row is computed by the same kernel whatever ``k`` is.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from npc_tactics.agents.base import Observation
from npc_tactics.dice import RngRoller
from npc_tactics.policy_io.agent import Policy
from npc_tactics.rules.base import Event

__all__ = ["PAD_WIDTH", "BatchedPolicy", "Fight", "batched_policy", "play_chunk"]

#: The fixed batch height of networks whose rows depend on the batch's height.
PAD_WIDTH = 64

ProbsFn = Callable[[np.ndarray, np.ndarray], np.ndarray]


@dataclass(slots=True)
class Fight:
    """One fight of a chunk. ``move`` and ``index`` are the caller's tags (the rollouts' move and rollout
    number, a task's position); ``start`` the round it started in. In record mode ``events`` holds the whole
    log and ``per_side``/``actions`` count each side's decisions and action verbs. ``leaving``: ``(actor,
    moves)`` for an NPC that has chosen to leave the fight: at each of its decisions the first legal move of
    ``moves`` is played, whoever its side's agent is (the agent where none is legal: a reaction, say)."""

    move: int
    index: int
    seed: int
    state: Any
    roller: RngRoller
    agents: list[Any]
    start: int
    decisions: int = 0
    events: list[Event] | None = None
    per_side: list[int] | None = None
    actions: list[Counter[str]] | None = None
    leaving: tuple[int, tuple[int, ...]] | None = None


def _row_invariant(run: ProbsFn, obs_size: int, n_actions: int) -> bool:
    """Whether ``run`` gives each row the same bits alone, in a short batch and in a :data:`PAD_WIDTH` batch
    (the kernels' choice depends on shapes, not values, so random rows tell)."""
    rng = np.random.default_rng(0)
    obs = rng.uniform(-1.0, 1.0, (PAD_WIDTH, obs_size)).astype(np.float32)
    masks = rng.random((PAD_WIDTH, n_actions)) < 0.7
    masks[:, 0] = True
    full = np.asarray(run(obs, masks))
    for start, width in [(i, 1) for i in range(0, PAD_WIDTH, 5)] + [(0, 2), (3, 3), (10, 7), (20, 17), (1, 40)]:
        if not np.array_equal(np.asarray(run(obs[start:start + width], masks[start:start + width])),
                              full[start:start + width]):
            return False
    return True


class BatchedPolicy:
    """A deterministic policy's network called on a batch: ``probabilities(observations, masks)``. ``width``
    is None when rows do not depend on the batch's height, else the fixed height every call is padded to."""

    def __init__(self, run: ProbsFn, obs_size: int, n_actions: int) -> None:
        self.run = run
        self.width: int | None = None if _row_invariant(run, obs_size, n_actions) else PAD_WIDTH

    def probabilities(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        if self.width is None:
            return np.asarray(self.run(observations, masks))
        w, n, parts = self.width, len(observations), []
        for i in range(0, n, w):
            obs, legal = observations[i:i + w], masks[i:i + w]
            rows = len(obs)
            if rows < w:  # pad with copies of the last row: the kernel sees PAD_WIDTH rows every time
                obs = np.concatenate([obs, np.repeat(obs[-1:], w - rows, axis=0)])
                legal = np.concatenate([legal, np.repeat(legal[-1:], w - rows, axis=0)])
            parts.append(np.asarray(self.run(obs, legal))[:rows])
        return np.concatenate(parts)


def _torch_run(policy: Any) -> ProbsFn:
    def run(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        import torch as th

        with th.no_grad():
            dist = policy.get_distribution(th.as_tensor(np.ascontiguousarray(observations, dtype=np.float32)),
                                           action_masks=np.ascontiguousarray(masks, dtype=bool))
            return np.asarray(dist.distribution.probs.cpu().numpy())
    return run


#: id(agent) -> (agent, its batched network); the agent is kept so that its id is never reused.
_BATCHED: dict[int, tuple[Any, BatchedPolicy]] = {}


def batched_policy(agent: Any) -> BatchedPolicy | None:
    """The batched network behind a deterministic bundle agent (``OnnxAgent``) or trained-run agent
    (``PolicyAgent``), or None for agents that act alone (scripted, sampling, cards).

    The cache is read first: ``isinstance`` against the runtime-checkable ``Policy`` protocol walks the
    protocol's attributes on every call (about 50 µs on Python 3.11), which the play-outs' hot loop cannot pay."""
    known = _BATCHED.get(id(agent))
    if known is not None and known[0] is agent:
        return known[1]
    if not isinstance(agent, Policy) or not agent.deterministic:
        return None
    policy: Any = getattr(agent, "policy", None)  # the network: an OnnxPolicy or an SB3 policy
    size, n = agent.obs_size, agent.n_actions
    if hasattr(policy, "probabilities"):
        run: ProbsFn = policy.probabilities
    elif hasattr(policy, "get_distribution"):
        run = _torch_run(policy)
    else:
        return None
    batched = BatchedPolicy(run, size, n)
    _BATCHED[id(agent)] = (agent, batched)
    return batched


def _choose(probs: np.ndarray, mask: np.ndarray) -> int:
    """Exactly ``OnnxAgent.act`` / ``PolicyAgent.act`` (deterministic) on one row of a batched call."""
    legal = np.asarray(mask, dtype=bool)
    p = np.where(legal, probs.astype(np.float64), 0.0)
    total = float(p.sum())
    p = p / total if total > 0 else legal / legal.sum()
    return int(np.argmax(np.where(legal, p, -1.0)))


def _choose_rows(probs: np.ndarray, masks: np.ndarray) -> list[int]:
    """:func:`_choose` of every row at once, element for element the same operations (a row's sum runs over
    its contiguous values as a 1-D sum does; division and argmax are per element and per row)."""
    legal = np.ascontiguousarray(masks, dtype=bool)
    p = np.ascontiguousarray(np.where(legal, probs.astype(np.float64), 0.0))
    totals = np.array([float(row.sum()) for row in p])
    ok = totals > 0
    p = np.where(ok[:, None], p / np.where(ok, totals, 1.0)[:, None], legal / legal.sum(axis=1, keepdims=True))
    return [int(a) for a in np.argmax(np.where(legal, p, -1.0), axis=1)]


def play_chunk(engine: Any, encoder: Any, fights: list[Fight], max_decisions: int, *, record: bool = False) -> None:
    """Play every fight of ``fights`` to its end (in place). ``record``: keep every event (rolls included) and
    count decisions and verbs per side, as a recorded single fight does."""
    active = list(fights)
    catalogue = engine.catalogue
    # id(agent) -> its batched network or None, resolved once a call: the fights hold their agents until it
    # returns, so an id is not reused meanwhile; a scripted agent is asked once, not at every decision
    resolved: dict[int, BatchedPolicy | None] = {}
    while active:
        waiting: dict[int, list[tuple[Fight, Any, np.ndarray]]] = {}
        policies: dict[int, BatchedPolicy] = {}
        still: list[Fight] = []
        for f in active:
            while engine.outcome(f.state) is None:
                decision = engine.pending(f.state)
                if decision is None:
                    raise RuntimeError(f"{engine.spec.name} engine has no pending decision but no outcome either")
                mask = engine.legal_mask(f.state, decision)
                if f.leaving is not None and int(decision.actor) == f.leaving[0]:
                    way_out = next((a for a in f.leaving[1] if mask[a]), -1)
                    if way_out >= 0:
                        _step(engine, f, decision, way_out, mask, max_decisions, record, catalogue)
                        continue
                agent = f.agents[decision.side]
                key = id(agent)
                if key in resolved:
                    policy = resolved[key]
                else:
                    policy = resolved[key] = batched_policy(agent)
                if policy is not None:
                    legal = np.flatnonzero(mask)
                    if len(legal) == 1:  # a deterministic policy can only take it
                        _step(engine, f, decision, int(legal[0]), mask, max_decisions, record, catalogue)
                        continue
                    waiting.setdefault(id(policy), []).append((f, decision, np.array(mask, dtype=bool)))
                    policies[id(policy)] = policy
                    still.append(f)
                    break
                action = int(agent.act(Observation(None, f.state, decision, engine, encoder), mask))
                _step(engine, f, decision, action, mask, max_decisions, record, catalogue)
        for key, rows in waiting.items():
            obs = np.empty((len(rows), int(encoder.size)), dtype=np.float32)
            for i, (f, decision, _) in enumerate(rows):
                encoder.encode_into(f.state, decision, obs[i])
            masks = np.stack([r[2] for r in rows])
            choices = _choose_rows(policies[key].probabilities(obs, masks), masks)
            for (f, decision, mask), action in zip(rows, choices, strict=True):
                _step(engine, f, decision, action, mask, max_decisions, record, catalogue)
        active = still  # the loop above checks each one's outcome first


def _step(engine: Any, f: Fight, decision: Any, action: int, mask: np.ndarray, max_decisions: int, record: bool,
          catalogue: Any) -> None:
    f.decisions += 1
    if f.decisions > max_decisions:
        raise RuntimeError(f"fight with seed {f.seed} did not end after {max_decisions} decisions")
    if record:
        assert f.events is not None and f.per_side is not None and f.actions is not None
        f.per_side[decision.side] += 1
        f.actions[decision.side][catalogue[action].verb if 0 <= action < len(catalogue) else "?"] += 1
        f.state, events = engine.step(f.state, action, f.roller, inplace=True, mask=mask)
        f.events.extend(events)
    else:
        f.state, _ = engine.step(f.state, action, f.roller, inplace=True, record_rolls=False, mask=mask)
