"""TacticsVecEnv: the same episodes as the DummyVecEnv path, SB3's VecEnv contract, a real MaskablePPO run."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium import spaces
from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported
from stable_baselines3.common.monitor import Monitor
from stable_baselines3.common.vec_env import DummyVecEnv

import npc_tactics.envs  # noqa: F401  (registers the gym ids)
from npc_tactics.registry import get_system
from npc_tactics.training.vec_env import TacticsVecEnv
from tests.conftest import system_names, system_scenarios

N_ENVS = 3
REWARD = {"damage_dealt": 0.5, "damage_taken": 0.25, "survival": 0.1}


def _dummy(system: str, scenario: str | None, opponents: Any, max_steps: int | None = None) -> DummyVecEnv:
    def make() -> gymnasium.Env[Any, Any]:
        kwargs: dict[str, Any] = {"scenario": scenario, "opponents": opponents, "reward": REWARD}
        if max_steps is not None:
            kwargs["max_episode_steps"] = max_steps
        return Monitor(gymnasium.make(get_system(system).gym_id, **kwargs))

    return DummyVecEnv([make for _ in range(N_ENVS)])


def _compare(system: str, scenario: str | None, opponents: Any, steps: int, max_steps: int | None = None,
             illegal_every: int = 0) -> int:
    """Step both vec envs with the same random legal (or, every ``illegal_every``, illegal) actions and
    compare everything the learner sees; return the number of finished episodes."""
    ref = _dummy(system, scenario, opponents, max_steps)
    kwargs = {"max_episode_steps": max_steps} if max_steps is not None else {}
    vec = TacticsVecEnv(system, N_ENVS, scenario, opponents=opponents, reward=REWARD, **kwargs)
    ref.seed(7)
    vec.seed(7)
    obs_a, obs_b = ref.reset(), vec.reset()
    rng = np.random.default_rng(3)
    episodes = 0
    for t in range(steps):
        assert np.array_equal(obs_a, obs_b), f"step {t}: observations differ"
        masks_a, masks_b = get_action_masks(ref), get_action_masks(vec)
        assert masks_b.dtype == np.bool_ and masks_b.shape == masks_a.shape
        assert np.array_equal(masks_a, masks_b), f"step {t}: masks differ"
        assert np.array_equal(vec.action_masks(), masks_b)
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks_a])
        if illegal_every and t % illegal_every == illegal_every - 1:
            illegal = np.flatnonzero(~masks_a[0])
            if len(illegal):
                actions[0] = illegal[0]
        obs_a, rew_a, done_a, infos_a = ref.step(actions)
        obs_b, rew_b, done_b, infos_b = vec.step(actions)
        assert np.array_equal(rew_a, rew_b) and rew_b.dtype == rew_a.dtype, f"step {t}: rewards differ"
        assert np.array_equal(done_a, done_b), f"step {t}: dones differ"
        for i, (ia, ib) in enumerate(zip(infos_a, infos_b, strict=True)):
            assert ia["TimeLimit.truncated"] == ib["TimeLimit.truncated"]
            if not done_a[i]:
                continue
            episodes += 1
            assert np.array_equal(ia["terminal_observation"], ib["terminal_observation"])
            assert {k: ia["episode"][k] for k in ("r", "l")} == {k: ib["episode"][k] for k in ("r", "l")}
            assert ia.get("outcome") == ib.get("outcome")
            assert ia.get("illegal_action") == ib.get("illegal_action")
            if "events" in ia or "events" in ib:  # at the end of a fight, not at a truncation
                roll_free = {k: v for k, v in ia["events"].items() if k != "roll"}
                assert roll_free == ib["events"], "the same events, less the roll entries"
    return episodes


@pytest.mark.parametrize(("system", "scenario"), system_scenarios())
def test_same_episodes_as_the_dummy_vec_env_path(system: str, scenario: str) -> None:
    episodes = _compare(system, scenario, ["random", "by-the-book"], steps=300)
    assert episodes > 0, "the comparison must cross at least one auto-reset"


@pytest.mark.parametrize("system", system_names())
def test_truncation_and_illegal_actions_match(system: str) -> None:
    assert _compare(system, None, "aggressive", steps=200, max_steps=6, illegal_every=17) > 0


@pytest.mark.parametrize("system", system_names())
def test_vec_env_contract(system: str) -> None:
    """What SB3's check_env checks of an env, for a VecEnv: spaces, dtypes, shapes, auto-reset, masks."""
    vec = TacticsVecEnv(system, N_ENVS, opponents="random")
    assert isinstance(vec.observation_space, spaces.Box) and vec.observation_space.dtype == np.float32
    assert isinstance(vec.action_space, spaces.Discrete)
    assert is_masking_supported(vec)
    assert vec.env_is_wrapped(Monitor) == [False] * N_ENVS
    vec.seed(0)
    obs = vec.reset()
    n_actions = int(vec.action_space.n)
    assert obs.shape == (N_ENVS, *vec.observation_space.shape) and obs.dtype == np.float32
    rng = np.random.default_rng(0)
    done_seen = 0
    for _ in range(400):
        masks = get_action_masks(vec)
        assert masks.shape == (N_ENVS, n_actions) and masks.dtype == np.bool_ and masks.any(axis=1).all()
        previous, snapshot = obs, obs.copy()
        obs, rewards, dones, infos = vec.step(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
        assert np.array_equal(previous, snapshot), "a returned batch is not overwritten by the next step"
        assert obs.shape == (N_ENVS, *vec.observation_space.shape) and obs.dtype == np.float32
        assert rewards.shape == (N_ENVS,) and rewards.dtype == np.float32
        assert dones.shape == (N_ENVS,) and dones.dtype == np.bool_
        assert len(infos) == N_ENVS and all(isinstance(i, dict) for i in infos)
        assert all(vec.observation_space.contains(o) for o in obs)
        for i in np.flatnonzero(dones):
            done_seen += 1
            info = infos[i]
            assert vec.observation_space.contains(info["terminal_observation"])
            assert set(info["episode"]) == {"r", "l", "t"} and info["episode"]["l"] >= 1
            assert info["outcome"]["result"] in {"win", "loss", "draw", "fled"}
            assert "roll" not in info["events"], "roll events are off while training"
    assert done_seen > 0
    session = vec.get_attr("session", [0])[0]
    assert session.system == system
    assert [len(m) for m in vec.env_method("action_masks", indices=[1])] == [n_actions]
    vec.close()


def test_same_seed_same_episodes_different_seed_other_episodes() -> None:
    def run(seed: int) -> list[float]:
        vec = TacticsVecEnv("ose", 2, opponents=["random", "aggressive"])
        vec.seed(seed)
        vec.reset()
        rng = np.random.default_rng(1)
        out: list[float] = []
        for _ in range(150):
            masks = vec.action_masks()
            obs, rewards, dones, _ = vec.step(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
            out.extend(float(x) for x in obs.sum(axis=1))
        return out

    assert run(5) == run(5)
    assert run(5) != run(6)


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="n_envs"):
        TacticsVecEnv("ose", 0)
    with pytest.raises(ValueError, match="side"):
        TacticsVecEnv("ose", 1, side=5)
    with pytest.raises(Exception, match="no-such-agent"):
        TacticsVecEnv("ose", 1, opponents="no-such-agent")


@pytest.mark.integration
@pytest.mark.parametrize("system", system_names())
def test_maskable_ppo_learns_on_it(system: str) -> None:
    from sb3_contrib import MaskablePPO

    vec = TacticsVecEnv(system, 2, opponents="by-the-book")
    model = MaskablePPO("MlpPolicy", vec, n_steps=64, batch_size=64, n_epochs=1, seed=0, device="cpu",
                        policy_kwargs={"net_arch": [16]})
    model.learn(256)
    assert model.num_timesteps >= 256
    assert len(model.ep_info_buffer) > 0, "episode infos reach SB3's logger (ep_rew_mean)"
    obs = vec.reset()
    actions, _ = model.predict(obs, action_masks=vec.action_masks(), deterministic=True)
    assert all(vec.action_masks()[i, a] for i, a in enumerate(actions))


def _trained_weights(vec: Any) -> dict[str, Any]:
    from sb3_contrib import MaskablePPO

    model = MaskablePPO("MlpPolicy", vec, n_steps=64, batch_size=64, n_epochs=2, seed=3, device="cpu",
                        policy_kwargs={"net_arch": [16]})
    model.learn(256)
    return {k: v.clone() for k, v in model.policy.state_dict().items()}


@pytest.mark.integration
def test_same_seed_same_training_on_either_backend() -> None:
    """The same seed trains the same weights twice on the native env, and the same as on the DummyVecEnv path."""
    import torch

    native = _trained_weights(TacticsVecEnv("mrq", 2, opponents=["random", "by-the-book"], reward=REWARD))
    again = _trained_weights(TacticsVecEnv("mrq", 2, opponents=["random", "by-the-book"], reward=REWARD))
    dummy_env = DummyVecEnv([lambda: Monitor(gymnasium.make(get_system("mrq").gym_id, reward=REWARD,
                                                            opponents=["random", "by-the-book"]))] * 2)
    dummy = _trained_weights(dummy_env)
    for name, value in native.items():
        assert torch.equal(value, again[name]), name
        assert torch.equal(value, dummy[name]), name
