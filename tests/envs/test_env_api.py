"""Every registered env and scenario passes the Gymnasium, SB3 and PettingZoo checkers."""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env as gym_check_env
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test
from stable_baselines3.common.env_checker import check_env as sb3_check_env

import npc_tactics.envs  # noqa: F401  (registers the gym ids)
from npc_tactics.envs import aec_env, parallel_env
from npc_tactics.registry import get_system
from npc_tactics.rules.base import IllegalActionError
from tests.conftest import system_names, system_scenarios

PAIRS = system_scenarios()


@pytest.mark.parametrize(("system", "scenario"), PAIRS)
def test_gymnasium_checkers(system: str, scenario: str) -> None:
    env = gymnasium.make(get_system(system).gym_id, scenario=scenario, opponents=["random", "by-the-book"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        gym_check_env(env.unwrapped, skip_render_check=True)
        sb3_check_env(env.unwrapped, warn=False)
    env.close()


@pytest.mark.parametrize(("system", "scenario"), PAIRS)
def test_pettingzoo_checkers(system: str, scenario: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(aec_env(system=system, scenario=scenario), num_cycles=300)
        parallel_api_test(parallel_env(system=system, scenario=scenario), num_cycles=300)
        seed_test(lambda: aec_env(system=system, scenario=scenario), num_cycles=200)
        parallel_seed_test(lambda: parallel_env(system=system, scenario=scenario), num_cycles=200)


@pytest.mark.parametrize("system", system_names())
def test_masks_and_episode_end(system: str) -> None:
    env = gymnasium.make(get_system(system).gym_id, opponents="random")
    rng = np.random.default_rng(0)
    for episode in range(5):
        obs, info = env.reset(seed=episode)
        done = False
        while not done:
            mask = env.unwrapped.action_masks()
            assert mask.dtype == np.bool_ and mask.any()
            assert np.array_equal(mask, info["action_mask"])
            assert env.observation_space.contains(obs)
            action = int(rng.choice(np.flatnonzero(mask)))
            obs, reward, terminated, truncated, info = env.step(action)
            done = terminated or truncated
        assert info["outcome"]["result"] in {"win", "loss", "draw", "fled"}


@pytest.mark.parametrize("system", system_names())
def test_illegal_action_is_never_silently_accepted(system: str) -> None:
    env = gymnasium.make(get_system(system).gym_id, opponents="random")
    env.reset(seed=1)
    illegal = int(np.flatnonzero(~env.unwrapped.action_masks())[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert terminated and reward == -1.0 and "illegal action" in info["illegal_action"]
    strict = gymnasium.make(get_system(system).gym_id, opponents="random", illegal_action="raise")
    strict.reset(seed=1)
    with pytest.raises(IllegalActionError, match="illegal action"):
        strict.step(illegal)


@pytest.mark.parametrize("system", system_names())
def test_render_ansi_shows_the_fight(system: str) -> None:
    env = gymnasium.make(get_system(system).gym_id, opponents="random", render_mode="ansi")
    env.reset(seed=3)
    mask = env.unwrapped.action_masks()
    env.step(int(np.flatnonzero(mask)[0]))
    text = env.render()
    assert isinstance(text, str) and text.strip()
    for c in env.unwrapped.session.state.combatants:
        assert c.name in text


def test_unknown_names_fail_at_construction() -> None:
    from npc_tactics.errors import UnknownNameError

    with pytest.raises(UnknownNameError, match="valid agents"):
        gymnasium.make("npc_tactics/OSE-v0", opponents="nobody")
    with pytest.raises(UnknownNameError, match="valid scenarios"):
        gymnasium.make("npc_tactics/OSE-v0", scenario="nowhere")


@pytest.mark.parametrize("system", system_names())
def test_pettingzoo_illegal_action_ends_the_fight_or_raises(system: str) -> None:
    env = parallel_env(system=system)
    obs, _ = env.reset(seed=0)
    acting = next(a for a in env.agents if obs[a]["action_mask"].any())
    illegal = int(np.flatnonzero(obs[acting]["action_mask"] == 0)[0])
    _, rewards, terms, _, infos = env.step({acting: illegal})
    assert all(terms.values()) and rewards[acting] == -1.0 and "illegal action" in infos[acting]["illegal_action"]
    assert env.agents == []
    strict = aec_env(system=system, illegal_action="raise")
    strict.reset(seed=0)
    mask = strict.observe(strict.agent_selection)["action_mask"]
    with pytest.raises(IllegalActionError):
        strict.step(int(np.flatnonzero(mask == 0)[0]))
