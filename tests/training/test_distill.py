"""Policy distillation on real (tiny) MaskablePPO runs: the student's run folder, its fit to each teacher, the
same bytes from the same seed, export, and one-line refusals."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from npc_tactics.agents.policy import load_policy_agent
from npc_tactics.cli.main import main
from npc_tactics.errors import UserError
from npc_tactics.gm.advice.trust import trust_of
from npc_tactics.policy_io.onnx_agent import load_bundle_agent
from npc_tactics.training.config import TrainConfig, load_train_config
from npc_tactics.training.distill import BASE, DistillSettings, distill
from npc_tactics.training.train import train

pytestmark = pytest.mark.integration

SMALL = DistillSettings(fights=12, scenario_fights=8, rounds=2, epochs=4)
TINY_BUDGET = {"budget.timesteps": 512, "budget.n_envs": 2, "budget.eval_every": 0, "budget.eval_episodes": 4,
               "budget.checkpoint_every": 0, "ppo.n_steps": 64, "ppo.batch_size": 64, "ppo.n_epochs": 1}


def _tiny(config: TrainConfig, out: Path) -> Path:
    train(config.with_overrides(**TINY_BUDGET), out, timesteps=512, seed=1, progress=False)
    return out


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("distill")
    base = _tiny(load_train_config("npc_tactics/configs/policies/ose.yaml"), root / "generalist")
    teacher = _tiny(load_train_config("ose_goblin_duel"), root / "goblin_duel")  # another net_arch: allowed
    return base, teacher


def test_the_student_is_a_run_folder_that_follows_each_teacher_closer_than_it_started(
        runs: tuple[Path, Path], tmp_path: Path) -> None:
    base, teacher = runs
    report = distill(base, {"goblin_duel": teacher}, tmp_path / "student", SMALL)
    first, last = report["rounds"][0], report["rounds"][-1]
    assert set(last["decisions"]) == {BASE, "goblin_duel"}
    assert first["agreement_before"][BASE] == 1.0  # the student starts as the base
    assert last["agreement_after"]["goblin_duel"] > first["agreement_before"]["goblin_duel"]
    assert sum(last["decisions"].values()) > sum(first["decisions"].values())  # rounds add their labels
    student = load_policy_agent(tmp_path / "student")
    assert student.system == "ose" and student.side == 0
    meta = json.loads((tmp_path / "student" / "meta.json").read_text())
    assert meta["distilled"]["teachers"] == {"goblin_duel": "goblin_duel"}
    assert json.loads((tmp_path / "student" / "distill.json").read_text()) == report


def test_the_same_seed_gives_the_same_student_byte_for_byte(runs: tuple[Path, Path], tmp_path: Path) -> None:
    base, teacher = runs
    one = DistillSettings(fights=6, scenario_fights=4, rounds=1, epochs=2)
    distill(base, {"goblin_duel": teacher}, tmp_path / "a", one)
    distill(base, {"goblin_duel": teacher}, tmp_path / "b", one)
    assert (tmp_path / "a" / "policy.pt").read_bytes() == (tmp_path / "b" / "policy.pt").read_bytes()


def test_the_student_exports_a_bundle_that_names_its_teachers(runs: tuple[Path, Path], tmp_path: Path) -> None:
    base, teacher = runs
    distill(base, {"goblin_duel": teacher}, tmp_path / "student", DistillSettings(fights=4, scenario_fights=2,
                                                                                rounds=1, epochs=1))
    with pytest.raises(SystemExit) as done:
        main(["export", str(tmp_path / "student"), "--out", str(tmp_path / "bundle"), "--fights", "4"])
    assert done.value.code == 0
    schema = json.loads((tmp_path / "bundle" / "schema.json").read_text())
    assert schema["training"]["teachers"] == {"goblin_duel": "goblin_duel"}
    assert {e["opponent"] for e in schema["training"]["evaluation"]} == {"by-the-book", "aggressive", "cautious"}
    agent = load_bundle_agent(tmp_path / "bundle")
    trust = trust_of(None, agent, schema["rules_version"])
    assert trust is not None and trust.to_dict()["teachers"] == ["goblin_duel"]
    lines = trust.lines(lambda s: s)
    assert "distilled with a specialist trained on goblin_duel, whose moves it follows there" in lines
    assert any(line.startswith("last evaluation: ") for line in lines)  # the student's own, from distill


def test_refusals_are_one_line(runs: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    base, teacher = runs
    with pytest.raises(UserError, match="encounter distribution"):  # a specialist is no base
        distill(teacher, {"goblin_duel": base}, tmp_path / "x", SMALL)
    with pytest.raises(UserError, match="scenario"):
        distill(base, {"no_such_fight": teacher}, tmp_path / "x", SMALL)
    with pytest.raises(UserError, match="config.yaml is missing"):
        distill(base, {"goblin_duel": tmp_path}, tmp_path / "x", SMALL)
    (tmp_path / "taken").mkdir()
    with pytest.raises(UserError, match="already exists"):
        distill(base, {"goblin_duel": teacher}, tmp_path / "taken", DistillSettings(fights=2, scenario_fights=1,
                                                                                  rounds=1, epochs=1))
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "keep.txt").write_text("a GM's notes")
    with pytest.raises(UserError, match="not a distilled run"):  # --force never deletes someone's folder
        distill(base, {"goblin_duel": teacher}, tmp_path / "notes", SMALL, force=True)
    assert (tmp_path / "notes" / "keep.txt").read_text() == "a GM's notes"
    with pytest.raises(UserError, match="one of the runs distilled"):
        distill(base, {"goblin_duel": teacher}, base, SMALL, force=True)
    with pytest.raises(UserError, match="at least 1"):
        DistillSettings(fights=0)
    for args in (["--teacher", "goblin_duel"], ["--teacher", f"goblin_duel={teacher}", "--teacher",
                                                 f"goblin_duel={teacher}"]):
        with pytest.raises(SystemExit) as done:
            main(["distill", str(base), *args, "--out", str(tmp_path / "y")])
        assert done.value.code == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "--teacher" in err


def test_expert_iteration_learns_the_search_s_moves_and_says_so(runs: tuple[Path, Path], tmp_path: Path) -> None:
    """``search=N`` without teachers: the base's fights are labelled by the search over the student (one-hot on
    its move), the student moves toward those labels, the bundle and trust lines say it; the same seed gives the
    same student."""
    base, _ = runs
    settings = DistillSettings(fights=6, scenario_fights=1, rounds=2, epochs=8, search=4)
    report = distill(base, {}, tmp_path / "student", settings)
    last = report["rounds"][-1]
    assert set(last["decisions"]) == {"search"} and report["settings"]["search"] == 4
    for r in report["rounds"]:  # each round's fit moves the student toward the search's moves
        assert r["loss"] < r["loss_before"]
    meta = json.loads((tmp_path / "student" / "meta.json").read_text())
    assert meta["distilled"] == {"base": "generalist", "teachers": {}, "search": 4}
    distill(base, {}, tmp_path / "again", settings)
    assert (tmp_path / "student" / "policy.pt").read_bytes() == (tmp_path / "again" / "policy.pt").read_bytes()
    with pytest.raises(SystemExit) as done:
        main(["export", str(tmp_path / "student"), "--out", str(tmp_path / "bundle"), "--fights", "4"])
    assert done.value.code == 0
    trust = trust_of(None, load_bundle_agent(tmp_path / "bundle"), report.get("rules_version", ""))
    assert trust is not None and trust.search == 4
    assert any("a search of 4 play-outs a decision" in line for line in trust.lines(lambda s: s))
    with pytest.raises(UserError, match="or a search"):
        distill(base, {}, tmp_path / "none", DistillSettings(fights=2, scenario_fights=1, rounds=1, epochs=1))
    with pytest.raises(UserError, match="search: expected"):
        DistillSettings(search=-1)


def test_a_teacher_trained_on_a_distribution_teaches_on_fights_drawn_from_it(
        runs: tuple[Path, Path], tmp_path: Path) -> None:
    base, _ = runs
    family = _tiny(load_train_config("npc_tactics/configs/policies/ose.yaml"), tmp_path / "family")  # an encounter
    settings = DistillSettings(fights=4, scenario_fights=6, rounds=1, epochs=1)
    report = distill(base, {"bands": family}, tmp_path / "student", settings)  # any label: not a scenario name
    assert report["rounds"][0]["decisions"]["bands"] > 6  # six drawn fights, several decisions each
    again = distill(base, {"bands": family}, tmp_path / "again", settings)
    assert again["rounds"] == report["rounds"]  # the same draws from the same seed


def test_a_drawn_fight_that_is_a_scenario_teachers_own_stays_that_teachers(runs: tuple[Path, Path],
                                                                         tmp_path: Path) -> None:
    from npc_tactics.encounters.generator import Generator, training_seed
    from npc_tactics.encounters.spec import load_encounter
    from npc_tactics.training.distill import FAMILY_SEED

    base, teacher = runs
    family = _tiny(load_train_config("npc_tactics/configs/policies/ose.yaml"), tmp_path / "family")
    settings = DistillSettings(fights=2, scenario_fights=40, rounds=1, epochs=1)
    drawn = Generator(load_encounter("bestiary", "ose"))
    routed = sum(getattr(drawn.draw(training_seed(FAMILY_SEED + j)).scenario, "name", "") == "goblin_duel"
                 for j in range(40))
    assert routed > 0  # the family's draws hold goblin_duel itself (its scenarios share)
    alone = distill(base, {"goblin_duel": teacher}, tmp_path / "alone", settings)
    both = distill(base, {"goblin_duel": teacher, "bands": family}, tmp_path / "both", settings)
    # the same 40 goblin_duel fights on the same dice, plus the family's goblin_duel draws, labelled by goblin_duel
    assert both["rounds"][0]["decisions"]["goblin_duel"] > alone["rounds"][0]["decisions"]["goblin_duel"]


def test_export_measures_the_range_over_the_distributions_its_teachers_taught_on(tmp_path: Path) -> None:
    """A student fitted on a distribution teacher's fights has met their states: its bundle's observation range
    (the out-of-training check) covers them too, and says so; without the family the same student's range is
    the base distribution's alone (same policy, same seeds: the family only widens it)."""
    import shutil

    from npc_tactics.policy_io.bundle import read_bundle

    ose = load_train_config("npc_tactics/configs/policies/ose.yaml")
    base = _tiny(ose.with_overrides(encounter="generalist"), tmp_path / "base")  # nine humanoids, levels 1-3
    family = _tiny(ose, tmp_path / "family")  # the whole bestiary, levels 1-10
    distill(base, {"bands": family}, tmp_path / "student", DistillSettings(fights=2, scenario_fights=2, rounds=1,
                                                                           epochs=1))
    meta = json.loads((tmp_path / "student" / "meta.json").read_text())
    assert meta["distilled"]["families"] == {"bands": "bestiary"}
    shutil.copytree(tmp_path / "student", tmp_path / "narrow")
    del meta["distilled"]["families"]
    (tmp_path / "narrow" / "meta.json").write_text(json.dumps(meta))
    for name in ("student", "narrow"):
        with pytest.raises(SystemExit) as done:
            main(["export", str(tmp_path / name), "--out", str(tmp_path / f"{name}.bundle"), "--fights", "6"])
        assert done.value.code == 0
    wide, narrow = (read_bundle(tmp_path / f"{n}.bundle").schema.observation for n in ("student", "narrow"))
    assert "6 fights (seeds from 6) of bestiary (its bands teacher's)" in wide.observed_range_source
    assert "bestiary" not in narrow.observed_range_source
    pairs = list(zip(wide.fields, narrow.fields, strict=True))
    assert all(w.min <= n.min and w.max >= n.max for w, n in pairs)
    assert any(w.min < n.min or w.max > n.max for w, n in pairs)
