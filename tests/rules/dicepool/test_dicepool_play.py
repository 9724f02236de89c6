"""Random-legal fuzzing, determinism, scripted agents, encoder and tactic profile of the dice-pool system."""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from npc_tactics.agents.base import Observation, RandomLegalAgent
from npc_tactics.dice import RngRoller
from npc_tactics.rules.base import DecisionKind, Status, events_to_jsonl
from npc_tactics.systems.dicepool.agents import AGENTS
from npc_tactics.systems.dicepool.encoder import DicePoolEncoder
from npc_tactics.systems.dicepool.rules import actions as A
from npc_tactics.systems.dicepool.rules.content import list_scenarios, load_scenario
from npc_tactics.systems.dicepool.rules.engine import DicePoolEngine
from npc_tactics.systems.dicepool.rules.profile import tactic_profile

ENGINE = DicePoolEngine()
SCENARIOS = {name: load_scenario(name) for name, _ in list_scenarios()}


def play(scenario, seed: int, agents=None, check: bool = False):
    roller = RngRoller(seed)
    rng = np.random.default_rng(seed + 7)
    state, _ = ENGINE.new_combat(scenario, roller)
    log = []
    decisions = 0
    while ENGINE.outcome(state) is None:
        d = ENGINE.pending(state)
        mask = ENGINE.legal_mask(state, d)
        if check:
            assert mask.dtype == np.bool_ and mask.shape == (len(ENGINE.catalogue),) and mask.any()
            assert state.combatants[d.actor].status == Status.ACTIVE
            assert d.kind in (DecisionKind.ACT, DecisionKind.SPLIT, DecisionKind.OPTION)
        if agents is None:
            legal = np.flatnonzero(mask)
            action = int(legal[rng.integers(len(legal))])
        else:
            action = agents[d.side].act(Observation(np.zeros(1), state, d, ENGINE), mask)
            assert mask[action]
        state, events = ENGINE.step(state, action, roller, inplace=True)
        log.extend(events)
        decisions += 1
        if check:
            for c in state.combatants:
                assert 0 <= c.hp <= c.max_hp
                assert all(h <= m for h, m in zip(c.loc_hp, c.loc_max, strict=True))
            assert state.round <= state.max_rounds
        assert decisions < 5000
    if check:
        assert ENGINE.legal_mask(state).all()
        assert ENGINE.pending(state) is None
    return state, log


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31 - 1), name=st.sampled_from(sorted(SCENARIOS)))
def test_random_legal_play_keeps_invariants(seed, name):
    state, log = play(SCENARIOS[name], seed, check=True)
    out = ENGINE.outcome(state)
    assert out.rounds <= state.max_rounds and len(out.results) == 2
    for e in log:
        if e.kind == "damage":
            assert e.data["amount"] >= 0 and e.actor is not None and e.target is not None
        if e.kind in ("attack", "status", "split", "initiative", "action"):
            assert isinstance(e.data["result"], str)


def test_same_seed_same_fight():
    for name in ("melee_duel", "skirmish_2v3"):
        a = events_to_jsonl(play(SCENARIOS[name], 11)[1])
        b = events_to_jsonl(play(SCENARIOS[name], 11)[1])
        assert a == b and a


def test_step_without_inplace_leaves_state_untouched():
    roller = RngRoller(3)
    state, _ = ENGINE.new_combat(SCENARIOS["melee_duel"], roller)
    before = ENGINE.describe(state)
    legal = np.flatnonzero(ENGINE.legal_mask(state))
    new, _ = ENGINE.step(state, int(legal[0]), roller)
    assert ENGINE.describe(state) == before and new is not state


def test_scripted_agents_are_legal_everywhere():
    entries = dict(AGENTS)
    assert set(entries) == {"aggressive", "by-the-book", "cautious"}
    for sc in SCENARIOS.values():
        for i, (a, b) in enumerate(
            [("aggressive", "cautious"), ("by-the-book", "aggressive"), ("cautious", "by-the-book")]
        ):
            agents = [
                entries[a].factory(ENGINE, np.random.default_rng(i)),
                entries[b].factory(ENGINE, np.random.default_rng(i + 1)),
            ]
            play(sc, i, agents)


def test_split_choices_of_scripted_agents():
    roller = RngRoller(0)
    state, _ = ENGINE.new_combat(SCENARIOS["melee_duel"], roller)
    actor = ENGINE.pending(state).actor
    state, _ = ENGINE.step(state, ENGINE.catalogue.index("strike:enemy_0"), roller)
    d = ENGINE.pending(state)
    obs = Observation(np.zeros(1), state, d, ENGINE)
    mask = ENGINE.legal_mask(state)
    rng = np.random.default_rng(0)
    picks = {n: AGENTS[n].factory(ENGINE, rng).act(obs, mask) - A.SPLIT for n in AGENTS}
    assert picks["aggressive"] == 0
    assert picks["cautious"] == d.context["pool"] // 2
    assert state.combatants[actor].status == Status.ACTIVE


def test_by_the_book_aims_then_shoots():
    agents = [
        AGENTS["by-the-book"].factory(ENGINE, np.random.default_rng(0)),
        RandomLegalAgent(ENGINE, np.random.default_rng(1)),
    ]
    state, log = play(SCENARIOS["shootout"], 5, agents)
    prof = tactic_profile(log, state, 0)
    assert prof["aims"] > 0 and prof["shots"] > 0 and prof["posture_changes"] > 0
    assert prof["actions"] >= prof["game_turns"] > 0


def test_profile_counts_splits_by_situation():
    state, log = play(SCENARIOS["melee_duel"], 2)
    prof = tactic_profile(log, state, 0)
    splits = sum(prof[f"splits_{k}"] for k in ("self", "ally", "enemy", "new_turn"))
    assert splits == sum(
        1 for e in log if e.kind == "split" and state.combatants[e.actor].side == 0
    )


def test_encoder_layout_and_range():
    enc = DicePoolEncoder(ENGINE)
    assert len(enc.fields) == enc.size
    names = [f.name for f in enc.fields]
    assert "context.next_enemy" in names and "enemy_5.p_hit_shot" in names
    for sc in SCENARIOS.values():
        roller = RngRoller(1)
        rng = np.random.default_rng(1)
        state, _ = ENGINE.new_combat(sc, roller)
        for _ in range(60):
            d = ENGINE.pending(state)
            if d is None:
                break
            v = enc.encode(state, d)
            assert v.dtype == np.float32 and v.shape == (enc.size,) and np.all(np.abs(v) <= 1)
            assert v[ENGINE.spec.decision_kinds.index(d.kind)] == 1.0  # over this system's kinds
            legal = np.flatnonzero(ENGINE.legal_mask(state))
            state, _ = ENGINE.step(
                state, int(legal[rng.integers(len(legal))]), roller, inplace=True
            )


def test_catalogue_matches_spec():
    assert ENGINE.spec.num_actions == len(ENGINE.catalogue) == A.N_ACTIONS
    assert ENGINE.spec.max_per_side <= 6
    assert set(ENGINE.spec.default_options) == set(DicePoolEngine.spec.default_options)
