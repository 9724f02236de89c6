"""The RLlib multi-agent view of a fight: the PettingZoo parallel env with the other side played inside.

RLlib trains the NPC side's combatants (``blue_k`` for side 0, ``red_k`` for side 1) as agents of one
shared module (:data:`POLICY_ID`); the other side's decisions are answered inside ``step`` by the training
opponents (scripted agents or frozen run folders), as in the SB3 path's ``TacticsEnv``. Each ``step`` is one
NPC decision, so RLlib's env steps count the same thing as SB3's timesteps.

Only the deciding NPC gets an observation (``{"observation", "action_mask"}``, the PettingZoo layout): RLlib
keeps the action of an NPC that waits for its next turn "hanging" and adds up the rewards it is paid
meanwhile. Rewards are the PettingZoo env's: every agent of a side is paid that side's reward terms (the
config's ``reward:``), from its first decision on. At the end every NPC that has decided is terminated; RLlib
repeats its last observation as the (unused) final one.

Seeding follows ``TacticsEnv``: the episode's seed spawns one stream for the dice and one for the opponent
(which pool entry plays, and its own random choices); a ``reset`` without a seed continues the env's stream.
A fight that ends before any NPC decides (SB3 sees a zero observation and a terminal step) is skipped: the
next fight of the stream is the episode.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from ray.rllib.env.multi_agent_env import MultiAgentEnv

from npc_tactics.agents.base import Agent
from npc_tactics.envs.pettingzoo_env import TacticsParallelEnv
from npc_tactics.envs.session import spawn_seeds

__all__ = ["POLICY_ID", "NpcSideEnv", "opponent_factories", "policy_mapping"]

#: The one module every NPC of the trained side shares (shared parameters, like SB3's single policy).
POLICY_ID = "npc"

#: Fights in a row that may end before any NPC decides before ``reset`` gives up (a scenario bug).
MAX_SKIPPED_FIGHTS = 1000

OpponentFactory = Callable[[Any, np.random.Generator], Agent]


def policy_mapping(agent_id: Any, episode: Any = None, **kwargs: Any) -> str:
    """Every NPC agent plays the shared module (the opponents never reach RLlib)."""
    return POLICY_ID


def opponent_factories(system: str, specs: Sequence[str]) -> list[OpponentFactory]:
    """``(engine, rng) -> agent`` per opponent spec: scripted agents are rebuilt per episode with the episode's
    opponent stream; a trained run folder is loaded once and samples its moves from that stream (the SB3
    path's frozen opponents sample too)."""
    from npc_tactics.agents.resolve import agent_factory
    from npc_tactics.runs import RunDir

    out: list[OpponentFactory] = []
    for spec in specs:
        if RunDir(Path(spec)).has_policy():
            from npc_tactics.agents.policy import load_policy_agent

            frozen = load_policy_agent(Path(spec), deterministic=False)

            def sampled(engine: Any, rng: np.random.Generator, agent: Any = frozen) -> Agent:
                agent.rng = rng
                return agent

            out.append(sampled)
        else:
            out.append(agent_factory(system, spec))
    return out


class NpcSideEnv(MultiAgentEnv):
    """``env_config``: ``system``, ``scenario``, ``side``, ``opponents`` (specs), ``reward`` (terms),
    ``options`` (rules options), as in :class:`~npc_tactics.training.config.TrainConfig`."""

    def __init__(self, config: Mapping[str, Any] | None = None) -> None:
        super().__init__()
        cfg = dict(config or {})
        self.pz = TacticsParallelEnv(str(cfg.get("system", "ose")), cfg.get("scenario"), cfg.get("options") or {},
                                     cfg.get("reward"), illegal_action="terminate")
        session = self.pz.session
        n_sides = session.engine.spec.sides
        self.side = int(cfg.get("side", 0))
        if not 0 <= self.side < n_sides:
            raise ValueError(f"side must be in [0, {n_sides - 1}], got {self.side}")
        specs = list(cfg.get("opponents") or ["by-the-book"])
        self.opponent_pool = opponent_factories(session.system, specs)
        self._side_of = {name: session.state.combatants[i].side for i, name in enumerate(self.pz.possible_agents)}
        self.possible_agents = [a for a in self.pz.possible_agents if self._side_of[a] == self.side]
        self.agents = list(self.possible_agents)
        space = self.pz.observation_space(self.possible_agents[0])
        self.observation_spaces = {a: space for a in self.possible_agents}
        self.action_spaces = {a: self.pz.action_space(a) for a in self.possible_agents}
        self._rng = np.random.default_rng()
        self._opponent: Agent | None = None
        self._seen: set[str] = set()
        self._pending: dict[str, float] = {}

    # ----- MultiAgentEnv API --------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, Any], dict[str, Any]]:
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        for _ in range(MAX_SKIPPED_FIGHTS):
            dice_seed, opponent_seed = spawn_seeds(self._rng, 2)
            opponent_rng = np.random.default_rng(opponent_seed)
            make = self.opponent_pool[int(opponent_rng.integers(len(self.opponent_pool)))]
            self._opponent = make(self.pz.session.engine, opponent_rng)
            self.pz.reset(seed=dice_seed)
            self.agents = list(self.possible_agents)
            self._seen = set()
            self._pending = {}
            acting, done, _ = self._advance()
            if not done and acting is not None:
                return self._emit(acting), {}
            # the fight ended before any NPC decided (e.g. killed by the first blow): nothing to learn from,
            # and RLlib needs a first observation, so the next fight of the stream is played instead
        raise RuntimeError(f"{self.pz.session.scenario_name}: {MAX_SKIPPED_FIGHTS} fights in a row ended before "
                           f"side {self.side} decided")

    def step(self, action_dict: Mapping[str, Any]) -> tuple[dict[str, Any], ...]:
        acting = self._acting()
        if acting is None or acting not in action_dict:
            raise KeyError(f"no action for {acting!r}, the NPC that must decide now")
        self._pay(self.pz.step({acting: action_dict[acting]}))
        acting, done, infos = self._advance()
        if done:
            rewards = {a: self._pending.get(a, 0.0) for a in self._seen}
            return ({}, rewards, {"__all__": True}, {"__all__": False},
                    {a: infos.get(a, {}) for a in self._seen})
        assert acting is not None
        obs = self._emit(acting)
        rewards = {a: self._pending.get(a, 0.0) for a in self._seen}
        self._pending = {}
        return obs, rewards, {"__all__": False}, {"__all__": False}, {}

    # ----- internals ------------------------------------------------------------------------------------
    def _acting(self) -> str | None:
        decision, name = self.pz._acting()
        return name if decision is not None else None

    def _pay(self, step: tuple[dict[str, Any], ...]) -> None:
        """Add the rewards of one PettingZoo step to what the NPCs that have decided are owed (an NPC is paid
        from its first decision on; what happens before the first NPC decision pays nobody, as in SB3's
        ``TacticsEnv``)."""
        rewards = step[1]
        for agent in self._seen:
            if agent in rewards:
                self._pending[agent] = self._pending.get(agent, 0.0) + float(rewards[agent])

    def _advance(self) -> tuple[str | None, bool, dict[str, Any]]:
        """Let the opponent answer until an NPC must decide or the fight ends: ``(acting, done, infos)``."""
        session = self.pz.session
        while True:
            acting = self._acting()
            if acting is None:
                return None, True, self._final_infos()
            decision = session.decision
            assert decision is not None
            if decision.side == self.side:
                return acting, False, {}
            assert self._opponent is not None
            action = self._opponent.act(session.observation(decision), session.mask(decision))
            self._pay(self.pz.step({acting: action}))

    def _final_infos(self) -> dict[str, Any]:
        return {a: self.pz._final_info(a) for a in self.possible_agents}

    def _emit(self, acting: str) -> dict[str, Any]:
        self._seen.add(acting)
        return {acting: self.pz.observe(acting)}
