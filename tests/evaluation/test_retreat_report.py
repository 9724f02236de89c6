"""benchmarks/retreat_report.py on a tiny budget, end to end: real engines, the shipped OSE bundle, no mocks.

What can go wrong and is checked: a state flagged as losing badly without a legal leave move or above the
win threshold; paired play-outs that do not share their dice; play-outs that drift from the search agent's own
(``SearchAgent.playout_values``, whose values the report claims to use, leave moves played through or once);
a report missing a system's row; ``--search`` not playing side 0.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest

from npc_tactics.agents.search import SearchAgent
from npc_tactics.encounters.heldout import load_heldout

ROOT = Path(__file__).resolve().parents[2]
PLAYOUTS = 8


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("retreat_report", ROOT / "benchmarks" / "retreat_report.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["retreat_report"] = module
    spec.loader.exec_module(module)
    return module


R = _load()


@pytest.fixture(scope="module")
def losing() -> tuple[Any, Any]:
    """The OSE bench and the first losing-badly state of the first held-out fights that have one."""
    bench = R.load_bench("ose")
    for index, encounter in enumerate(load_heldout("ose")[:20]):
        for label in R.AGENTS:
            spots, _ = R.play_recorded(bench, encounter, index, 0, label, 0)
            found = R.first_losing(bench, spots, PLAYOUTS, 0)
            if found:
                return bench, next(iter(found.values()))
    pytest.fail("no losing-badly state in the first 20 OSE held-out fights")


def test_a_losing_badly_state_has_a_way_out_and_a_low_win_estimate(losing: tuple[Any, Any]) -> None:
    bench, spot = losing
    assert spot.state.combatants[spot.actor].side == 0
    assert R.leave_moves(bench, spot.mask), "flagged without a legal leave move"
    assert all(spot.mask[m] for m in R.leave_moves(bench, spot.mask))
    assert spot.win <= R.THRESHOLD
    assert R.win_probability(bench, spot, PLAYOUTS, 0) == spot.win  # the estimate is a function of its seeds


def test_paired_playouts_share_their_dice(losing: tuple[Any, Any]) -> None:
    bench, spot = losing
    move = R.leave_moves(bench, spot.mask)[0]
    first, second = R.playout_ends(bench, spot, [move, move], PLAYOUTS, 12345, bench.npc)
    assert first == second
    other = R.playout_ends(bench, spot, [move], PLAYOUTS, 54321, bench.npc)[0]
    assert other != first or len({e.result for e in first}) == 1  # other dice: other ends (unless all alike)


@pytest.mark.parametrize("through", [True, False])
def test_playouts_are_the_search_agents(losing: tuple[Any, Any], through: bool) -> None:
    """Leave moves played through (the default) or once, as the search plays them with the same setting."""
    bench, spot = losing
    bench = dataclasses.replace(bench, plan=bench.plan if through else ())
    assert bool(bench.plan) == through
    moves = [*R.leave_moves(bench, spot.mask), R.fight_on_move(bench, spot)]
    search = SearchAgent(bench.engine, np.random.default_rng(0), policy=bench.npc, opponent=bench.book,
                         encoder=bench.encoder, play_leaving_through=through)
    expected = search.playout_values(spot.state, spot.decision, spot.mask, moves, range(PLAYOUTS), 777)
    ends = R.playout_ends(bench, spot, moves, PLAYOUTS, 777, bench.npc)
    assert np.array_equal(np.array([[e.value for e in row] for row in ends]), expected)
    assert R.fight_on_move(bench, spot) not in bench.leave


def test_leave_vs_fight_pairs_a_leave_move_with_a_non_leave_move(losing: tuple[Any, Any]) -> None:
    bench, spot = losing
    pair = R.leave_vs_fight(bench, spot, PLAYOUTS, 0)
    verbs = {bench.engine.catalogue[i].name: bench.engine.catalogue[i].verb for i in range(len(bench.engine.catalogue))}
    assert pair is not None and pair.win == spot.win
    hooks_leave = {bench.engine.catalogue[i].verb for i in bench.leave}
    assert verbs[pair.leave] in hooks_leave and verbs[pair.fight_on] not in hooks_leave
    assert 0.0 <= pair.value_leave <= 1.25 and 0.0 <= pair.survival_fight <= 1.0
    assert 0.0 <= pair.value_other <= 1.25 and 0.0 <= pair.survival_other <= 1.0
    once = R.leave_vs_fight(dataclasses.replace(bench, plan=()), spot, PLAYOUTS, 0)
    assert once is not None and once.leave == pair.leave or len(R.leave_moves(bench, spot.mask)) > 1
    if once is not None and once.leave == pair.leave:  # the two arms swap places on the same dice
        assert (once.value_leave, once.value_other) == (pair.value_other, pair.value_leave)
        assert once.value_fight == pair.value_fight


def test_cluster_ratio_resamples_encounters() -> None:
    rng = np.random.default_rng(0)
    same = R.cluster_ratio(np.array([1.0, 2.0, 0.0]), np.array([1.0, 2.0, 1.0]), rng)
    assert same["est"] == pytest.approx(0.75) and 0.0 <= same["low"] <= same["est"] <= same["high"] <= 1.0
    diff = R.cluster_ratio(np.ones(4), np.ones(4), rng, (np.zeros(4), np.ones(4)))
    assert diff == {"est": 1.0, "low": 1.0, "high": 1.0}
    assert R.cluster_ratio(np.zeros(3), np.zeros(3), rng)["est"] is None


def test_the_report_has_a_row_per_system(capsys: pytest.CaptureFixture[str]) -> None:
    systems = ["ose", "runequest", "mrq", "dicepool"]
    assert R.main(["--systems", *systems, "--encounters", "1", "--playouts", "2", "--json", "--quiet"]) == 0
    results = json.loads(capsys.readouterr().out)
    assert [r["system"] for r in results] == systems
    table = R.render(results).splitlines()
    for system in systems:
        assert sum(line.startswith(f"| {system} |") for line in table) == 1
    for r in results:
        if "error" not in r:
            assert r["fights"] == 1 and set(r["losing_share"]) == set(R.AGENTS)
            assert r["npc"] == "network" and r["played_through"]


def test_the_search_plays_side_0_when_asked(capsys: pytest.CaptureFixture[str]) -> None:
    assert R.main(["--systems", "ose", "--encounters", "1", "--playouts", "2", "--search", "2", "--leave-once",
                   "--json", "--quiet"]) == 0
    (result,) = json.loads(capsys.readouterr().out)
    assert result["npc"] == "search@2" and not result["played_through"]
    text = R.render([result])
    assert "side 0 played by search@2" in text and "played once" in text
    if result["states"]:
        assert "the leave move carried out instead" in text


@pytest.mark.parametrize(("args", "words"), [(["--search", "-1"], "--search: expected 0"),
                                             (["--survival-weight", "5"], "--survival-weight: expected"),
                                             (["--search-through"], "give --search N as well"),
                                             (["--survival-weight", "1"], "give --search N as well")])
def test_bad_search_settings_are_refused(capsys: pytest.CaptureFixture[str], args: list[str], words: str) -> None:
    with pytest.raises(SystemExit) as exc:
        R.main(["--systems", "ose", *args])
    assert exc.value.code == 2 and words in capsys.readouterr().err


def test_the_search_s_settings_reach_its_agents() -> None:
    bench = R.load_bench("ose", search=4, survival_weight=1.0, search_through=True)
    agent = bench.factory("network")(bench.engine, np.random.default_rng(0))
    assert isinstance(agent, SearchAgent) and agent.survival_weight == 1.0 and agent.leave_plan == bench.plan
    assert bench.npc_label == "search@4, life 1, leaving played through"
    assert R.load_bench("ose").npc_label == "network"
