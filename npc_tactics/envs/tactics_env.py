"""The single-agent Gymnasium environment over any rules engine."""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from npc_tactics.envs.driver import LearnerSession, Opponent
from npc_tactics.envs.render import render_text
from npc_tactics.envs.rewards import RewardConfig
from npc_tactics.envs.session import FightSession
from npc_tactics.policy_io.agent import Agent
from npc_tactics.registry import DEFAULT_SYSTEM

ILLEGAL_MODES = ("terminate", "raise")


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
    ``system``, ``scenario`` (name or YAML path; default: the system's default), ``side`` (0 = NPCs;
    ``"both"``: drawn per episode from the seeded stream, observations and rewards from the side played),
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

    def __init__(self, system: str = DEFAULT_SYSTEM, scenario: str | None = None, side: int | str = 0,
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
        self.driver = LearnerSession(self.session, side, opponents)
        self.render_mode = render_mode
        self.illegal_action = illegal_action
        self.opponent_pool = self.driver.opponent_pool
        self.observation_space = spaces.Box(-1.0, 1.0, (self.session.encoder.size,), np.float32)
        self.action_space = spaces.Discrete(self.session.n_actions)

    # ----- gymnasium API ------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        self.driver.begin(self.np_random)
        return self._obs(), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        d = self.driver
        if d.decision is None:  # stepping past the end (Gymnasium leaves it undefined): stay terminal
            return self._obs(), 0.0, True, False, self._info()
        action = int(action)
        error = d.check(action)
        if error is not None:
            if self.illegal_action == "raise":
                raise error
            reward = d.forfeit(error)
            return self._obs(), float(reward), True, False, self._info()
        reward, terminated = d.act(action)
        if self.render_mode == "human":
            self.render()
        return self._obs(), float(reward), terminated, False, self._info()

    @property
    def side(self) -> int:
        """The learner's side in the episode in progress (drawn per episode with ``side="both"``)."""
        return self.driver.side

    @property
    def opponent(self) -> Agent | None:
        """The opponent of the episode in progress."""
        return self.driver.opponent

    def action_masks(self) -> np.ndarray:
        """The legal actions of the current decision (all ones once the fight is over); a fresh array the
        caller may keep or modify (the session's cached mask stays untouched)."""
        return np.array(self.driver.mask(), dtype=bool)

    # gymnasium 1.2 (the one Ray pins) types Env.render's result as RenderFrame, 1.4 as anything: ignored for 1.2
    def render(self) -> str | None:  # type: ignore[override, unused-ignore]
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
    def _obs(self) -> np.ndarray:
        return self.driver.encode()

    def _info(self) -> dict[str, Any]:
        s = self.session
        d = self.driver
        info: dict[str, Any] = {"action_mask": self.action_masks()}
        if d.both:
            info["side"] = d.side  # the side played this episode (self-play on both seats)
        if d.decision is not None:
            info["decision"] = d.decision.kind.name
            info["actor"] = s.state.combatants[d.decision.actor].name
            return info
        if d.illegal is not None:
            info["illegal_action"] = d.illegal
        outcome = d.outcome_info()
        if outcome is not None:
            info["outcome"] = outcome
        info["events"] = dict(s.event_counts)
        return info
