"""The lookahead search agent: legal moves, its play-outs' values, the margin, and a plan by-the-book misses."""

from __future__ import annotations

import copy

import numpy as np
import pytest

from npc_tactics.agents.lookahead import LookaheadAgent, lookahead_factory
from npc_tactics.agents.resolve import agent_factory
from npc_tactics.dice import RngRoller
from npc_tactics.evaluation.generalist import play_encounters
from npc_tactics.policy_io.agent import Observation
from npc_tactics.registry import get_system
from npc_tactics.systems.ose.rules.content import load_scenario
from npc_tactics.systems.ose.rules.engine import OSEEngine

BOOK = agent_factory("ose", "by-the-book")


def _opening() -> tuple[OSEEngine, object]:
    engine = OSEEngine()
    state, _ = engine.new_combat(load_scenario("goblin_duel"), RngRoller(np.random.default_rng(3)))
    return engine, state


def test_values_are_won_fractions_of_every_legal_move_and_leave_the_state_alone() -> None:
    engine, state = _opening()
    decision = engine.pending(state)
    assert decision is not None
    mask = engine.legal_mask(state, decision)
    before = copy.deepcopy(state)
    agent = LookaheadAgent(engine, np.random.default_rng(0), base=BOOK, rollouts=8)
    values = agent.values(state, decision, mask, seed=11)
    assert sorted(values) == [int(a) for a in np.flatnonzero(mask)]
    assert all(v * 8 == int(v * 8) and 0.0 <= v <= 1.0 for v in values.values())
    assert values == agent.values(state, decision, mask, seed=11)  # common random numbers: same seed, same values
    assert state == before


def test_an_unbeatable_margin_plays_by_the_book_s_own_fights() -> None:
    goblin_duel = load_scenario("goblin_duel")
    never = lookahead_factory(BOOK, rollouts=2, margin=1.0)
    searched = play_encounters(get_system("ose"), [goblin_duel], never, BOOK, 4)
    book = play_encounters(get_system("ose"), [goblin_duel], BOOK, BOOK, 4)
    assert [(r.results, r.rounds, r.decisions) for r in searched] == [(r.results, r.rounds, r.decisions) for r in book]


def test_searching_with_the_cautious_plan_finds_the_kiting_by_the_book_misses() -> None:
    """goblin_duel: a goblin archer that steps back and shoots is never caught (the scenario's comment);
    by-the-book stands and shoots until engaged and wins about a quarter of the fights."""
    goblin_duel = load_scenario("goblin_duel")
    search = lookahead_factory(BOOK, rollouts=8, plans=[agent_factory("ose", "cautious")])
    searched = sum(r.results[0] == "win" for r in play_encounters(get_system("ose"), [goblin_duel], search, BOOK, 10))
    book = sum(r.results[0] == "win" for r in play_encounters(get_system("ose"), [goblin_duel], BOOK, BOOK, 10))
    assert searched >= 8 and book <= 5


def test_acts_legally_with_one_legal_move_and_refuses_bad_settings() -> None:
    engine, state = _opening()
    decision = engine.pending(state)
    assert decision is not None
    only = np.zeros(len(engine.catalogue), dtype=bool)
    only[int(np.flatnonzero(engine.legal_mask(state, decision))[0])] = True
    agent = LookaheadAgent(engine, np.random.default_rng(0), base=BOOK, rollouts=4)
    assert agent.act(Observation(np.zeros(1), state, decision, engine), only) == int(np.flatnonzero(only)[0])
    with pytest.raises(ValueError, match="rollouts"):
        LookaheadAgent(engine, np.random.default_rng(0), base=BOOK, rollouts=0)
    with pytest.raises(ValueError, match="margin"):
        LookaheadAgent(engine, np.random.default_rng(0), base=BOOK, margin=1.5)
