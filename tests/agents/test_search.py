"""The search agent (``search:POLICY[@BUDGET]``): resolves and plays whole fights, deterministic for a seed, one
legal move unsearched, common random numbers across moves, the policy's move kept under an unbeatable margin,
and one-line errors for bad specs."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from npc_tactics.agents.resolve import agent_factory, agent_label, parse_search_spec, resolve_agent, trained_side
from npc_tactics.agents.search import SearchAgent, search_factory
from npc_tactics.dice import RngRoller
from npc_tactics.errors import ConfigError, UnknownNameError
from npc_tactics.evaluation.generalist import play_encounters
from npc_tactics.evaluation.simulate import simulate
from npc_tactics.policy_io.agent import Observation
from npc_tactics.registry import get_system
from npc_tactics.rules.base import Decision
from npc_tactics.systems.ose.rules.content import load_scenario
from npc_tactics.systems.ose.rules.engine import OSEEngine

ROOT = Path(__file__).resolve().parents[2]
OSE = str(ROOT / "npc_tactics" / "policies" / "ose")
BOOK = agent_factory("ose", "by-the-book")


def _opening(scenario: str = "goblin_band") -> tuple[OSEEngine, Any, Decision]:
    engine = OSEEngine()
    state, _ = engine.new_combat(load_scenario(scenario), RngRoller(np.random.default_rng(3)))
    decision = engine.pending(state)
    assert decision is not None
    return engine, state, decision


def _searcher(engine: OSEEngine, seed: int = 0, **kw: object) -> SearchAgent:
    return SearchAgent(engine, np.random.default_rng(seed), policy=agent_factory("ose", OSE), opponent=BOOK,
                       **{"budget": 8, **kw})  # type: ignore[arg-type]


def test_the_spec_resolves_and_plays_whole_fights_through_evaluate_deterministically() -> None:
    spec = f"search:{OSE}@4"
    assert isinstance(resolve_agent(get_system("ose"), spec, OSEEngine(), np.random.default_rng(0)), SearchAgent)
    first = simulate("ose", "goblin_duel", [spec, "by-the-book"], 3, seed=5)
    assert first["fights"] == 3 and first["agents"] == ["search:ose@4", "by-the-book"]
    assert simulate("ose", "goblin_duel", [spec, "by-the-book"], 3, seed=5) == first


def test_same_seed_same_fights_and_the_budget_is_spent() -> None:
    built: list[SearchAgent] = []

    def factory(engine: object, rng: np.random.Generator) -> SearchAgent:
        agent = agent_factory("ose", f"search:{OSE}@6")(engine, rng)  # type: ignore[arg-type]
        assert isinstance(agent, SearchAgent)
        built.append(agent)
        return agent

    runs = [play_encounters(get_system("ose"), [load_scenario("goblin_band")], factory, BOOK, 2) for _ in range(2)]
    assert [(r.results, r.rounds, r.decisions) for r in runs[0]] == [(r.results, r.rounds, r.decisions)
                                                                     for r in runs[1]]
    searched = [a for a in built if a.timings]
    assert searched and all(a.playouts >= 6 * len(a.timings) for a in searched)


def test_an_unbeatable_margin_plays_the_policy_s_own_fights() -> None:
    scenario = load_scenario("goblin_band")
    never = search_factory(agent_factory("ose", OSE), BOOK, budget=4, margin=1.25)
    searched = play_encounters(get_system("ose"), [scenario], never, BOOK, 3)
    alone = play_encounters(get_system("ose"), [scenario], agent_factory("ose", OSE), BOOK, 3)
    assert [(r.results, r.rounds, r.decisions) for r in searched] == [(r.results, r.rounds, r.decisions)
                                                                      for r in alone]


def test_one_legal_move_is_played_without_search() -> None:
    engine, state, decision = _opening()
    only = np.zeros(len(engine.catalogue), dtype=bool)
    only[int(np.flatnonzero(engine.legal_mask(state, decision))[-1])] = True
    agent = _searcher(engine)
    encoder = agent.encoder
    assert agent.act(Observation(None, state, decision, engine, encoder), only) == int(np.flatnonzero(only)[0])
    assert agent.playouts == 0 and agent.timings == []


def test_common_random_numbers_give_the_same_action_the_same_values_and_leave_the_state_alone() -> None:
    engine, state, decision = _opening()
    mask = engine.legal_mask(state, decision)
    legal = [int(a) for a in np.flatnonzero(mask)]
    assert len(legal) > 1
    before = copy.deepcopy(state)
    agent = _searcher(engine)
    values = agent.playout_values(state, decision, mask, [legal[0], legal[1], legal[0]], range(6), seed=11)
    assert values.shape == (3, 6) and np.array_equal(values[0], values[2])
    assert set(np.unique(values)) <= {0.0, 0.25, 0.5, 0.75, 1.0, 1.25}
    # play-out k keeps its dice whatever else is played beside it
    assert np.array_equal(agent.playout_values(state, decision, mask, [legal[0]], range(3, 6), seed=11)[0],
                          values[0, 3:])
    assert state == before


def test_rank_lists_the_move_act_plays_first_within_the_budget() -> None:
    engine, state, decision = _opening()
    mask = engine.legal_mask(state, decision)
    agent = _searcher(engine, budget=16)
    ranking = agent.rank(state, decision, seed=7)
    choice, again = agent.search(Observation(None, state, decision, engine, agent.encoder), mask, 7)
    assert ranking == again and ranking[0].move == choice
    assert len({r.move for r in ranking}) == len(ranking) and all(mask[r.move] for r in ranking)
    assert all(r.n >= 1 and 0.0 <= r.value <= 1.25 for r in ranking)
    assert len(ranking) <= agent.top_k + 1


def test_a_scripted_policy_searches_every_legal_move() -> None:
    engine, state, decision = _opening()
    agent = SearchAgent(engine, np.random.default_rng(0), policy=BOOK, opponent=BOOK, budget=4)
    ranking = agent.rank(state, decision, seed=1)
    assert sorted(r.move for r in ranking) == [int(a) for a in np.flatnonzero(engine.legal_mask(state, decision))]


def test_labels_and_sides() -> None:
    assert parse_search_spec(f"search:{OSE}@32") == (OSE, 32)
    assert parse_search_spec("search:by-the-book") == ("by-the-book", None)
    assert agent_label(f"search:{OSE}@32") == "search:ose@32" and agent_label("search:cautious") == "search:cautious"
    assert trained_side(f"search:{OSE}") == trained_side(OSE) == 0
    assert trained_side("search:by-the-book") is None


@pytest.mark.parametrize(("spec", "error", "words"), [
    ("search:", ConfigError, "expected search:POLICY"),
    (f"search:{OSE}@0", ConfigError, "budget: expected a whole number"),
    (f"search:{OSE}@many", ConfigError, "budget: expected a whole number"),
    (f"search:{OSE}@-3", ConfigError, "budget: expected a whole number"),
    ("search:search:by-the-book", ConfigError, "cannot search over another search"),
    ("search:nosuch", UnknownNameError, "nosuch"),
    ("search:/no/such/run@4", ConfigError, "run directory not found"),
])
def test_bad_specs_raise_one_line_errors(spec: str, error: type[Exception], words: str) -> None:
    with pytest.raises(error, match=words) as caught:
        agent_factory("ose", spec)
    assert "\n" not in str(caught.value)
    with pytest.raises(error):
        resolve_agent(get_system("ose"), spec, OSEEngine(), np.random.default_rng(0))


def test_bad_settings_are_refused() -> None:
    engine = OSEEngine()
    for kw, word in [({"budget": 0}, "budget"), ({"top_k": 0}, "top_k"), ({"margin": 2.0}, "margin")]:
        with pytest.raises(ValueError, match=word):
            SearchAgent(engine, np.random.default_rng(0), policy=BOOK, opponent=BOOK, **kw)  # type: ignore[arg-type]


def test_the_benchmark_quick_run_keeps_its_schema() -> None:
    proc = subprocess.run([sys.executable, "benchmarks/search_strength.py", "--quick", "--json"], cwd=ROOT,
                          capture_output=True, text=True, check=True)
    (out,) = json.loads(proc.stdout)
    assert out["system"] == "ose" and out["fights"] == 2 and set(out["rows"]) == {"network", "search", "by-the-book"}
    assert set(out["gains"]) == {"search_over_network", "search_over_book", "network_over_book"}
    for row in out["rows"].values():
        assert row["wilson"][0] <= row["win_rate"] <= row["wilson"][1]
    assert out["search"]["decisions"] > 0 and out["search"]["playouts_per_s"] > 0
    assert 0 < out["search"]["latency_p50_s"] <= out["search"]["latency_p95_s"]


def test_the_benchmark_records_chunks_and_a_rerun_reuses_them(tmp_path: Path) -> None:
    """A stopped run loses only its unfinished chunk: each finished one is one JSON line, a rerun with the same
    settings plays none of them again and says the same, and a line cut short is skipped."""
    record = tmp_path / "search.jsonl"
    cmd = [sys.executable, "benchmarks/search_strength.py", "--quick", "--json", "--record", str(record)]
    first = json.loads(subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=True).stdout)
    lines = record.read_text().splitlines()
    assert sorted(json.loads(line)["settings"]["row"] for line in lines) == ["by-the-book", "network", "search"]
    record.write_text("\n".join(lines) + '\n{"settings": {"row": "sea')
    again = json.loads(subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=True).stdout)
    assert again[0]["rows"] == first[0]["rows"] and again[0]["gains"] == first[0]["gains"]
    assert again[0]["search"]["playouts"] == first[0]["search"]["playouts"]
    assert record.read_text().splitlines()[:3] == lines and len(record.read_text().splitlines()) == 4
    record.write_text("\n".join(lines[:2]) + '\n{"settings": {"row": "sea')  # one chunk lost mid-line
    subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=True)
    kept = record.read_text().splitlines()
    replayed = json.loads(kept[3])["settings"]["row"]
    assert len(kept) == 4 and kept[:2] == lines[:2] and replayed == json.loads(lines[2])["settings"]["row"]


def test_a_gain_within_the_noise_does_not_overrule_the_policy() -> None:
    """The paired test: a move ahead by more than the margin on a few noisy play-outs is not played, the same
    gain on many consistent ones is (z = 0 keeps the margin alone)."""
    agent = _searcher(OSEEngine())
    noisy_best, noisy_own = [1.25, 0.0, 1.25, 0.0], [0.0, 1.25, 0.0, 0.25]
    assert np.mean(noisy_best) - np.mean(noisy_own) > agent.margin
    assert not agent._clearly_better(noisy_best, noisy_own)
    assert agent._clearly_better([1.0] * 12 + [0.0] * 4, [0.5] * 12 + [0.0] * 4)
    loose = _searcher(OSEEngine(), z=0.0)
    assert loose._clearly_better(noisy_best, noisy_own)
