"""Paired fights on held-out encounters (npc_tactics.evaluation.generalist)."""

from __future__ import annotations

from npc_tactics.agents.resolve import agent_factory
from npc_tactics.encounters.heldout import load_heldout
from npc_tactics.evaluation.generalist import encounter_bootstrap, fight_seed, figures, play_encounters
from npc_tactics.registry import get_system


def test_same_agents_same_seeds_same_fights_and_consistent_figures() -> None:
    encs = load_heldout("ose")[:6]
    book, rnd = agent_factory("ose", "by-the-book"), agent_factory("ose", "random")
    a = play_encounters(get_system("ose"), encs, book, book, 3)
    b = play_encounters(get_system("ose"), encs, book, book, 3)
    assert [r.to_dict() for r in a] == [r.to_dict() for r in b]
    assert [r.seed for r in a] == [fight_seed(i, k) for i in range(6) for k in range(3)]
    c = play_encounters(get_system("ose"), encs, rnd, book, 3)
    assert [r.seed for r in c] == [r.seed for r in a]  # paired: the other agent meets the same fights and dice
    f = figures("book", "book", a)
    assert f.fights == 18 and f.wins + f.not_won == 18
    assert f.wins == sum(r.results[0] == "win" for r in a)
    assert 0 <= f.fled_alive_when_not_won <= f.not_won
    lo, hi = f.win_ci
    assert lo <= f.win_rate <= hi


def test_encounter_bootstrap_resamples_whole_encounters() -> None:
    import numpy as np
    import pytest

    # 50 encounters always won, 50 never: the dice add nothing, the encounters decide
    wins = [True] * 500 + [False] * 500
    boot = encounter_bootstrap(wins, 10, [False] * 1000)
    assert boot["rate"] == 0.5 and boot["diff"] == 0.5
    assert boot["low"] < 0.42 and boot["high"] > 0.58  # ~ +-0.1, far wider than Wilson on 1,000 fights (+-0.03)
    assert boot["diff_low"] == boot["low"] and boot["diff_high"] == boot["high"]
    same = encounter_bootstrap(wins, 10, wins)
    assert same["diff"] == same["diff_low"] == same["diff_high"] == 0.0  # paired: no difference, no spread
    # every encounter a coin flip over its seeds: no encounter-to-encounter spread beyond the dice
    flat = encounter_bootstrap(list(np.tile([True] * 5 + [False] * 5, 100)), 10)
    assert flat["low"] == flat["high"] == 0.5
    with pytest.raises(ValueError, match="do not split"):
        encounter_bootstrap([True] * 15, 10)
    with pytest.raises(ValueError, match="baseline"):
        encounter_bootstrap([True] * 20, 10, [True] * 10)
