"""Advice for the NPC's whole turn when a turn spans several decisions (OSE: declare -> move -> missile; RQG:
statement of intent -> its options -> reactions; the dice pool: strike -> dice to DEFENSE).

From the suggested move, the fight is played on to the end of the current round a few times (seeded; the
NPC side by the policy's most probable move, the other side by the opponent agent), and the acting NPC's
later decisions of the round are collected. Dice and initiative can change what comes next, so the plan is the
most frequent sequence, with how often it happened: "declare nothing, then step back, then shoot Brannoc
(17 of 20 plays)".
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from npc_tactics.agents.base import Observation
from npc_tactics.dice import RngRoller
from npc_tactics.rollouts import rollout_seeds

__all__ = ["TurnPlan", "TurnStep", "plan_turn"]

#: Plays of the rest of the round behind one plan.
TURN_SAMPLES = 20
#: The most decisions of the acting NPC one plan lists.
MAX_STEPS = 6
_SAFETY = 2_000

Labeler = Callable[[Any, Any, int], str]


@dataclass(frozen=True)
class TurnStep:
    decision: str
    action: int
    name: str
    label: str

    def to_dict(self) -> dict[str, Any]:
        return {"decision": self.decision, "action": self.name, "index": self.action, "label": self.label}


@dataclass(frozen=True)
class TurnPlan:
    steps: list[TurnStep]
    seen: int
    samples: int

    def to_dict(self) -> dict[str, Any]:
        return {"steps": [s.to_dict() for s in self.steps], "seen": self.seen, "samples": self.samples}

    def text(self, _: Any) -> str:
        body = _(", then ").join(s.label for s in self.steps)
        return _("this round: {plan} ({seen} of {samples} plays)").format(
            plan=body, seen=self.seen, samples=self.samples)


def _decision_name(decision: Any) -> str:
    phase = decision.context.get("phase") if hasattr(decision.context, "get") else None
    kind = decision.kind.name.lower()
    return f"{kind}:{phase}" if isinstance(phase, str) and phase not in ("", kind) else kind


def _best(policy: Any, encoder: Any, state: Any, decision: Any, mask: np.ndarray) -> int:
    probs = policy.action_probabilities(encoder.encode(state, decision), mask)
    legal = np.flatnonzero(mask)
    return int(legal[np.argmax(np.asarray(probs)[legal])])


def plan_turn(engine: Any, encoder: Any, state: Any, first: int, policy: Any,
              opponent: Callable[[Any, np.random.Generator], Any], labeler: Labeler, *, seed: int = 0,
              samples: int = TURN_SAMPLES) -> TurnPlan | None:
    """The acting NPC's decisions for the rest of this round after ``first`` (see the module docstring), or
    None when ``first`` is the only decision of its round in every play."""
    decision = engine.pending(state)
    actor, side = decision.actor, decision.side
    start_round = int(getattr(state, "round", 0))
    chains: Counter[tuple[tuple[str, int], ...]] = Counter()
    labels: dict[tuple[str, int], str] = {}
    head = (_decision_name(decision), int(first))
    labels[head] = labeler(state, decision, int(first))
    for s in rollout_seeds(seed, samples):
        roller = RngRoller(np.random.default_rng(s))
        other = opponent(engine, np.random.default_rng(np.random.SeedSequence(s).spawn(1)[0]))
        st, _ = engine.step(engine.clone(state), int(first), roller, inplace=True, record_rolls=False)
        chain = [head]
        for _step in range(_SAFETY):
            if engine.outcome(st) is not None or int(getattr(st, "round", 0)) != start_round:
                break
            d = engine.pending(st)
            mask = engine.legal_mask(st, d)
            if d.side == side:
                a = _best(policy, encoder, st, d, mask)
                if d.actor == actor:
                    key = (_decision_name(d), a)
                    if key not in labels:
                        labels[key] = labeler(st, d, a)
                    chain.append(key)
                    if len(chain) >= MAX_STEPS:
                        break
            else:
                a = int(other.act(Observation(None, st, d, engine, encoder), mask))
            st, _ = engine.step(st, a, roller, inplace=True, record_rolls=False, mask=mask)
        chains[tuple(chain)] += 1
    best, seen = max(chains.items(), key=lambda kv: (kv[1], -len(kv[0])))
    if len(best) == 1:  # most often this move is all the NPC does this round: no plan to tell
        return None
    return TurnPlan([TurnStep(k, a, engine.catalogue.name(a), labels[(k, a)]) for k, a in best], seen, samples)
