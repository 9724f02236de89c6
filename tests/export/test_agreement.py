"""The bundle's ONNX network gives the SB3 policy's masked probabilities, to 1e-5, on >= 1,000 observations
visited in real fights, for every system."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from npc_tactics.agents.policy import PolicyAgent, load_policy_agent
from npc_tactics.agents.resolve import agent_factory
from npc_tactics.evaluation.arena import Arena
from npc_tactics.evaluation.fight import agent_rngs, play_fight
from npc_tactics.export.onnx_export import torch_probabilities
from npc_tactics.policy_io.onnx_agent import load_bundle_agent
from tests.export.conftest import PRESETS, Exported

pytestmark = pytest.mark.integration

MIN_OBSERVATIONS = 1000
TOLERANCE = 1e-5


class _Recorder:
    """Plays like the SB3 policy (sampling, so fights wander) and keeps each observation and legal mask."""

    def __init__(self, inner: PolicyAgent) -> None:
        self.inner = inner
        self.name = inner.name
        self.vectors: list[np.ndarray] = []
        self.masks: list[np.ndarray] = []

    def act(self, observation: Any, mask: np.ndarray) -> int:
        self.vectors.append(np.array(observation.vector, dtype=np.float32))
        self.masks.append(np.array(mask, dtype=bool))
        return self.inner.act(observation, mask)


def visited(run: Any, n: int) -> tuple[np.ndarray, np.ndarray, PolicyAgent]:
    """At least ``n`` (observation, mask) pairs met by the run's policy against its training opponents."""
    agent = load_policy_agent(run, deterministic=False)
    arena = Arena.build(agent.system, agent.scenario, agent.options)
    from npc_tactics.configs import load_yaml

    opponents = load_yaml(run / "config.yaml")["opponents"]
    recorder = _Recorder(agent)
    seed = 0
    while len(recorder.vectors) < n:
        rngs = agent_rngs(seed, arena.sides)
        agent.rng = rngs[agent.side]
        foe = agent_factory(agent.system, opponents[seed % len(opponents)])(arena.engine, rngs[1 - agent.side])
        seats: list[Any] = [recorder, foe] if agent.side == 0 else [foe, recorder]
        play_fight(arena.engine, arena.encoder, arena.scenario, seats, seed)
        seed += 1
    return np.stack(recorder.vectors), np.stack(recorder.masks), agent


@pytest.mark.parametrize("system", list(PRESETS))
def test_onnx_matches_sb3_on_visited_observations(exported: dict[str, Exported], system: str) -> None:
    case = exported[system]
    obs, masks, sb3 = visited(case.run, MIN_OBSERVATIONS)
    onnx_agent = load_bundle_agent(case.bundle)
    assert onnx_agent.warnings == []
    reference = torch_probabilities(sb3.policy, obs, masks)
    got = onnx_agent.policy.probabilities(obs, masks)
    assert got.shape == reference.shape == (len(obs), sb3.n_actions)
    assert len(obs) >= MIN_OBSERVATIONS
    # several legal moves at most decisions, else agreement would be trivially 1.0 vs 1.0
    assert (masks.sum(axis=1) > 1).mean() > 0.5
    assert np.abs(got - reference).max() < TOLERANCE
    assert np.all(got[~masks] < 1e-12)
    # one at a time through the agents' own entry points (the path suggest uses): same answer
    for k in range(0, len(obs), max(1, len(obs) // 50)):
        a = onnx_agent.action_probabilities(obs[k], masks[k])
        b = sb3.action_probabilities(obs[k], masks[k])
        assert np.abs(a - b).max() < TOLERANCE
        assert int(np.argmax(a)) == int(np.argmax(b)) or abs(a.max() - b.max()) < TOLERANCE
