"""One fight seen from the learner's seat, shared by :class:`TacticsEnv` and the training ``VecEnv``.

A :class:`LearnerSession` wraps a :class:`~npc_tactics.envs.session.FightSession`: at each episode it draws the
dice and opponent streams from the caller's generator, picks one opponent from the pool, then advances the
fight until the learner's side must decide, answering every other decision with the opponent and summing the
reward the learner gets along the way. Keeping this in one place is what makes the Gymnasium env and the
vectorised training env play the same episode for the same seed.

Opponents are :class:`~npc_tactics.policy_io.agent.Agent` objects (shared by every episode) or factories
``(engine, rng) -> Agent`` called at each episode with that episode's opponent stream; with several, one is
drawn per episode from that same stream.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from npc_tactics.envs.session import FightSession, spawn_seeds
from npc_tactics.policy_io.agent import Agent, AgentFactory
from npc_tactics.rules.base import Decision, IllegalActionError, SideResult

__all__ = ["BOTH", "LearnerSession", "Opponent", "build_opponent", "opponent_pool"]

BOTH = "both"
"""``side="both"``: the learner's side is drawn per episode from the episode's generator (self-play on both
seats, docs/selfplay.md); observations and rewards are always from the side it plays that episode."""

Opponent = Agent | AgentFactory
"""An opponent: a ready agent (shared by every episode) or a factory ``(engine, rng) -> Agent`` called at each
reset with that episode's opponent RNG stream."""


class LearnerSession:
    """The learner's view of one fight: ``begin(rng)`` starts an episode, ``act(action)`` answers a decision.

    ``decision`` is the learner's pending decision, None once the episode is over (the fight ended, or the
    learner forfeited it with an illegal action: ``illegal`` then says which). ``side`` is the learner's side in
    the episode in progress (drawn at each ``begin`` when constructed with ``side="both"``)."""

    def __init__(self, session: FightSession, side: int | str,
                 opponents: Opponent | Sequence[Opponent] | None) -> None:
        n_sides = session.engine.spec.sides
        self.both = side == BOTH
        if self.both and n_sides != 2:
            raise ValueError(f"side 'both' needs a two-sided fight; {session.system} has {n_sides} sides")
        if not self.both and (not isinstance(side, int) or isinstance(side, bool) or not 0 <= side < n_sides):
            raise ValueError(f"side must be an integer in [0, {n_sides - 1}] or 'both', got {side!r}")
        self.session = session
        self.side: int = 0 if self.both else int(side)
        self.opponent_pool = opponent_pool(opponents)
        for spec in self.opponent_pool:  # fail at construction, not at the first reset
            build_opponent(spec, session.engine, np.random.default_rng(0))
        # agent or factory, decided once: a runtime Protocol isinstance check costs more than a short fight's step
        self._ready = [_is_agent(spec) for spec in self.opponent_pool]
        self.opponent: Agent | None = None
        self.decision: Decision | None = None
        self.illegal: str | None = None

    # ----- episode ----------------------------------------------------------------------------------
    def begin(self, rng: np.random.Generator) -> None:
        """Start an episode: dice and opponent streams spawned from ``rng``, one opponent drawn from the pool,
        then the opponents play until the learner's first decision (shaping before it is not paid)."""
        dice_seed, opponent_seed = spawn_seeds(rng, 2)
        if self.both:  # a third draw, only in this mode: one-sided episodes keep their streams
            self.side = int(spawn_seeds(rng, 1)[0] % 2)
        opponent_rng = np.random.default_rng(opponent_seed)
        k = int(opponent_rng.integers(len(self.opponent_pool)))
        spec = self.opponent_pool[k]
        self.opponent = spec if self._ready[k] else spec(self.session.engine, opponent_rng)  # type: ignore[assignment,operator]  # _ready[k] says which of Agent | AgentFactory it is
        self.session.start(dice_seed)
        self.illegal = None
        self.advance()

    def check(self, action: int) -> IllegalActionError | None:
        """The error an ``action`` would raise at the pending decision, or None if it is legal."""
        assert self.decision is not None
        mask = self.session.mask(self.decision)
        if 0 <= action < len(mask) and mask[action]:
            return None
        return IllegalActionError(action, self.session.engine.catalogue.name(action), self.decision,
                                  "masked out by the rules")

    def forfeit(self, error: IllegalActionError) -> float:
        """End the episode on an illegal action: a loss (the reward is returned)."""
        self.illegal = str(error)
        self.decision = None
        return self.session.reward_config.loss

    def act(self, action: int) -> tuple[float, bool]:
        """Apply a legal ``action`` (see :meth:`check`), let the opponents answer, return (reward, terminated).

        The reward is the shaping of every event until the learner's next decision, plus the terminal reward
        when the fight ends."""
        s = self.session
        reward = s.reward_tracker.from_events(s.apply(action), self.side)
        reward += self.advance()
        if self.decision is not None:
            return reward, False
        outcome = s.outcome
        assert outcome is not None
        reward += s.reward_tracker.final(outcome.result(self.side), s.state.combatants, self.side)
        return reward, True

    def advance(self) -> float:
        """Let the opponents answer until the learner must decide or the fight ends; return the shaping."""
        s = self.session
        side = self.side
        tracker = s.reward_tracker
        reward = 0.0
        while True:
            decision = s.decision
            if decision is None or decision.side == side:
                self.decision = decision
                return reward
            assert self.opponent is not None
            action = self.opponent.act(s.observation(decision), s.mask(decision))
            reward += tracker.from_events(s.apply(action), side)

    # ----- what the learner sees ------------------------------------------------------------------------
    def mask(self) -> np.ndarray:
        """The pending decision's legal mask (the session's cached array: do not modify), all ones when over."""
        if self.decision is None:
            return np.ones(self.session.n_actions, dtype=bool)
        return self.session.mask(self.decision)

    def encode_into(self, out: np.ndarray) -> np.ndarray:
        """Write the observation into ``out`` (zeros once the episode is over)."""
        if self.decision is None:
            out.fill(0.0)
            return out
        return self.session.encoder.encode_into(self.session.state, self.decision, out)

    def encode(self) -> np.ndarray:
        if self.decision is None:
            return np.zeros(self.session.encoder.size, dtype=np.float32)
        return self.session.encoder.encode(self.session.state, self.decision)

    def outcome_info(self) -> dict[str, Any] | None:
        """``{"result", "rounds", "reason"}`` from the learner's side once the fight is over, else None."""
        s = self.session
        if self.illegal is not None:
            return {"result": "loss", "rounds": getattr(s.state, "round", 0), "reason": "illegal action"}
        outcome = s.outcome
        if outcome is None:
            return None
        result: SideResult = outcome.result(self.side)
        return {"result": result.name.lower(), "rounds": outcome.rounds, "reason": outcome.reason}


def opponent_pool(opponents: Opponent | Sequence[Opponent] | None) -> list[Opponent]:
    """The opponents as a non-empty list of agents and factories; names are resolved above this layer."""
    if opponents is None:
        raise ValueError("TacticsEnv needs opponents (Agent objects or factories (engine, rng) -> Agent); "
                         "gymnasium.make and npc_tactics.make_env.make_env also take agent names")
    pool = list(opponents) if isinstance(opponents, Sequence) and not isinstance(opponents, str) else [opponents]
    if not pool:
        raise ValueError("opponents must name at least one agent")
    for spec in pool:
        if not (_is_agent(spec) or callable(spec)):
            raise TypeError(f"opponent {spec!r} is neither an Agent nor a factory (engine, rng) -> Agent; "
                            "resolve names with npc_tactics.make_env.make_env")
    return pool


def _is_agent(spec: object) -> bool:
    """A ready agent, not a factory (an agent class such as ``RandomLegalAgent`` is a factory)."""
    return not isinstance(spec, type) and isinstance(spec, Agent)


def build_opponent(spec: Opponent, engine: Any, rng: np.random.Generator) -> Agent:
    """The agent for one episode: a ready agent as is, a factory called with the episode's RNG stream."""
    if _is_agent(spec):
        return spec  # type: ignore[return-value]  # _is_agent narrowed it; 3.11 has no TypeIs
    return spec(engine, rng)  # type: ignore[operator]  # likewise: not an Agent, so a factory
