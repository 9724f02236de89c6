"""A bundle (an ensemble's too) as the base of a distillation, on real tiny MaskablePPO runs exported with ONNX:
the student starts as the chosen network, learns the bundle's moves on the distribution and the teacher's on its
scenario, exports again; and one-line refusals when the bundle and its config disagree."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from npc_tactics.agents.policy import load_policy_agent
from npc_tactics.cli.main import main
from npc_tactics.errors import UserError
from npc_tactics.policy_io.onnx_agent import load_bundle_agent
from npc_tactics.training.config import TrainConfig, load_train_config
from npc_tactics.training.distill import BASE, DistillSettings, distill
from npc_tactics.training.distill_bundle import load_bundle_base
from npc_tactics.training.train import train

pytestmark = pytest.mark.integration

CONFIG = Path("npc_tactics/configs/policies/ose.yaml")
TINY_BUDGET = {"budget.timesteps": 512, "budget.n_envs": 2, "budget.eval_every": 0, "budget.eval_episodes": 4,
               "budget.checkpoint_every": 0, "ppo.n_steps": 64, "ppo.batch_size": 64, "ppo.n_epochs": 1}


def _tiny(config: TrainConfig, out: Path, seed: int) -> Path:
    train(config.with_overrides(**TINY_BUDGET), out, timesteps=512, seed=seed, progress=False)
    return out


def _export(out: Path, *runs: Path, half: bool = False) -> Path:
    with pytest.raises(SystemExit) as done:
        main(["export", *map(str, runs), "--out", str(out), "--fights", "4", *(["--half"] if half else [])])
    assert done.value.code == 0
    return out


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("distill-bundle")
    one = _tiny(load_train_config(CONFIG), root / "one", seed=1)
    two = _tiny(load_train_config(CONFIG), root / "two", seed=2)
    teacher = _tiny(load_train_config("ose_goblin_duel"), root / "goblin_duel", seed=3)
    return {"one": one, "two": two, "teacher": teacher, "single": _export(root / "single", one),
            "pair": _export(root / "pair", one, two, half=True)}


def _vectors(n: int, size: int) -> np.ndarray:
    return np.random.default_rng(0).uniform(-1, 1, (n, size)).astype(np.float32)


def test_the_student_starts_as_the_named_network_of_the_bundle(made: dict[str, Path]) -> None:
    single = load_bundle_base(made["single"], CONFIG)
    run = load_policy_agent(made["one"])
    vectors = _vectors(32, run.obs_size)
    mask = np.ones(run.n_actions, dtype=bool)
    for v in vectors:  # float32 export: the same network
        assert np.allclose(single.student.action_probabilities(v, mask), run.action_probabilities(v, mask),
                           atol=1e-5)
    second = load_bundle_base(made["pair"], CONFIG, member=1)  # the ensemble's second member, float16
    other = load_policy_agent(made["two"])
    for v in vectors:
        assert np.allclose(second.student.action_probabilities(v, mask), other.action_probabilities(v, mask),
                           atol=2e-2)
    assert second.meta["observation_size"] == run.obs_size and second.meta["config_source"] == str(CONFIG)


def test_an_ensemble_is_distilled_into_one_network_with_a_teacher(made: dict[str, Path], tmp_path: Path) -> None:
    settings = DistillSettings(fights=10, scenario_fights=6, rounds=2, epochs=6)
    report = distill(made["pair"], {"goblin_duel": made["teacher"]}, tmp_path / "student", settings,
                     config_path=CONFIG, member=0)
    assert report["base"]["bundle"] is True and report["base"]["member"] == 0
    first, last = report["rounds"][0], report["rounds"][-1]
    assert set(last["decisions"]) == {BASE, "goblin_duel"}
    assert last["agreement_after"][BASE] >= first["agreement_before"][BASE]
    meta = json.loads((tmp_path / "student" / "meta.json").read_text())
    assert meta["distilled"]["base"] == "pair" and meta["system"] == "ose"
    student = load_policy_agent(tmp_path / "student")
    assert student.side == 0
    bundle = _export(tmp_path / "bundle", tmp_path / "student")
    agent = load_bundle_agent(bundle)
    assert json.loads((bundle / "schema.json").read_text())["training"]["teachers"] == {"goblin_duel": "goblin_duel"}
    assert agent.system == "ose"


def test_the_same_seed_gives_the_same_student_from_a_bundle(made: dict[str, Path], tmp_path: Path) -> None:
    one = DistillSettings(fights=4, scenario_fights=2, rounds=1, epochs=2)
    for name in ("a", "b"):
        distill(made["pair"], {"goblin_duel": made["teacher"]}, tmp_path / name, one, config_path=CONFIG)
    assert (tmp_path / "a" / "policy.pt").read_bytes() == (tmp_path / "b" / "policy.pt").read_bytes()


def test_the_command_line_distils_a_bundle(made: dict[str, Path], tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["distill", str(made["pair"]), "--config", str(CONFIG), "--member", "1", "--teacher",
              f"goblin_duel={made['teacher']}", "--fights", "3", "--scenario-fights", "2", "--rounds", "1",
              "--out", str(tmp_path / "student")])
    assert done.value.code == 0
    assert "student: " in capsys.readouterr().out
    assert json.loads((tmp_path / "student" / "distill.json").read_text())["base"]["member"] == 1


@pytest.mark.parametrize(("base", "kwargs", "message"), [
    ("pair", {}, "needs --config"),
    ("pair", {"config_path": Path("npc_tactics/configs/policies/runequest.yaml")}, "the bundle plays ose, the "
     "config runequest"),
    ("pair", {"config_path": CONFIG, "member": 2}, "--member 2: the bundle holds 2 network(s)"),
    ("single", {"config_path": CONFIG, "member": 1}, "--member 1: the bundle holds 1 network(s)"),
    ("one", {"config_path": CONFIG}, "--config and --member are for a bundle as the base"),
    ("one", {"member": 1}, "--config and --member are for a bundle as the base"),
])
def test_a_bundle_base_that_does_not_fit_is_refused_in_one_line(made: dict[str, Path], tmp_path: Path, base: str,
                                                                kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(UserError, match=message.replace("(", r"\(").replace(")", r"\)")) as caught:
        distill(made[base], {"goblin_duel": made["teacher"]}, tmp_path / "student", DistillSettings(fights=1),
                **kwargs)  # type: ignore[arg-type]
    assert "\n" not in str(caught.value)
    assert not (tmp_path / "student").exists()
