"""A training config naming an encounter distribution: both vec env backends draw one fight per episode."""

from __future__ import annotations

import pytest

from npc_tactics.training.config import TrainConfig, validate_names
from npc_tactics.training.envs import make_vec_env


@pytest.mark.parametrize("backend", ["native", "dummy"])
def test_episodes_draw_their_own_fights(backend: str) -> None:
    config = validate_names(TrainConfig(system="mrq", encounter="generalist",
                                        budget={"n_envs": 2, "timesteps": 1000}))  # type: ignore[arg-type]
    assert config.scenario is None and config.label() == "encounter-generalist"
    vec = make_vec_env(config, seed=3, backend=backend)
    vec.reset()
    sessions = ([d.session for d in vec.drivers] if backend == "native"  # type: ignore[attr-defined]
                else [e.unwrapped.session for e in vec.envs])  # type: ignore[attr-defined]
    seen = set()
    for _ in range(300):
        seen.update(id(s.scenario) for s in sessions)
        masks = vec.env_method("action_masks") if backend == "dummy" else vec.action_masks()  # type: ignore[attr-defined]
        vec.step([int(m.nonzero()[0][0]) for m in masks])  # the first legal move of each fight
    assert len(seen) > 4  # new episodes, new drawn scenarios
    assert all(s.generator is not None for s in sessions)


def test_scenario_and_encounter_together_refused() -> None:
    from pydantic import ValidationError

    with pytest.raises(ValidationError, match="either scenario"):
        TrainConfig(system="ose", scenario="goblin_duel", encounter="generalist")
