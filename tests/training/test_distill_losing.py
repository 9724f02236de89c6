"""The losing teacher of ``distill``: exactly the base's decisions where the NPC is losing (the retreat report's
test) go to it, it plays them in round 1, and the student, its run folder and the command say so."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from npc_tactics.agents.resolve import agent_factory
from npc_tactics.cli.main import main
from npc_tactics.encounters.generator import Generator, training_seed
from npc_tactics.encounters.spec import load_encounter
from npc_tactics.errors import UserError
from npc_tactics.evaluation.fight import agent_rngs, play_fight
from npc_tactics.evaluation.losing import is_losing, leave_actions
from npc_tactics.gm.advice.trust import trust_of
from npc_tactics.i18n import translator
from npc_tactics.policy_io.onnx_agent import load_bundle_agent
from npc_tactics.registry import get_system
from npc_tactics.training.config import load_train_config
from npc_tactics.training.distill import BASE, LOSING, DistillSettings, distill
from npc_tactics.training.distill_labels import Labels, LosingGate, Recorder
from npc_tactics.training.train import train

TINY_BUDGET = {"budget.timesteps": 512, "budget.n_envs": 2, "budget.eval_every": 0, "budget.eval_episodes": 4,
               "budget.checkpoint_every": 0, "ppo.n_steps": 64, "ppo.batch_size": 64, "ppo.n_epochs": 1}


class _Spy:
    """An agent that answers like ``inner`` and says, at each call, whether the actor was losing."""

    def __init__(self, inner: Any, leave: frozenset[int]) -> None:
        self.inner, self.leave, self.losing_at_call = inner, leave, []  # type: list[bool]
        self.name = "spy"

    def act(self, observation: Any, mask: np.ndarray) -> int:
        self.losing_at_call.append(is_losing(observation.state, int(observation.decision.actor), mask, self.leave))
        return int(self.inner.act(observation, mask))


def test_the_gate_sends_exactly_the_losing_decisions_to_the_losing_teacher() -> None:
    plugin = get_system("ose")
    engine = plugin.load("engine")({})
    encoder = plugin.load("encoder")(engine)
    leave = leave_actions("ose", engine)
    assert leave  # OSE's withdraw and retreat moves
    book = agent_factory("ose", "by-the-book")
    generator = Generator(load_encounter("generalist", "ose"))
    labels = Labels()
    base_calls = teacher_calls = 0
    for i in range(30):
        rngs = agent_rngs(100 + i, 2)
        base = _Spy(book(engine, rngs[0]), leave)
        teacher = _Spy(book(engine, np.random.default_rng(i)), leave)
        seated = [Recorder(base, labels, BASE, LosingGate(leave, teacher)), book(engine, rngs[1])]
        play_fight(engine, encoder, generator.draw(training_seed(i)), seated, 100 + i)
        assert not any(base.losing_at_call) and all(teacher.losing_at_call)
        base_calls += len(base.losing_at_call)
        teacher_calls += len(teacher.losing_at_call)
    groups = np.array(labels.groups)
    assert teacher_calls > 0 and base_calls > 0  # both kinds of decision happen in thirty fights
    assert (groups == LOSING).sum() == teacher_calls and (groups == BASE).sum() == base_calls
    assert len(labels.vectors) == len(labels.masks) == len(groups)


def _check_weighted_cross_entropy(run: Path) -> None:
    """The weighted loss is the weights' average of each decision's cross-entropy, the plain one their mean."""
    from npc_tactics.agents.policy import load_policy_agent
    from npc_tactics.training.distill_fit import cross_entropy, probabilities

    policy = load_policy_agent(run).policy
    rng = np.random.default_rng(0)
    n, size = 6, int(policy.observation_space.shape[0])
    vectors = rng.uniform(-1, 1, (n, size)).astype(np.float32)
    masks = np.ones((n, int(policy.action_space.n)), dtype=bool)
    targets = np.zeros(masks.shape, dtype=np.float32)
    targets[np.arange(n), rng.integers(0, masks.shape[1], n)] = 1.0
    rows = [cross_entropy(policy, vectors[i:i + 1], masks[i:i + 1], targets[i:i + 1]) for i in range(n)]
    weights = np.array([1, 1, 4, 1, 8, 1], dtype=np.float32)
    assert cross_entropy(policy, vectors, masks, targets) == pytest.approx(np.mean(rows), rel=1e-5)
    assert cross_entropy(policy, vectors, masks, targets, weights) == pytest.approx(
        float(np.dot(rows, weights) / weights.sum()), rel=1e-5)
    assert probabilities(policy, vectors, masks).shape == masks.shape


@pytest.mark.integration
def test_distill_with_a_losing_teacher_labels_the_base_s_losing_states_and_says_so(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = load_train_config("npc_tactics/configs/policies/ose.yaml").with_overrides(**TINY_BUDGET)
    base = tmp_path / "generalist"
    train(config, base, timesteps=512, seed=1, progress=False)
    retreat = tmp_path / "retreat"
    train(config, retreat, timesteps=512, seed=2, progress=False)
    settings = DistillSettings(fights=16, scenario_fights=1, rounds=2, epochs=8)
    report = distill(base, {}, tmp_path / "student", settings, losing_teacher=retreat)
    first, last = report["rounds"][0], report["rounds"][-1]
    assert set(first["decisions"]) == {BASE, LOSING}
    assert last["agreement_after"][LOSING] > first["agreement_before"][LOSING]  # it moves toward the teacher
    assert report["losing_teacher"]["run"] == "retreat"
    meta = json.loads((tmp_path / "student" / "meta.json").read_text())
    assert meta["distilled"] == {"base": "generalist", "teachers": {}, "losing": "retreat"}
    distill(base, {}, tmp_path / "again", settings, losing_teacher=retreat)
    assert (tmp_path / "student" / "policy.pt").read_bytes() == (tmp_path / "again" / "policy.pt").read_bytes()

    with pytest.raises(SystemExit) as done:
        main(["export", str(tmp_path / "student"), "--out", str(tmp_path / "bundle"), "--fights", "4"])
    assert done.value.code == 0
    assert json.loads((tmp_path / "bundle" / "schema.json").read_text())["training"]["losing"] == "retreat"
    trust = trust_of(None, load_bundle_agent(tmp_path / "bundle"), "")
    assert trust is not None and trust.to_dict()["losing"] == "retreat"
    assert any("where the NPC is losing" in line for line in trust.lines(lambda s: s))
    assert any("où le PNJ perd" in line for line in trust.lines(translator("fr"), "fr"))
    weighted = distill(base, {}, tmp_path / "weighted", DistillSettings(fights=16, scenario_fights=1, rounds=2,
                                                                         epochs=8, losing_weight=8.0),
                       losing_teacher=retreat)
    assert weighted["settings"]["losing_weight"] == 8.0 and "losing_weight" not in report["settings"]
    assert (tmp_path / "weighted" / "policy.pt").read_bytes() != (tmp_path / "student" / "policy.pt").read_bytes()
    _check_weighted_cross_entropy(base)

    with pytest.raises(UserError, match="losing_weight"):
        DistillSettings(losing_weight=0.5)
    with pytest.raises(UserError, match="give one of them"):
        distill(base, {}, tmp_path / "x", DistillSettings(search=2), losing_teacher=retreat)
    with pytest.raises(UserError, match="another name"):
        distill(base, {LOSING: retreat}, tmp_path / "x", settings)
    with pytest.raises(UserError, match="config.yaml is missing"):
        distill(base, {}, tmp_path / "x", settings, losing_teacher=tmp_path)
    with pytest.raises(SystemExit) as done:
        main(["distill", str(base), "--losing-teacher", str(retreat), "--fights", "2", "--rounds", "1",
              "--epochs", "1", "--out", str(tmp_path / "cli")])
    assert done.value.code == 0
    assert "losing teacher retreat" in capsys.readouterr().out
