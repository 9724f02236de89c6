"""Fights for the tactics card: the NPC seat played by the network, the card or by-the-book, on paired seeds,
recording what the NPC was shown (for DAgger relabelling and fidelity) and the outcome of every fight.

Every NPC agent meets the same opponents in the same order on the same seeds (fight ``i`` has seed
``seed + i`` and opponent ``opponents[i % len(opponents)]``), so the win rates are paired comparisons.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from npc_tactics.evaluation.arena import Arena
from npc_tactics.evaluation.fight import agent_rngs, play_fight
from npc_tactics.evaluation.stats import wilson_interval
from npc_tactics.policy_io.onnx_agent import OnnxAgent

__all__ = ["Visited", "label_with_network", "play_seat", "rate", "seat_summary"]

NpcMaker = Callable[[Any, np.random.Generator], Any]


@dataclass
class Visited:
    """The NPC's decisions seen in some fights: observation vectors, legal masks, decision kind names, the fight
    index of each, the action chosen by whoever played, and what by-the-book would have played there (``book``,
    -1 when not asked)."""

    vectors: list[np.ndarray] = field(default_factory=list)
    masks: list[np.ndarray] = field(default_factory=list)
    kinds: list[str] = field(default_factory=list)
    fights: list[int] = field(default_factory=list)
    chosen: list[int] = field(default_factory=list)
    book: list[int] = field(default_factory=list)

    def arrays(self) -> tuple[np.ndarray, np.ndarray]:
        return np.asarray(self.vectors, dtype=np.float32), np.asarray(self.masks, dtype=bool)

    def book_moves(self) -> np.ndarray:
        return np.asarray(self.book, dtype=np.int64)

    def extend(self, other: Visited) -> None:
        for name in ("vectors", "masks", "kinds", "fights", "chosen", "book"):
            getattr(self, name).extend(getattr(other, name))


class _Recorder:
    def __init__(self, inner: Any, seen: Visited, fight: int, book: Any = None) -> None:
        self.inner, self.seen, self.fight, self.book = inner, seen, fight, book
        self.name = getattr(inner, "name", type(inner).__name__)

    def act(self, observation: Any, mask: np.ndarray) -> int:
        self.seen.book.append(int(self.book.act(observation, mask)) if self.book is not None else -1)
        action = int(self.inner.act(observation, mask))
        self.seen.vectors.append(np.asarray(observation.vector, dtype=np.float32).copy())
        self.seen.masks.append(np.asarray(mask, dtype=bool).copy())
        self.seen.kinds.append(observation.decision.kind.name.lower())
        self.seen.fights.append(self.fight)
        self.seen.chosen.append(action)
        return action


def play_seat(arena: Arena, side: int, npc: NpcMaker, opponents: Sequence[Any], seeds: Sequence[int],
              *, record: bool = True, fight_of: Callable[[int], Any] | None = None,
              book: NpcMaker | None = None) -> tuple[list[str], Visited]:
    """Play one fight per seed with ``npc(engine, rng)`` on ``side``: the NPC side's result of each fight
    (``win``/``loss``/``draw``/``fled``) and, with ``record``, every decision it was shown (and, with ``book``,
    the move ``book(engine, rng)`` would have made at each). The fight is the arena's scenario, or
    ``fight_of(seed)`` (a generalist's card: that seed's draw from its distribution)."""
    seen = Visited()
    results: list[str] = []
    for i, seed in enumerate(seeds):
        rngs = agent_rngs(seed, arena.sides)
        agents: list[Any] = [None] * arena.sides
        foe = opponents[i % len(opponents)]
        for s in range(arena.sides):
            agents[s] = npc(arena.engine, rngs[s]) if s == side else foe(arena.engine, rngs[s])
        if record:
            adviser = book(arena.engine, np.random.default_rng([seed, 7])) if book is not None else None
            agents[side] = _Recorder(agents[side], seen, i, adviser)
        fight = arena.scenario if fight_of is None else fight_of(seed)
        rec = play_fight(arena.engine, arena.encoder, fight, agents, seed)
        results.append(rec.results[side])
    return results, seen


def label_with_network(agent: OnnxAgent, vectors: np.ndarray, masks: np.ndarray,
                       chunk: int = 4096) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The network on visited states: its masked probabilities, its most likely legal action (the label) and
    how much the choice matters (``max p - 1/legal moves``: 0 for a forced or a coin-flip choice)."""
    probs = np.zeros(masks.shape, dtype=np.float64)
    for start in range(0, len(vectors), chunk):
        probs[start:start + chunk] = agent.policy.probabilities(vectors[start:start + chunk],
                                                                masks[start:start + chunk])
    probs = np.where(masks, probs, 0.0)
    labels = np.argmax(np.where(masks, probs, -1.0), axis=1)
    legal = masks.sum(axis=1)
    weights = np.clip(probs.max(axis=1) - 1.0 / np.maximum(legal, 1), 0.0, None)
    return probs, labels, weights


def rate(count: int, n: int) -> dict[str, float]:
    low, high = wilson_interval(count, n)
    return {"rate": count / n if n else 0.0, "low": low, "high": high, "count": count, "n": n}


def seat_summary(results: Sequence[str]) -> dict[str, Any]:
    """Win rate with its Wilson interval, and the fled share, of one NPC seat's fights."""
    n = len(results)
    return {"win": rate(sum(r == "win" for r in results), n), "fled": sum(r == "fled" for r in results) / n}
