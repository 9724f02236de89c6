"""Probes: an answer known exactly from the rules, results independent of the worker count, validated probe
files (every shipped one loads into a decision), and the command's outputs."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from npc_tactics.dice import RngRoller
from npc_tactics.errors import ConfigError, UnknownNameError
from npc_tactics.evaluation.stats import paired_gap
from npc_tactics.probes import load_probe_file, probe_files, run_probe, run_probe_file
from npc_tactics.registry import get_system
from tests.cli_helpers import run_cli

HERE = Path(__file__).resolve().parent
EXACT = HERE / "exact.yaml"


def test_a_probe_known_exactly_from_the_rules() -> None:
    """Under flight escape a flight from a foe out of reach always gets away: flee never wins and always
    survives, so an agent that flees fails the win probe and passes the survival probe, and one that attacks
    the other way round."""
    probes = load_probe_file(EXACT)
    fleeing = run_probe_file(probes, "by-the-book", workers=1)
    attacking = run_probe_file(probes, "aggressive", workers=1)
    n = probes.rollouts
    for result in fleeing:
        assert result.choice_name == "flee"
        for cont in result.continuations:
            flee = cont.of(result.choice)
            assert (flee.win.count, flee.survival.count) == (0, n)
    win, survive = fleeing
    assert not win.passed and win.reference.of(win.best).win.count > 0
    assert survive.passed and survive.changes_with_continuation and not survive.notes
    assert [r.choice_name for r in attacking] == ["attack:0:enemy_0"] * 2
    assert attacking[0].passed is True and attacking[1].passed is False


def test_the_verdict_is_the_paired_gap_against_the_tolerance() -> None:
    """Fleeing never wins, a few points behind the best move on the same rollouts: clearly worse with no
    tolerance, forgiven by a tolerance above the gap's interval; the gap is the per-rollout difference."""
    probes = load_probe_file(EXACT)
    strict = run_probe(probes.probes[0], "by-the-book", options=probes.options, rollouts=probes.rollouts,
                       seed=probes.seed, workers=1)
    gap = strict.reference.gap
    best = strict.reference.of(strict.best)
    assert strict.choice_name == "flee" and not strict.passed
    assert gap.mean == pytest.approx(best.win.rate) and 0 < gap.low < gap.mean < gap.high
    loose = run_probe(replace(probes.probes[0], tolerance=int(100 * gap.high) + 1), "by-the-book",
                      options=probes.options, rollouts=probes.rollouts, seed=probes.seed, workers=1)
    assert loose.passed and loose.reference.gap == gap and loose.to_dict()["tolerance"] == loose.tolerance


def test_paired_gap() -> None:
    assert paired_gap([1, 1, 0, 1], [1, 0, 0, 1]) == pytest.approx((0.25, 0.25 - 1.96 * 0.5 / 2, 0.25 + 0.49))
    assert paired_gap([1, 0, 1], [1, 0, 1]) == (0.0, 0.0, 0.0)  # moves that do the same thing on the same dice
    assert paired_gap([1], [0]) == (1.0, 1.0, 1.0) and paired_gap([], []) == (0.0, 0.0, 0.0)


def test_probe_results_do_not_depend_on_the_worker_count() -> None:
    probe = load_probe_file(EXACT).probes[1]
    options = {"flight": "escape"}
    one = run_probe(probe, "cautious", options=options, rollouts=12, seed=5, workers=1)
    two = run_probe(probe, "cautious", options=options, rollouts=12, seed=5, workers=2)
    assert one.to_dict() == two.to_dict()


@pytest.mark.parametrize("path", probe_files(["all"]), ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_every_shipped_probe_loads_into_a_decision(path: Path) -> None:
    probes = load_probe_file(path)
    info = get_system(probes.system)
    engine = info.load("engine")(probes.options)
    tactics = set()
    for probe in probes.probes:
        state = info.load("content").load_situation(engine, probe.situation, RngRoller(np.random.default_rng(0)))
        decision = engine.pending(state)
        assert decision is not None and np.count_nonzero(engine.legal_mask(state, decision)) >= 2, probe.name
        assert len(probe.why) > 60, f"{probe.name}: say why the rules make the best move best"
        tactics.add(probe.tactic)
    assert "retreat or flee" in tactics


def test_every_system_ships_probes() -> None:
    systems = {load_probe_file(p).system for p in probe_files(["all"])}
    assert systems == {"ose", "runequest", "mrq", "dicepool"}


@pytest.mark.parametrize(("patch", "field", "fragment"), [
    ({"measure": "glory"}, "probes[0].measure", "unknown measure 'glory'"),
    ({"colour": "red"}, "probes[0].colour", "unknown key"),
    ({"why": ""}, "probes[0].why", "non-empty string"),
    ({"continuations": []}, "probes[0].continuations", "1 to 4 continuations"),
    ({"continuations": [{"npc": "by-the-book"}]}, "probes[0].continuations[0].other", "missing required key"),
    ({"changes_with_continuation": True}, "probes[0].changes_with_continuation", "at least two continuations"),
    ({"situation": "nowhere.yaml"}, "probes[0].situation", "file not found"),
    ({"tolerance": 30}, "probes[0].tolerance", "expected 0..25"),
    ({"tolerance": 2.5}, "probes[0].tolerance", "expected an integer"),
])
def test_bad_probe_files_name_the_file_and_field(tmp_path: Path, patch: dict, field: str, fragment: str) -> None:
    probe = {"name": "p", "why": "because", "situation": {"name": "x"}, **patch}
    path = tmp_path / "bad.yaml"
    path.write_text(json.dumps({"system": "ose", "probes": [probe]}))
    with pytest.raises(ConfigError) as err:
        load_probe_file(path)
    assert err.value.file == str(path) and err.value.field == field and fragment in err.value.message


def test_unknown_system_and_duplicate_names(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(json.dumps({"system": "gurps", "probes": []}))
    with pytest.raises(ConfigError, match="system: unknown system 'gurps'"):
        load_probe_file(path)
    probe = {"name": "p", "why": "because", "situation": {"name": "x"}}
    path.write_text(json.dumps({"system": "ose", "probes": [probe, probe]}))
    with pytest.raises(ConfigError, match=r"probes\[1\].name: probe 'p' appears twice"):
        load_probe_file(path)
    with pytest.raises(UnknownNameError):
        probe_files(["nothing-here"])


def test_the_command_prints_json_and_writes_a_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(["probe", "by-the-book", str(EXACT), "--rollouts", "6", "--workers", "1", "--json",
                              "--out", str(tmp_path / "rep")], capsys)
    assert code == 0, err
    data = json.loads(out)
    assert data["probes"] == 2 and data["by_system"]["runequest"]["probes"] == 2
    assert [r["choice"]["name"] for r in data["results"]] == ["flee", "flee"]
    assert json.loads((tmp_path / "rep" / "probes.json").read_text()) == data
    assert "# Probes: by-the-book" in (tmp_path / "rep" / "probes.md").read_text()


@pytest.mark.integration
def test_a_bundle_is_probed_on_its_own_system(tiny_bundle: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(["probe", str(tiny_bundle), "all", "--rollouts", "3", "--workers", "1", "--json"],
                             capsys)
    assert code == 0, err
    data = json.loads(out)
    assert set(data["by_system"]) == {"ose"} and data["probes"] == len(load_probe_file(
        probe_files(["ose"])[0]).probes)
    assert "skipped" in err
    code, out, err = run_cli(["probe", str(tiny_bundle), str(EXACT)], capsys)
    assert code == 2 and "plays ose; none of the probe files given is for ose" in err
