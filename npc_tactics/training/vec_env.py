"""A native SB3 ``VecEnv`` over N fight sessions: the training path without a per-env wrapper stack.

:class:`TacticsVecEnv` steps N :class:`~npc_tactics.envs.driver.LearnerSession` objects directly, where the
``DummyVecEnv`` path goes through ``Monitor`` → ``TimeLimit`` → ``OrderEnforcing`` → ``PassiveEnvChecker`` →
``TacticsEnv`` for every step of every env. It plays the very same episodes for the same seeds (the tests check
observations, rewards, dones and masks against that path) and keeps what SB3 and MaskablePPO read from it:

* observations encoded in place into one preallocated ``(N, obs)`` float32 array (a copy is returned, as
  ``DummyVecEnv`` does, because the algorithm keeps the previous batch while the next one is written);
* the legal masks in one ``(N, actions)`` bool array, served by ``action_masks()`` and by
  ``env_method("action_masks")`` (what ``sb3_contrib``'s ``get_action_masks`` calls);
* auto-reset with ``info["terminal_observation"]``, ``info["episode"] = {"r", "l", "t"}`` as ``Monitor``
  writes it (so ``ep_rew_mean`` is logged), ``info["outcome"]`` and ``info["events"]`` at the end of a fight;
* truncation after ``max_episode_steps`` learner steps like the registration's ``TimeLimit``, flagged by
  ``info["TimeLimit.truncated"]`` (SB3 bootstraps from the terminal observation then);
* ``seed(s)``: env ``i`` is seeded ``s + i`` at the next ``reset()`` and draws every later episode from its own
  generator, exactly like a seeded Gymnasium env in a ``DummyVecEnv``.

Roll events are off (``record_rolls=False``): the dice are rolled identically, only the ``roll`` entries of
the event log (which no reward reads) are not built. ``info["events"]`` therefore counts no ``roll``.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from stable_baselines3.common.vec_env import VecEnv
from stable_baselines3.common.vec_env.base_vec_env import VecEnvIndices, VecEnvStepReturn

from npc_tactics.agents.resolve import agent_factory
from npc_tactics.envs.driver import LearnerSession, Opponent
from npc_tactics.envs.registration import MAX_EPISODE_STEPS
from npc_tactics.envs.rewards import RewardConfig
from npc_tactics.envs.session import FightSession

__all__ = ["FightSlot", "TacticsVecEnv"]


class FightSlot:
    """What ``get_attr``/``env_method`` reach for env ``i``: its session, driver and learner-side methods."""

    render_mode = None

    def __init__(self, driver: LearnerSession, observation_space: spaces.Box, action_space: spaces.Discrete
                 ) -> None:
        self.driver = driver
        self.session = driver.session
        self.observation_space = observation_space
        self.action_space = action_space

    @property
    def side(self) -> int:
        """The learner's side in the episode in progress (drawn per episode with ``side="both"``)."""
        return self.driver.side

    @property
    def unwrapped(self) -> FightSlot:
        return self

    def action_masks(self) -> np.ndarray:
        return np.array(self.driver.mask(), dtype=bool)


class TacticsVecEnv(VecEnv):
    """``n_envs`` fights of ``system``/``scenario`` for the learner's ``side`` (arguments as ``TacticsEnv``;
    opponents may also be scripted agent names or run folders, resolved once here)."""

    def __init__(self, system: str, n_envs: int, scenario: str | None = None, side: int | str = 0,
                 opponents: str | Opponent | Sequence[str | Opponent] = "by-the-book",
                 reward: Any = None, options: Any = None,
                 max_episode_steps: int = MAX_EPISODE_STEPS, record_rolls: bool = False,
                 encounter: str | None = None) -> None:
        if not isinstance(n_envs, int) or n_envs < 1:
            raise ValueError(f"n_envs must be a positive integer, got {n_envs!r}")
        if max_episode_steps < 1:
            raise ValueError(f"max_episode_steps must be positive, got {max_episode_steps!r}")
        pool = [opponents] if isinstance(opponents, str) or not isinstance(opponents, Sequence) else list(opponents)
        resolved = [agent_factory(system, spec) if isinstance(spec, str) else spec for spec in pool]
        reward_config = RewardConfig.from_mapping(reward)
        self.drivers = [LearnerSession(FightSession(system, scenario, options, reward_config,
                                                    record_rolls=record_rolls, encounter=encounter), side, resolved)
                        for _ in range(n_envs)]
        first = self.drivers[0].session
        size, n_actions = first.encoder.size, first.n_actions
        observation_space = spaces.Box(-1.0, 1.0, (size,), np.float32)
        action_space: spaces.Discrete = spaces.Discrete(n_actions)  # type: ignore[type-arg, unused-ignore]  # generic in gymnasium 1.4, not in 1.2 (what Ray pins)
        self.slots = [FightSlot(d, observation_space, action_space) for d in self.drivers]
        self.render_mode = None
        super().__init__(n_envs, observation_space, action_space)
        self.max_episode_steps = max_episode_steps
        self._obs = np.zeros((n_envs, size), dtype=np.float32)
        self._masks = np.ones((n_envs, n_actions), dtype=bool)
        self._rewards = np.zeros(n_envs, dtype=np.float32)
        self._dones = np.zeros(n_envs, dtype=bool)
        self._rngs: list[np.random.Generator | None] = [None] * n_envs
        self._ep_return = [0.0] * n_envs
        self._ep_length = [0] * n_envs
        self._actions: np.ndarray | None = None
        self._t_start = time.time()

    # ----- VecEnv API -----------------------------------------------------------------------------
    def reset(self) -> np.ndarray:
        for i in range(self.num_envs):
            seed = self._seeds[i]
            if seed is not None or self._rngs[i] is None:
                self._rngs[i] = seeding.np_random(seed)[0]
            self._begin(i)
            self.reset_infos[i] = {}
        self._reset_seeds()
        self._reset_options()
        return self._obs.copy()

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = actions

    def step_wait(self) -> VecEnvStepReturn:
        actions = self._actions
        assert actions is not None, "step_wait() without step_async()"
        infos: list[dict[str, Any]] = []
        for i, d in enumerate(self.drivers):
            if d.decision is None:  # a fight over before the learner's first decision: as TacticsEnv does
                reward, terminated = 0.0, True
            else:
                action = int(actions[i])
                error = d.check(action)
                if error is not None:
                    reward, terminated = d.forfeit(error), True
                else:
                    reward, terminated = d.act(action)
            self._ep_return[i] += reward
            self._ep_length[i] += 1
            truncated = self._ep_length[i] >= self.max_episode_steps
            self._rewards[i] = reward
            info: dict[str, Any] = {"TimeLimit.truncated": truncated and not terminated}
            if terminated or truncated:
                self._end_info(i, info, terminated)
                self._begin(i)
                self._dones[i] = True
            else:
                d.encode_into(self._obs[i])
                self._masks[i] = d.mask()
                self._dones[i] = False
            infos.append(info)
        self._actions = None
        return self._obs.copy(), self._rewards.copy(), self._dones.copy(), infos

    def action_masks(self) -> np.ndarray:
        """The ``(n_envs, actions)`` legal masks of the pending decisions (a copy)."""
        return self._masks.copy()

    def close(self) -> None:
        return None

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        if attr_name == "render_mode":
            return [None for _ in self._indices(indices)]
        return [getattr(self.slots[i], attr_name) for i in self._indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        for i in self._indices(indices):
            setattr(self.slots[i], attr_name, value)

    def env_method(self, method_name: str, *method_args: Any, indices: VecEnvIndices = None,
                   **method_kwargs: Any) -> list[Any]:
        if method_name == "action_masks" and not method_args and not method_kwargs:
            return list(self._masks[self._indices(indices)])  # rows of the batch: no per-env call
        return [getattr(self.slots[i], method_name)(*method_args, **method_kwargs) for i in self._indices(indices)]

    def env_is_wrapped(self, wrapper_class: type, indices: VecEnvIndices = None) -> list[bool]:
        return [False for _ in self._indices(indices)]

    def get_images(self) -> Sequence[np.ndarray | None]:
        return [None for _ in range(self.num_envs)]

    # ----- internals -------------------------------------------------------------------------------
    def _indices(self, indices: VecEnvIndices) -> list[int]:
        if indices is None:
            return list(range(self.num_envs))
        if isinstance(indices, int):
            return [indices]
        return list(indices)

    def _begin(self, i: int) -> None:
        """Start env ``i``'s next episode from its own generator and write its first observation and mask."""
        d = self.drivers[i]
        rng = self._rngs[i]
        assert rng is not None
        d.begin(rng)
        d.encode_into(self._obs[i])
        self._masks[i] = d.mask()
        self._ep_return[i] = 0.0
        self._ep_length[i] = 0

    def _end_info(self, i: int, info: dict[str, Any], terminated: bool) -> None:
        """The end-of-episode entries of env ``i``'s info (before its auto-reset); the fight's outcome and
        event counts only when it ended, not when it was cut by the time limit (as ``TacticsEnv``)."""
        d = self.drivers[i]
        info["terminal_observation"] = d.encode()
        if terminated:
            if d.illegal is not None:
                info["illegal_action"] = d.illegal
            outcome = d.outcome_info()
            if outcome is not None:
                info["outcome"] = outcome
            info["events"] = dict(d.session.event_counts)
        info["episode"] = {"r": round(self._ep_return[i], 6), "l": self._ep_length[i],
                           "t": round(time.time() - self._t_start, 6)}
