"""Paired fights on held-out encounters (npc_tactics.evaluation.generalist)."""

from __future__ import annotations

from npc_tactics.agents.resolve import agent_factory
from npc_tactics.encounters.heldout import load_heldout
from npc_tactics.evaluation.generalist import fight_seed, figures, play_encounters


def test_same_agents_same_seeds_same_fights_and_consistent_figures() -> None:
    encs = load_heldout("ose")[:6]
    book, rnd = agent_factory("ose", "by-the-book"), agent_factory("ose", "random")
    a = play_encounters("ose", encs, book, book, 3)
    b = play_encounters("ose", encs, book, book, 3)
    assert [r.to_dict() for r in a] == [r.to_dict() for r in b]
    assert [r.seed for r in a] == [fight_seed(i, k) for i in range(6) for k in range(3)]
    c = play_encounters("ose", encs, rnd, book, 3)
    assert [r.seed for r in c] == [r.seed for r in a]  # paired: the other agent meets the same fights and dice
    f = figures("book", "book", a)
    assert f.fights == 18 and f.wins + f.not_won == 18
    assert f.wins == sum(r.results[0] == "win" for r in a)
    assert 0 <= f.fled_alive_when_not_won <= f.not_won
    lo, hi = f.win_ci
    assert lo <= f.win_rate <= hi
