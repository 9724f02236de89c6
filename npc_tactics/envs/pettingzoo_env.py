"""PettingZoo AEC and parallel environments over any rules engine (self-play, RLlib).

Agents are the combatants, named ``blue_k`` (side 0, the NPCs) and ``red_k`` (side 1). The engine says whose
decision it is; that agent is ``agent_selection`` (AEC) or the one agent whose ``action_mask`` is non-empty
(parallel). An agent observes only when it decides: the others get a zero vector and a zero mask.
Observation: ``{"observation": Box(-1, 1, (n,)), "action_mask": Box(0, 1, (n_actions,), int8)}``.
Rewards come from each agent's own side (damage shaping and terminal terms of RewardConfig), so reward and
observation always share one perspective (STYLE.md §5).

An illegal action is never silently accepted: with ``illegal_action="terminate"`` (default, PettingZoo's
``TerminateIllegalWrapper`` convention, and what ``parallel_seed_test``'s unmasked sampling needs) it ends the
fight, the offending side's agents get the ``loss`` reward, the others 0, and every agent's info names the
action; with ``"raise"`` it raises ``IllegalActionError``.

With ``encounter=`` (an encounter distribution of the system, :mod:`npc_tactics.encounters`) each ``reset``
draws its fight (from the training seeds, wounds and spent resources applied, as the Gymnasium env does), so the
roster changes between fights: ``possible_agents`` is then every name a drawn fight can use (``blue_0`` to
``blue_5``, ``red_0`` to ``red_5``) and ``agents`` the current fight's combatants.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv

from npc_tactics.envs.render import render_text
from npc_tactics.envs.rewards import RewardConfig
from npc_tactics.envs.session import FightSession, spawn_seeds
from npc_tactics.registry import DEFAULT_SYSTEM
from npc_tactics.rules.base import Decision

SIDE_NAMES = ("blue", "red")


class _Shared:
    """What the AEC and parallel classes have in common: agents, spaces, observations, rewards."""

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "name": "npc_tactics", "is_parallelizable": True}

    def _setup(self, system: str, scenario: str | None, options: Mapping[str, Any] | None,
               reward: Mapping[str, Any] | RewardConfig | None, render_mode: str | None,
               illegal_action: str, encounter: str | None = None) -> None:
        if illegal_action not in ("terminate", "raise"):
            raise ValueError(f"illegal_action must be 'terminate' or 'raise', got {illegal_action!r}")
        self.illegal_action = illegal_action
        self._illegal: str | None = None
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or None")
        self.render_mode = render_mode
        self.session = FightSession(system, scenario, options, reward, encounter=encounter)
        self.metadata = dict(self.metadata, name=f"npc_tactics_{self.session.system}_v0")
        self.session.start(0)  # to learn the roster; reset() starts the real fight
        self._roster_of_fight()
        if encounter is None:
            self.possible_agents = list(self._roster)
        else:  # every name a drawn fight may use (rosters differ between fights)
            from npc_tactics.encounters import MAX_PER_SIDE

            self.possible_agents = [f"{side}_{k}" for side in SIDE_NAMES for k in range(MAX_PER_SIDE)]
        n_obs, n_act = self.session.encoder.size, self.session.n_actions
        self._obs_space = spaces.Dict({
            "observation": spaces.Box(-1.0, 1.0, (n_obs,), np.float32),
            "action_mask": spaces.Box(0, 1, (n_act,), np.int8),
        })
        self._act_space: spaces.Space[Any] = spaces.Discrete(n_act)  # annotated: gymnasium 1.2 cannot infer it
        self._np_random = np.random.default_rng()

    @staticmethod
    def _names(combatants: Any) -> list[str]:
        counts = [0, 0]
        names = []
        for c in combatants:
            names.append(f"{SIDE_NAMES[c.side]}_{counts[c.side]}")
            counts[c.side] += 1
        return names

    def _roster_of_fight(self) -> None:
        """The current fight's agent names, in combatant order (``_roster[i]`` is combatant ``i``)."""
        self._roster = self._names(self.session.state.combatants)
        self._index = {name: i for i, name in enumerate(self._roster)}

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._act_space

    def _start(self, seed: int | None) -> None:
        if seed is not None:
            self._np_random = np.random.default_rng(seed)
        (dice_seed,) = spawn_seeds(self._np_random, 1)
        self.session.start(dice_seed)
        self._roster_of_fight()
        self._illegal = None

    def _apply(self, agent: str, action: Any) -> dict[str, float]:
        """Apply ``agent``'s action; return every agent's reward (an illegal action ends the fight)."""
        decision = self.session.decision
        assert decision is not None
        mask = self.session.mask(decision)
        index = int(action)
        if self.illegal_action == "terminate" and not (0 <= index < len(mask) and mask[index]):
            self._illegal = (f"illegal action {index} ({self.session.engine.catalogue.name(index)}) "
                             f"by {agent} at {decision.describe()}")
            loss = self.session.reward_config.loss
            return {a: (loss if self.session.state.combatants[i].side == decision.side else 0.0)
                    for i, a in enumerate(self._roster)}
        return self._step_rewards(self.session.apply(index))  # raises IllegalActionError otherwise

    def _acting(self) -> tuple[Decision | None, str | None]:
        if self._illegal is not None:
            return None, None
        decision = self.session.decision
        return decision, (self._roster[decision.actor] if decision is not None else None)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        decision, _ = self._acting()
        size, n_act = self.session.encoder.size, self.session.n_actions
        if decision is None or self._roster[decision.actor] != agent:
            return {"observation": np.zeros(size, np.float32), "action_mask": np.zeros(n_act, np.int8)}
        return {"observation": self.session.encoder.encode(self.session.state, decision),
                "action_mask": self.session.mask(decision).astype(np.int8)}

    def _step_rewards(self, events: list[Any]) -> dict[str, float]:
        tracker = self.session.tracker
        assert tracker is not None
        by_side = [tracker.from_events(events, side) for side in range(2)]
        outcome = self.session.outcome
        if outcome is not None:
            for side in range(2):
                by_side[side] += tracker.final(outcome.result(side), self.session.state.combatants, side)
        return {name: by_side[self.session.state.combatants[i].side] for i, name in enumerate(self._roster)}

    def _final_info(self, agent: str) -> dict[str, Any]:
        if self._illegal is not None:
            return {"illegal_action": self._illegal}
        outcome = self.session.outcome
        assert outcome is not None
        side = self.session.state.combatants[self._index[agent]].side
        return {"outcome": {"result": outcome.result(side).name.lower(), "rounds": outcome.rounds}}

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        text = render_text(self.session.engine, self.session.state, self.session.round_events)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


class TacticsAECEnv(_Shared, AECEnv):
    """Turn-based (AEC) PettingZoo environment: one decision per ``step``.

    A combatant that is down or fled stays in ``agents`` (it may be healed or come back in some systems)
    but is never selected; when the fight ends every agent is terminated.
    """

    def __init__(self, system: str = DEFAULT_SYSTEM, scenario: str | None = None,
                 options: Mapping[str, Any] | None = None,
                 reward: Mapping[str, Any] | RewardConfig | None = None,
                 render_mode: str | None = None, illegal_action: str = "terminate",
                 encounter: str | None = None) -> None:
        super().__init__()
        self._setup(system, scenario, options, reward, render_mode, illegal_action, encounter)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._start(seed)
        self.agents = list(self._roster)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        _, acting = self._acting()
        if acting is None:  # every scenario opens at a decision; an engine that does not is a bug
            raise RuntimeError(f"{self.session.system} fight {self.session.scenario_name!r} opened with no decision")
        self.agent_selection: str = acting

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.rewards = self._apply(agent, action)
        decision, acting = self._acting()
        if decision is None or acting is None:  # acting is None exactly when decision is
            for a in self.agents:
                self.terminations[a] = True
                self.infos[a] = self._final_info(a)
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = acting
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()


class TacticsParallelEnv(_Shared, ParallelEnv):
    """Parallel PettingZoo view of the same sequential fight.

    Each ``step(actions)`` resolves exactly one decision: the action of the one agent whose ``action_mask``
    is non-empty. The other agents' entries are ignored (their masks are all zero: they have nothing to
    decide); a missing action for the deciding agent raises ``KeyError``, an illegal one is handled as the
    module docstring says. Agents leave ``agents`` when the fight ends.
    """

    def __init__(self, system: str = DEFAULT_SYSTEM, scenario: str | None = None,
                 options: Mapping[str, Any] | None = None,
                 reward: Mapping[str, Any] | RewardConfig | None = None,
                 render_mode: str | None = None, illegal_action: str = "terminate",
                 encounter: str | None = None) -> None:
        self._setup(system, scenario, options, reward, render_mode, illegal_action, encounter)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, Any], dict[str, Any]]:
        self._start(seed)
        self.agents = list(self._roster)
        return {a: self.observe(a) for a in self.agents}, {a: {} for a in self.agents}

    def step(self, actions: Mapping[str, Any]) -> tuple[dict[str, Any], ...]:
        _, acting = self._acting()
        if acting is None:
            raise RuntimeError("step() called on a finished fight; call reset()")
        if acting not in actions or actions[acting] is None:
            raise KeyError(f"no action for {acting!r}, the agent that must decide now")
        rewards = self._apply(acting, actions[acting])
        done = self._acting()[0] is None
        obs = {a: self.observe(a) for a in self.agents}
        terminations = {a: done for a in self.agents}
        truncations = {a: False for a in self.agents}
        infos: dict[str, dict[str, Any]] = {a: (self._final_info(a) if done else {}) for a in self.agents}
        rewards = {a: rewards[a] for a in self.agents}
        if done:
            self.agents = []
        if self.render_mode == "human":
            self.render()
        return obs, rewards, terminations, truncations, infos
