"""The PettingZoo envs with ``encounter=``: each reset draws its fight from the distribution (wear applied, as
the Gymnasium env does); the rosters change between fights and PettingZoo's checkers still pass."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test

from npc_tactics.encounters import MAX_PER_SIDE
from npc_tactics.envs import aec_env, parallel_env
from tests.conftest import system_names


@pytest.mark.parametrize("system", system_names())
def test_pettingzoo_checkers_with_encounters(system: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(aec_env(system=system, encounter="generalist"), num_cycles=300)
        parallel_api_test(parallel_env(system=system, encounter="generalist"), num_cycles=300)
        seed_test(lambda: aec_env(system=system, encounter="generalist"), num_cycles=200)
        parallel_seed_test(lambda: parallel_env(system=system, encounter="generalist"), num_cycles=200)


def _fight(env: object, seed: int) -> tuple[list[str], list[tuple[int, int]], str]:
    env.reset(seed=seed)  # type: ignore[attr-defined]
    session = env.unwrapped.session if hasattr(env, "unwrapped") else env.session  # type: ignore[attr-defined]
    state = session.state
    return (list(env.agents), [(int(c.side), int(c.hp)) for c in state.combatants],  # type: ignore[attr-defined]
            str(session.scenario.name))


@pytest.mark.parametrize("make", [aec_env, parallel_env])
def test_two_seeds_draw_two_fights(make: object) -> None:
    env = make(system="ose", encounter="generalist")  # type: ignore[operator]
    assert len(env.possible_agents) == 2 * MAX_PER_SIDE
    first, second, again = _fight(env, 1), _fight(env, 2), _fight(env, 1)
    assert first[2] != second[2]  # another drawn fight (its name carries the encounter seed)
    assert first == again  # the same seed draws the same fight
    for agents, _, _ in (first, second):
        assert set(agents) <= set(env.possible_agents)


def test_the_parallel_env_plays_a_drawn_fight_to_its_end() -> None:
    env = parallel_env(system="mrq", encounter="generalist")
    obs, _ = env.reset(seed=5)
    rng = np.random.default_rng(0)
    for _ in range(5_000):
        acting = [a for a in env.agents if obs[a]["action_mask"].any()]
        assert len(acting) == 1
        mask = obs[acting[0]]["action_mask"]
        obs, rewards, terms, _, infos = env.step({acting[0]: int(rng.choice(np.flatnonzero(mask)))})
        assert set(rewards) == set(terms)
        if not env.agents:
            assert all("outcome" in i for i in infos.values())
            break
    else:
        pytest.fail("the drawn fight never ended")
