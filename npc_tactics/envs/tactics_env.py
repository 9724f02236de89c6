"""The single-agent Gymnasium environment over any rules engine."""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from npc_tactics.envs.render import render_text
from npc_tactics.envs.rewards import RewardConfig
from npc_tactics.envs.session import FightSession, spawn_seeds
from npc_tactics.policy_io.agent import Agent, AgentFactory
from npc_tactics.rules.base import Decision, IllegalActionError, SideResult

ILLEGAL_MODES = ("terminate", "raise")

Opponent = Agent | AgentFactory
"""An opponent: a ready agent (shared by every episode) or a factory ``(engine, rng) -> Agent`` called at each
reset with that episode's opponent RNG stream."""


class TacticsEnv(gym.Env[np.ndarray, np.int64]):
    """NPC tactics for one side of a tabletop fight.

    ## Description
    A fight from a shipped scenario (or a YAML path) under one rules system. The learner controls every
    combatant of ``side`` with one shared policy: each step answers one decision of one of its combatants
    (declare an intent, act on a turn, react to a blow, pick a special effect, split a pool). The other side's
    decisions are answered inside ``step`` by the opponent agents.

    ## Action Space
    ``Discrete(len(catalogue))``: the system's fixed action catalogue (``docs/<system>.md`` lists it).
    Only the actions of ``action_masks()`` (also ``info["action_mask"]``) are legal. An illegal action is
    never silently accepted: with ``illegal_action="terminate"`` (default, PettingZoo's convention for
    classic games, and what Gymnasium's checkers need) it ends the episode as a loss with
    ``info["illegal_action"]`` naming it; with ``"raise"`` it raises ``IllegalActionError``.

    ## Observation Space
    ``Box(-1, 1, (n,), float32)`` from the system's encoder: decision kind, decision context, then the acting
    combatant, its allies and its enemies (``docs/<system>.md`` documents every field).

    ## Rewards
    ``RewardConfig``: win/loss/draw/fled at the end, optional damage shaping and survival/escape terms.

    ## Episode End
    Terminated when the engine reports an outcome (one side out, everyone fled, or the round cap: a draw).
    Truncated only by ``max_episode_steps`` of the registration, a safety net.

    ## Arguments
    ``system``, ``scenario`` (name or YAML path; default: the system's default), ``side`` (0 = NPCs),
    ``opponents`` (Agent objects or factories ``(engine, rng) -> Agent``; with several, one is drawn per
    episode; ``gymnasium.make`` goes through :func:`npc_tactics.make_env.make_env`, which also takes
    scripted agent names and run folders),
    ``reward`` (mapping of RewardConfig terms), ``options`` (rules options), ``render_mode`` ("ansi",
    "human" or None), ``illegal_action`` ("terminate" or "raise"), ``encounter`` (an encounter distribution
    name or YAML path: each episode draws its own fight from it instead of playing ``scenario``).

    ## Version History
    * v0: first release.
    """

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 1}

    def __init__(self, system: str = "ose", scenario: str | None = None, side: int = 0,
                 opponents: Opponent | Sequence[Opponent] | None = None,
                 reward: Mapping[str, Any] | RewardConfig | None = None,
                 options: Mapping[str, Any] | None = None, render_mode: str | None = None,
                 illegal_action: str = "terminate", encounter: str | None = None) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or None, "
                             f"got {render_mode!r}")
        if illegal_action not in ILLEGAL_MODES:
            raise ValueError(f"illegal_action must be one of {ILLEGAL_MODES}, got {illegal_action!r}")
        self.session = FightSession(system, scenario, options, reward, encounter=encounter)
        n_sides = self.session.engine.spec.sides
        if not isinstance(side, int) or not 0 <= side < n_sides:
            raise ValueError(f"side must be an integer in [0, {n_sides - 1}], got {side!r}")
        self.side = side
        self.render_mode = render_mode
        self.illegal_action = illegal_action
        self.opponent_pool = _opponent_pool(opponents)
        for spec in self.opponent_pool:  # fail at construction, not at the first reset
            _build(spec, self.session.engine, np.random.default_rng(0))
        self.opponent: Agent | None = None
        self.observation_space = spaces.Box(-1.0, 1.0, (self.session.encoder.size,), np.float32)
        self.action_space = spaces.Discrete(self.session.n_actions)
        self._decision: Decision | None = None
        self._illegal: str | None = None

    # ----- gymnasium API ------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        dice_seed, opponent_seed = spawn_seeds(self.np_random, 2)
        opponent_rng = np.random.default_rng(opponent_seed)
        spec = self.opponent_pool[int(opponent_rng.integers(len(self.opponent_pool)))]
        self.opponent = _build(spec, self.session.engine, opponent_rng)
        self.session.start(dice_seed)
        self._illegal = None
        self._advance()
        return self._obs(), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        s = self.session
        if self._decision is None:  # stepping past the end (Gymnasium leaves it undefined): stay terminal
            return self._obs(), 0.0, True, False, self._info()
        action = int(action)
        mask = s.mask(self._decision)
        if not (0 <= action < len(mask) and mask[action]):
            error = IllegalActionError(action, s.engine.catalogue.name(action), self._decision,
                                       "masked out by the rules")
            if self.illegal_action == "raise":
                raise error
            self._illegal = str(error)
            self._decision = None
            reward = s.reward_config.loss
            info = {"action_mask": np.ones(s.n_actions, dtype=bool), "illegal_action": self._illegal,
                    "outcome": {"result": "loss", "rounds": getattr(s.state, "round", 0),
                                "reason": "illegal action"}, "events": dict(s.event_counts)}
            return self._obs(), float(reward), True, False, info
        events = s.apply(action)
        reward = s.reward_tracker.from_events(events, self.side)
        reward += self._advance()
        terminated = self._decision is None
        if terminated:
            outcome = s.outcome
            assert outcome is not None
            reward += s.reward_tracker.final(outcome.result(self.side), s.state.combatants, self.side)
        if self.render_mode == "human":
            self.render()
        return self._obs(), float(reward), terminated, False, self._info()

    def action_masks(self) -> np.ndarray:
        """The legal actions of the current decision (all ones once the fight is over); a fresh array the
        caller may keep or modify (the session's cached mask stays untouched)."""
        if self._decision is None:
            return np.ones(self.session.n_actions, dtype=bool)
        return np.array(self.session.mask(self._decision), dtype=bool)

    def render(self) -> str | None:
        s = self.session
        if self.render_mode is None:
            warnings.warn("render() called with render_mode=None; pass render_mode='ansi' or 'human'",
                          stacklevel=2)
            return None
        if s.state is None:
            return None
        text = render_text(s.engine, s.state, s.round_events)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    # ----- internals --------------------------------------------------------------------------------
    def _advance(self) -> float:
        """Let the opponents answer until the learner must decide or the fight ends; return shaping."""
        s = self.session
        reward = 0.0
        while True:
            decision = s.decision
            if decision is None:
                self._decision = None
                return reward
            if decision.side == self.side:
                self._decision = decision
                return reward
            assert self.opponent is not None
            action = self.opponent.act(s.observation(decision), s.mask(decision))
            reward += s.reward_tracker.from_events(s.apply(action), self.side)

    def _obs(self) -> np.ndarray:
        if self._decision is None:
            return np.zeros(self.session.encoder.size, dtype=np.float32)
        return self.session.encoder.encode(self.session.state, self._decision)

    def _info(self) -> dict[str, Any]:
        s = self.session
        info: dict[str, Any] = {"action_mask": self.action_masks()}
        if self._decision is not None:
            info["decision"] = self._decision.kind.name
            info["actor"] = s.state.combatants[self._decision.actor].name
        else:
            outcome = s.outcome
            if outcome is not None:
                result: SideResult = outcome.result(self.side)
                info["outcome"] = {"result": result.name.lower(), "rounds": outcome.rounds,
                                   "reason": outcome.reason}
            info["events"] = dict(s.event_counts)
        return info


def _opponent_pool(opponents: Opponent | Sequence[Opponent] | None) -> list[Opponent]:
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


def _build(spec: Opponent, engine: Any, rng: np.random.Generator) -> Agent:
    """The agent for one episode: a ready agent as is, a factory called with the episode's RNG stream."""
    if _is_agent(spec):
        return spec  # type: ignore[return-value]  # _is_agent narrowed it; 3.11 has no TypeIs
    return spec(engine, rng)  # type: ignore[operator]  # likewise: not an Agent, so a factory
