"""A search agent: at each decision, play every legal move out many times, its own side following a script
afterwards (by-the-book, and each of ``plans`` in turn: cautious, aggressive) and the enemy its own script,
and keep the move whose best plan wins most often: Monte-Carlo policy improvement with policy switching over
those scripts (Tesauro and Galperin's rollouts, 1996; Chang, Givan and Chong's parallel rollout, 2004).

Why it exists: it measures how much a system's fights leave to the choice at each decision, with no
training. It knows the rules (it steps copies of the true state through the engine), the opponent's script
and every declaration already made (more than any observation gives a policy); the dice of its play-outs are
its own, never the fight's. With plans it also finds what a script keeps up over many decisions: on OSE's
goblin_duel, stepping back and shooting every round (20 of 20 fights with 16 play-outs, by-the-book 5; with
by-the-book alone afterwards, one better move at a time, 9). Its win rate on the held-out fights against
by-the-book (``benchmarks/generalist_lookahead.py``) is a yardstick for the trained generalist's, not a bound:
a policy can plan further than one move and a script. It takes about 0.1-0.5 s a decision here (OSE, MRQ,
the dice pool at 16-64 play-outs; three times that with two plans), so it is a benchmark, not one of the
named agents.

How a move is chosen. Play-out ``k`` of every move and plan rolls dice from ``default_rng([seed, k])`` and
builds its agents from the same seeds, so moves are compared on common random numbers (``seed`` is drawn
from the agent's own generator once per decision). A move's value is the fraction of its best plan's
play-outs the acting side wins (a draw, a flight or a fight cut at :data:`MAX_PLAYOUT_DECISIONS` counts as
not won). By-the-book's own move is kept unless another one's value beats it by more than ``margin``:
without that margin the agent picks among near-equal moves by noise, and those errors add up (measured on
300 OSE held-out fights, 16 play-outs, no plans: margin 0 won 35.3%, by-the-book 40.7%, margin 0.1 42.7%).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from npc_tactics.dice import RngRoller
from npc_tactics.policy_io.agent import Agent, AgentFactory, Observation
from npc_tactics.rules.base import Decision, Engine, SideResult

__all__ = ["MAX_PLAYOUT_DECISIONS", "LookaheadAgent", "lookahead_factory"]

#: a play-out longer than this many decisions counts as not won (no shipped fight comes near it)
MAX_PLAYOUT_DECISIONS = 2_000


class _NoVector:
    """The encoder of the play-outs' observations: scripted agents read the state, never the vector."""

    @staticmethod
    def encode(state: Any, decision: Decision | None) -> np.ndarray:
        raise RuntimeError("a lookahead play-out's base agent asked for an observation vector: use a scripted "
                           "agent as the base")


class LookaheadAgent:
    """Plays the move whose play-outs win most often (``rollouts`` of them per plan; afterwards the enemy plays
    ``base`` and the acting side ``base`` or one of ``plans``, the best of them counted); keeps ``base``'s own
    move unless another beats it by more than ``margin`` (module docstring)."""

    name = "lookahead"

    def __init__(self, engine: Engine[Any], rng: np.random.Generator, *, base: AgentFactory,
                 rollouts: int = 64, margin: float = 0.05, plans: Sequence[AgentFactory] = ()) -> None:
        if rollouts < 1:
            raise ValueError(f"rollouts: expected at least 1, got {rollouts}")
        if not 0.0 <= margin <= 1.0:
            raise ValueError(f"margin: expected a win-rate difference in [0, 1], got {margin}")
        self.engine = engine
        self.rng = rng
        self.base = base
        self.rollouts = rollouts
        self.margin = margin
        self.plans = (base, *plans)
        self._own_base = base(engine, np.random.default_rng(rng.integers(2**63)))

    def _agents(self, seed: int, k: int, sides: int, side: int, plan: AgentFactory) -> list[Agent]:
        return [(plan if s == side else self.base)(self.engine, np.random.default_rng([seed, k, s]))
                for s in range(sides)]

    def _play_out(self, state: Any, dice: RngRoller, agents: list[Agent], side: int) -> float:
        """1.0 when ``side`` wins the fight played on from ``state`` (changed in place), else 0.0."""
        engine = self.engine
        for _ in range(MAX_PLAYOUT_DECISIONS):
            outcome = engine.outcome(state)
            if outcome is not None:
                return 1.0 if outcome.results[side] == SideResult.WIN else 0.0
            decision = engine.pending(state)
            if decision is None:
                return 0.0
            mask = engine.legal_mask(state, decision)
            acting = agents[int(state.combatants[decision.actor].side)]
            action = acting.act(Observation(None, state, decision, engine, encoder=_NoVector), mask)
            state, _ = engine.step(state, action, dice, inplace=True, record_rolls=False, mask=mask)
        return 0.0

    def values(self, state: Any, decision: Decision, mask: np.ndarray, seed: int) -> dict[int, float]:
        """Each legal move's fraction of won play-outs for the side of ``decision``'s actor (``state`` is not
        changed)."""
        engine = self.engine
        side = int(state.combatants[decision.actor].side)
        sides = max(int(engine.spec.sides), 1 + max(int(c.side) for c in state.combatants))
        out: dict[int, float] = {}
        for action in np.flatnonzero(mask):
            best = 0.0
            for plan in self.plans:
                won = 0.0
                for k in range(self.rollouts):
                    dice = RngRoller(np.random.default_rng([seed, k]))
                    after, _ = engine.step(state, int(action), dice, record_rolls=False, mask=mask)
                    won += self._play_out(after, dice, self._agents(seed, k, sides, side, plan), side)
                best = max(best, won / self.rollouts)
            out[int(action)] = best
        return out

    def act(self, observation: Observation, mask: np.ndarray) -> int:
        legal = np.flatnonzero(mask)
        if len(legal) == 1:
            return int(legal[0])
        own = int(self._own_base.act(observation, mask))
        seed = int(self.rng.integers(2**63))
        values = self.values(observation.state, observation.decision, mask, seed)
        best = max(values, key=lambda a: (values[a], a == own))
        return best if values[best] - values[own] > self.margin else own


def lookahead_factory(base: AgentFactory, *, rollouts: int = 64, margin: float = 0.05,
                      plans: Sequence[AgentFactory] = ()) -> AgentFactory:
    """An :data:`AgentFactory` of :class:`LookaheadAgent` s improving on ``base`` (a scripted agent's factory)."""

    def build(engine: Engine[Any], rng: np.random.Generator) -> Agent:
        return LookaheadAgent(engine, rng, base=base, rollouts=rollouts, margin=margin, plans=plans)

    return build
