"""The RLlib multi-agent view of a fight: the learner's seat of the SB3 path, every NPC of it an agent.

RLlib trains the NPC side's combatants (``blue_k`` for side 0, ``red_k`` for side 1: the PettingZoo names) as
agents of one shared module (:data:`POLICY_ID`). The fight itself is the SB3 path's
:class:`~npc_tactics.envs.driver.LearnerSession` (what ``TacticsEnv`` and the native ``TacticsVecEnv`` step),
so both backends train on the same episodes for the same seeds: the same scenario or encounter distribution
(each reset draws its fight from the training seeds, wounds and spent resources applied), the same opponents
(scripted agents, run folders, or a weighted pool with self-play snapshots, resolved by
:func:`~npc_tactics.training.envs.resolve_opponents`), ``side: both`` (the side drawn per episode), and the same
reward terms. Each ``step`` is one NPC decision, so RLlib's env steps count the same thing as SB3's timesteps.

Only the deciding NPC gets an observation (``{"observation", "action_mask"}``, the PettingZoo layout): RLlib
keeps the action of an NPC that waits for its next turn "hanging" and adds up the rewards it is paid
meanwhile. Every NPC of the side is paid the side's reward (the config's ``reward:``), from its own first
decision on. At the end every NPC that has decided is terminated, with ``{"outcome": ...}`` in its info.

``possible_agents`` are every name the NPC side can use: the fixed scenario's roster, or with an encounter
distribution every slot a drawn side may fill (``blue_0`` to ``blue_5``); with ``side: both``, both colours.

Seeding follows ``TacticsEnv``: the episode's seed spawns one stream for the dice and one for the opponent
(which pool entry plays, and its own random choices); a ``reset`` without a seed continues the env's stream.
A fight that ends before any NPC decides (SB3 sees a zero observation and a terminal step) is skipped: the
next fight of the stream is the episode.

Self-play: the env's opponent pool (:attr:`NpcSideEnv.pool`) lives in the env runner's process; the trainer
sends it the module's snapshots (:mod:`npc_tactics.training.rllib.selfplay`) through RLlib's env-runner group.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

import numpy as np
from gymnasium import spaces
from ray.rllib.env.multi_agent_env import MultiAgentEnv

from npc_tactics.envs.driver import LearnerSession
from npc_tactics.envs.pettingzoo_env import SIDE_NAMES
from npc_tactics.envs.session import FightSession
from npc_tactics.registry import DEFAULT_SYSTEM
from npc_tactics.training.config import parse_train_config

__all__ = ["POLICY_ID", "NpcSideEnv", "policy_mapping"]

#: The one module every NPC of the trained side shares (shared parameters, like SB3's single policy).
POLICY_ID = "npc"

#: Fights in a row that may end before any NPC decides before ``reset`` gives up (a scenario bug).
MAX_SKIPPED_FIGHTS = 1000


def policy_mapping(agent_id: Any, episode: Any = None, **kwargs: Any) -> str:
    """Every NPC agent plays the shared module (the opponents never reach RLlib)."""
    return POLICY_ID


class NpcSideEnv(MultiAgentEnv):
    """``env_config``: ``{"config": TrainConfig.to_yaml_dict()}``
    (:func:`~npc_tactics.training.rllib.algo.env_config`). A frozen run-folder opponent samples from a stream
    of its own per env (RLlib's ``worker_index`` and ``vector_index``), so the envs of a runner do not draw the
    same opponent moves."""

    def __init__(self, config: Mapping[str, Any] | None = None) -> None:
        super().__init__()
        from npc_tactics.agents.resolve import factory_of
        from npc_tactics.training.envs import resolve_opponents
        from npc_tactics.training.opponent_pool import OpponentPool

        raw = dict(config or {})
        self.config = parse_train_config(raw.get("config", {"system": DEFAULT_SYSTEM}), "<rllib env_config>")
        cfg = self.config
        reward = cast(Any, cfg.reward).model_dump()  # RewardTerms is built by create_model
        session = FightSession(cfg.system, cfg.scenario, cfg.options, reward, record_rolls=False,
                               encounter=cfg.encounter)
        worker = int(getattr(config, "worker_index", 0)) * 1000 + int(getattr(config, "vector_index", 0))
        opponents = [factory_of(cfg.plugin, o) if isinstance(o, str) else o  # as TacticsVecEnv resolves them
                     for o in resolve_opponents(cfg, cfg.seed + worker)]
        pools = [o for o in opponents if isinstance(o, OpponentPool)]
        self.pool: OpponentPool | None = pools[0] if pools else None
        self.learner = LearnerSession(session, cfg.side, opponents)
        self.session = session
        sides = (0, 1) if self.learner.both else (self.learner.side,)
        if cfg.encounter is None:
            session.start(0)  # to learn the roster; reset() starts the real fight
            roster = self._names()
            self.possible_agents = [a for a in roster if self._side_of(a) in sides]
        else:
            from npc_tactics.encounters import MAX_PER_SIDE

            self.possible_agents = [f"{SIDE_NAMES[s]}_{k}" for s in sides for k in range(MAX_PER_SIDE)]
        self.agents = list(self.possible_agents)
        n_obs, n_act = session.encoder.size, session.n_actions
        space = spaces.Dict({"observation": spaces.Box(-1.0, 1.0, (n_obs,), np.float32),
                             "action_mask": spaces.Box(0, 1, (n_act,), np.int8)})
        self.observation_spaces = {a: space for a in self.possible_agents}
        self.action_spaces: dict[str, spaces.Space[Any]] = {a: spaces.Discrete(n_act) for a in self.possible_agents}
        self._rng = np.random.default_rng()
        self._roster: list[str] = []
        self._seen: set[str] = set()
        self._pending: dict[str, float] = {}

    # ----- MultiAgentEnv API --------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, Any], dict[str, Any]]:
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        for _ in range(MAX_SKIPPED_FIGHTS):
            self.learner.begin(self._rng)
            self._roster = self._names()
            self.agents = [a for a in self._roster if self._side_of(a) == self.learner.side]
            self._seen = set()
            self._pending = {}
            if self.learner.decision is not None:
                return self._emit(), {}
            # the fight ended before any NPC decided (e.g. killed by the first blow): nothing to learn from,
            # and RLlib needs a first observation, so the next fight of the stream is played instead
        raise RuntimeError(f"{self.session.scenario_name}: {MAX_SKIPPED_FIGHTS} fights in a row ended before "
                           f"side {self.learner.side} decided")

    def step(self, action_dict: Mapping[str, Any]) -> tuple[dict[str, Any], ...]:
        acting = self._acting()
        if acting is None or acting not in action_dict:
            raise KeyError(f"no action for {acting!r}, the NPC that must decide now")
        action = int(action_dict[acting])
        error = self.learner.check(action)
        if error is not None:  # never accepted silently: the fight is forfeit (a loss), as in the SB3 path
            reward, done = self.learner.forfeit(error), True
        else:
            reward, done = self.learner.act(action)
        for agent in self._seen:
            self._pending[agent] = self._pending.get(agent, 0.0) + reward
        rewards = {a: self._pending.get(a, 0.0) for a in self._seen}
        self._pending = {}
        if done:
            info: dict[str, Any] = {"outcome": self.learner.outcome_info()}
            if self.learner.illegal is not None:
                info["illegal_action"] = self.learner.illegal
            return ({}, rewards, {"__all__": True}, {"__all__": False}, {a: dict(info) for a in self._seen})
        return self._emit(), rewards, {"__all__": False}, {"__all__": False}, {}

    # ----- internals ------------------------------------------------------------------------------------
    def _names(self) -> list[str]:
        """The fight's agent names in combatant order (PettingZoo's: ``blue_k`` side 0, ``red_k`` side 1)."""
        counts = [0, 0]
        names = []
        for c in self.session.state.combatants:
            names.append(f"{SIDE_NAMES[c.side]}_{counts[c.side]}")
            counts[c.side] += 1
        return names

    @staticmethod
    def _side_of(agent: str) -> int:
        return SIDE_NAMES.index(agent.split("_", 1)[0])

    def _acting(self) -> str | None:
        decision = self.learner.decision
        return self._roster[decision.actor] if decision is not None else None

    def _emit(self) -> dict[str, Any]:
        acting = self._acting()
        assert acting is not None
        self._seen.add(acting)
        return {acting: {"observation": self.learner.encode(),
                         "action_mask": self.learner.mask().astype(np.int8)}}
