"""play_fight on the fake system: paired seeds, determinism, records consistent with the events."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from npc_tactics.agents.resolve import agent_factory
from npc_tactics.dice import RngRoller
from npc_tactics.evaluation.arena import Arena, fight_seeds
from npc_tactics.evaluation.fight import (
    NO_RESULT,
    agent_rngs,
    event_result,
    find_profile,
    play_fight,
)
from npc_tactics.rules.base import Event, events_to_jsonl


@pytest.fixture
def arena(fake_system: str) -> Arena:
    return Arena.build(fake_system, "skirmish")


def _fight(arena: Arena, specs: list[str], seed: int, keep_events: bool = True):
    return arena.fight(
        [agent_factory(arena.system, s) for s in specs], seed, keep_events=keep_events
    )


def test_same_seed_same_agents_identical_record(arena: Arena) -> None:
    for seed in range(5):
        a = _fight(arena, ["random", "random"], seed)
        b = _fight(arena, ["random", "random"], seed)
        assert a.to_dict() == b.to_dict()
        assert events_to_jsonl(a.events) == events_to_jsonl(b.events)


def test_paired_seeds_share_the_dice_stream(arena: Arena) -> None:
    """The first roll of every fight comes from default_rng(seed), whoever plays."""
    first_rolls = {}
    for pair in (["brute", "random"], ["random", "brute"], ["brute", "brute"]):
        rec = _fight(arena, pair, 42)
        first_rolls[tuple(pair)] = next(e.data["faces"][0] for e in rec.events if e.kind == "roll")
    expected = RngRoller(np.random.default_rng(42)).die(20)  # the fight's first roll is its first d20
    assert set(first_rolls.values()) == {expected}


def test_agent_streams_independent_of_dice_and_per_side(arena: Arena) -> None:
    r0, r1 = agent_rngs(7, 2)
    again0, _ = agent_rngs(7, 2)
    assert r0.random() == again0.random()
    assert r0.bit_generator.state != r1.bit_generator.state
    assert agent_rngs(7, 2)[0].random() != np.random.default_rng(7).random()


def test_record_counts_match_events(arena: Arena) -> None:
    rec = _fight(arena, ["random", "brute"], 3)
    assert rec.events is not None
    assert sum(rec.event_counts.values()) == len(rec.events)
    attacks = [e for e in rec.events if e.kind == "attack"]
    assert sum(n for (s, k, r), n in rec.event_counts.items() if k == "attack") == len(attacks)
    assert sum(rec.decisions_per_side) == rec.decisions == sum(sum(a.values()) for a in rec.actions)
    assert rec.results[0] in ("win", "draw", "fled", "loss")
    assert rec.agents == ("random", "brute")
    assert [sum(s.values()) for s in rec.statuses] == [2, 2]
    # the fake system's tactics hook (tests/fakesys/tactics.py) ships a tactic profile
    assert set(rec.tactic_profile[0]) == {"attacks", "flees", "morale_breaks"}
    assert rec.tactic_profile[0]["attacks"] == sum(
        1 for e in attacks if rec.events and e.actor in (0, 1)
    )
    assert _fight(arena, ["random", "brute"], 3, keep_events=False).events is None


def test_profile_lookup_and_override(arena: Arena) -> None:
    assert find_profile(arena.engine) is not None
    agents = [
        f(arena.engine, rng)
        for f, rng in zip([agent_factory(arena.system, "brute")] * 2, agent_rngs(1, 2), strict=True)
    ]
    rec = play_fight(
        arena.engine,
        arena.encoder,
        arena.scenario,
        agents,
        1,
        profile=lambda events, state, side: {"side": side},
    )
    assert rec.tactic_profile == ({"side": 0}, {"side": 1})


def test_play_fight_checks_agent_count(arena: Arena) -> None:
    with pytest.raises(ValueError, match="one agent per side"):
        play_fight(arena.engine, arena.encoder, arena.scenario, [], 0)


def test_event_result_rules() -> None:
    assert event_result(Event("attack", 1, 0, 1, {"result": "natural_20"})) == "natural_20"
    assert event_result(Event("save", 1, 0, None, {"result": True})) == "success"
    assert event_result(Event("morale", 1, 0, None, {"passed": False})) == "failed"
    assert event_result(Event("missile", 1, 0, 1, {"hit": True})) == "hit"
    assert event_result(Event("roll", 1, 0, None, {"why": "x"})) == NO_RESULT


def test_fight_seeds() -> None:
    assert fight_seeds(10, 3) == [10, 11, 12]
    with pytest.raises(ValueError, match="at least 1"):
        fight_seeds(0, 0)
    with pytest.raises(ValueError, match="non-negative"):
        fight_seeds(-1, 2)


def test_results_vary_across_seeds(arena: Arena) -> None:
    results = Counter(
        _fight(arena, ["random", "random"], s, keep_events=False).results[0] for s in range(40)
    )
    assert len(results) >= 2
