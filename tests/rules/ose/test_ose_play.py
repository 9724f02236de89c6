"""Random-legal play, invariants, determinism, illegal actions, agents, encoder and tactic profile."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from npc_tactics.agents.base import Observation, RandomLegalAgent
from npc_tactics.dice import RngRoller
from npc_tactics.rules.base import IllegalActionError, Status, events_to_jsonl
from npc_tactics.systems.ose.agents import AGENTS
from npc_tactics.systems.ose.encoder import OSEEncoder
from npc_tactics.systems.ose.rules.content import list_scenarios, load_scenario
from npc_tactics.systems.ose.rules.engine import OSEEngine
from npc_tactics.systems.ose.rules.profile import tactic_profile

SCENARIOS = [n for n, _ in list_scenarios()]
OPTION_SETS = [
    {},
    {"ac_mode": "ascending", "tie_mode": "reroll"},
    {"individual_initiative": True},
    {"morale": False, "variable_weapon_damage": True, "shoot_when_engaged": True},
]


def play(engine: OSEEngine, scenario: str, seed: int, agents=None, check: bool = True):
    sc = load_scenario(scenario)
    roller = RngRoller(np.random.default_rng(seed))
    state, events = engine.new_combat(sc, roller)
    rng = np.random.default_rng(seed + 1)
    agents = agents or [RandomLegalAgent(engine, rng), RandomLegalAgent(engine, rng)]
    enc = OSEEncoder(engine)
    steps = 0
    while (d := engine.pending(state)) is not None:
        mask = engine.legal_mask(state, d)
        if check:
            assert mask.dtype == np.bool_ and mask.shape == (len(engine.catalogue),) and mask.any()
            assert state.combatants[d.actor].status == Status.ACTIVE
            assert all(c.hp <= c.max_hp for c in state.combatants)
            assert state.round <= sc.max_rounds
            vec = enc.encode(state, d)
            assert vec.shape == (enc.size,) and np.all(np.abs(vec) <= 1.0)
        action = agents[d.side].act(Observation(np.zeros(1), state, d, engine), mask)
        assert mask[action]
        state, ev = engine.step(state, action, roller, inplace=True)
        events += ev
        steps += 1
        assert steps < 5000
    out = engine.outcome(state)
    assert out is not None and out.rounds <= sc.max_rounds
    assert engine.legal_mask(state).all()
    return state, events, out


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    scenario=st.sampled_from(SCENARIOS),
    opts=st.sampled_from(OPTION_SETS),
)
def test_random_play_keeps_invariants(seed: int, scenario: str, opts: dict) -> None:
    play(OSEEngine(opts), scenario, seed)


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_same_seed_same_log(scenario: str) -> None:
    a = events_to_jsonl(play(OSEEngine(), scenario, 7, check=False)[1])
    b = events_to_jsonl(play(OSEEngine(), scenario, 7, check=False)[1])
    assert a == b and "round_start" in a


def test_illegal_action_names_action_and_decision() -> None:
    eng = OSEEngine()
    state, _ = eng.new_combat(load_scenario("goblin_duel"), RngRoller(0))
    melee = eng.catalogue.index("melee:enemy_0")
    with pytest.raises(IllegalActionError, match=r"melee:enemy_0.*ACT decision of combatant"):
        eng.step(state, melee, RngRoller(0))


def test_step_does_not_touch_callers_state() -> None:
    eng = OSEEngine()
    state, _ = eng.new_combat(load_scenario("goblin_band"), RngRoller(3))
    before = eng.describe(state)
    legal = np.flatnonzero(eng.legal_mask(state))
    eng.step(state, int(legal[-1]), RngRoller(4))
    assert eng.describe(state) == before


@pytest.mark.parametrize("scenario", SCENARIOS)
@pytest.mark.parametrize("name", sorted(AGENTS))
def test_scripted_agents_play_legally(scenario: str, name: str) -> None:
    eng = OSEEngine()
    for seed in range(3):
        agents = [
            AGENTS[name].factory(eng, np.random.default_rng(seed)),
            AGENTS["by-the-book"].factory(eng, np.random.default_rng(seed + 9)),
        ]
        play(eng, scenario, seed, agents, check=False)


def test_keeping_range_beats_by_the_book_in_goblin_duel() -> None:
    """The default scenario rewards tactics: a goblin that steps back and shoots (the cautious agent)
    beats the by-the-book fighter far more often than a by-the-book goblin does."""
    eng = OSEEngine()
    wins = {"cautious": 0, "by-the-book": 0}
    for name in wins:
        for seed in range(60):
            agents = [
                AGENTS[name].factory(eng, np.random.default_rng(seed)),
                AGENTS["by-the-book"].factory(eng, np.random.default_rng(seed + 1000)),
            ]
            out = play(eng, "goblin_duel", seed, agents, check=False)[2]
            wins[name] += out.winner == 0
    assert wins["cautious"] / 60 >= 0.8 and wins["by-the-book"] / 60 <= 0.6


def test_tactic_profile_counts() -> None:
    eng = OSEEngine()
    state, events, _ = play(eng, "losing_band", 5, check=False)
    prof = tactic_profile(events, state, 0)
    assert set(prof) >= {
        "withdrawals",
        "retreats",
        "spells_cast",
        "spells_disrupted",
        "morale_failed",
        "missile_attacks",
        "melee_attacks",
        "fled",
    }
    fled = sum(1 for c in state.combatants if c.side == 0 and c.status == Status.FLED)
    assert prof["fled"] == fled


def test_encoder_fields_documented() -> None:
    enc = OSEEncoder(OSEEngine())
    assert len(enc.fields) == enc.size and all(f.description for f in enc.fields)
