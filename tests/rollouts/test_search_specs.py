"""``search:POLICY[@BUDGET]`` is an agent spec in the rollouts too: the probe, the odds and fight jobs built from
specs (rollouts.agents) take it, as ``simulate``, ``evaluate`` and ``suggest`` do (agents.resolve). Before, the
rollouts' own reader refused it ("unknown agent 'search:...'"), so ``npc-tactics probe search:...`` failed."""

from __future__ import annotations

import pytest

from npc_tactics.agents.search import SearchAgent
from npc_tactics.errors import ConfigError, UnknownNameError
from npc_tactics.probes.run import run_probe_file
from npc_tactics.probes.spec import load_probe_file, probe_files
from npc_tactics.registry import get_system
from npc_tactics.rollouts import run_fights
from npc_tactics.rollouts.agents import agent_builder, check_spec

SEARCH = "search:by-the-book@4"


def test_a_search_over_a_scripted_agent_is_a_valid_spec_built_per_rollout() -> None:
    import numpy as np

    ose = get_system("ose")
    check_spec(ose, SEARCH)
    build = agent_builder(ose, SEARCH)
    engine = ose.make_engine()
    one, two = build(engine, np.random.default_rng(1)), build(engine, np.random.default_rng(1))
    assert isinstance(one, SearchAgent) and one is not two  # seeded per rollout, as a scripted agent


@pytest.mark.parametrize(("spec", "error", "says"), [
    ("search:nobody", UnknownNameError, "unknown agent 'nobody'"),
    ("search:search:by-the-book", ConfigError, "a search cannot search over another search"),
    ("search:by-the-book@0", ConfigError, "expected a whole number of play-outs, at least 1"),
    ("search:", ConfigError, "expected search:POLICY[@BUDGET]"),
])
def test_a_bad_search_spec_is_refused_in_one_line(spec: str, error: type[Exception], says: str) -> None:
    with pytest.raises(error) as info:
        check_spec(get_system("ose"), spec)
    assert says in str(info.value) and "\n" not in str(info.value)


def test_fights_with_a_search_agent_depend_only_on_their_seeds() -> None:
    ose = get_system("ose")
    agents = [SEARCH, "by-the-book"]
    seeds = list(range(5))
    one = run_fights("ose", ose.default_scenario, agents, seeds, k=1, workers=1)
    wide = run_fights("ose", ose.default_scenario, agents, seeds, k=5, workers=2)
    assert [(r.seed, r.results, r.rounds, r.decisions) for r in one] == [
        (r.seed, r.results, r.rounds, r.decisions) for r in wide]


def test_the_probe_runs_a_search_agent() -> None:
    [path] = probe_files(["ose"])
    results = run_probe_file(load_probe_file(path), SEARCH, rollouts=8, workers=1)
    assert results and all(r.choice is not None for r in results)
