"""MRQ engine protocol: round structure, masks, illegal actions, determinism, random-legal invariants."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from npc_tactics.dice import RngRoller
from npc_tactics.rules.base import DecisionKind, IllegalActionError, Status, events_to_jsonl
from npc_tactics.systems.mrq.rules import exchange as X
from npc_tactics.systems.mrq.rules.actions import IDX, N_ACTIONS, TARGETED
from npc_tactics.systems.mrq.rules.content import list_scenarios, load_scenario
from npc_tactics.systems.mrq.rules.engine import MRQEngine
from npc_tactics.systems.mrq.rules.profile import tactic_profile
from tests.rules.mrq.helpers import duel, sink

ENGINE = MRQEngine()
SCENARIOS = {name: load_scenario(name) for name, _ in list_scenarios()}


def test_spec_and_catalogue() -> None:
    assert ENGINE.spec.num_actions == len(ENGINE.catalogue) == N_ACTIONS
    assert ENGINE.spec.max_per_side <= 6 and ENGINE.spec.name == "mrq"
    names = ENGINE.catalogue.names
    assert "attack:enemy_0" in names and "choose_location:head" in names and "change_distance:apart" in names


def test_round_structure_strike_rank_order_and_reactions() -> None:
    eng, s0 = duel("sword_and_shield", "duellist")
    eng.new_round(s0, sink(1, 10))  # SR: A (12+12)/2+1 = 13, D (16+13)/2+10 = 24
    a, d = s0.combatants
    assert s0.order == [1, 0]
    assert (a.cas, a.reactions) == (2, 3)  # DEX 12: 2 CAs, +1 Reaction for the shield
    assert (d.cas, d.free_attack, d.reactions) == (
        4,
        True,
        3,
    )  # DEX 16: 3 CAs + free two-weapon attack
    eng.advance(s0, sink(*([50] * 10)))
    assert s0.decision.actor == 1 and s0.decision.kind == DecisionKind.ACT


def test_free_attack_allows_only_attacks() -> None:
    eng, s0 = duel("duellist", "swordsman")
    opts = eng.act_options(s0, 0, free_attack=True)
    assert set(opts) <= {IDX["hold"], TARGETED["attack"][0], TARGETED["precise_attack"][0]}


def test_reach_rules_house_option() -> None:
    """Spear (long) vs sword (medium) under ``reach_rule: house``::

    long:  Spear -- Sword     only the spear strikes; the sword may close (Acrobatics, A13)
    close: Spear-Sword        only the sword strikes; the spear may step back
    """
    eng, s0 = duel("spearman", "swordsman", {"reach_rule": "house"})
    assert TARGETED["attack"][0] in eng.act_options(s0, 0)
    assert TARGETED["attack"][0] not in eng.act_options(s0, 1)
    assert TARGETED["close"][0] in eng.act_options(s0, 1)
    s0.set_distance(0, 1, 2)
    assert TARGETED["attack"][0] in eng.act_options(s0, 1)
    assert TARGETED["step_back"][0] in eng.act_options(s0, 0)


def test_close_manoeuvre_is_acrobatics_vs_weapon_skill() -> None:
    eng, s0 = duel("spearman", "swordsman", {"reach_rule": "house"})
    s = sink(80, 20)  # spear (attacker of the test) fails, sword's Acrobatics 20 ≤ 45 succeeds
    eng._act(s0, s, 1, "close", 0)
    assert s0.decision.kind == DecisionKind.EFFECT and s0.decision.actor == 1  # won at margin 1: one effect
    X.answer_effect(s0, s, "attacker_vulnerable", None)
    assert s0.distance(0, 1) == 2
    assert [e.data["result"] for e in s.events if e.kind == "manoeuvre"] == ["success"]


def test_illegal_action_names_action_and_decision() -> None:
    state, _ = ENGINE.new_combat(SCENARIOS["shield_vs_greataxe"], RngRoller(np.random.default_rng(0)))
    decision = ENGINE.pending(state)
    assert decision.kind == DecisionKind.ACT
    with pytest.raises(IllegalActionError, match=r"impale_pull.*ACT decision"):
        ENGINE.step(state, IDX["impale_pull"], RngRoller(np.random.default_rng(0)))
    with pytest.raises(IllegalActionError, match="outside the catalogue"):
        ENGINE.step(state, N_ACTIONS + 3, RngRoller(np.random.default_rng(0)))


def _play(scenario: str, seed: int) -> tuple[object, list]:  # type: ignore[type-arg]
    roller = RngRoller(np.random.default_rng(seed))
    choice = np.random.default_rng(seed + 1)
    state, _ = ENGINE.new_combat(SCENARIOS[scenario], roller)
    events: list = []  # type: ignore[type-arg]
    while (d := ENGINE.pending(state)) is not None:
        legal = np.flatnonzero(ENGINE.legal_mask(state, d))
        state, ev = ENGINE.step(state, int(legal[choice.integers(len(legal))]), roller)
        events += ev
    return state, events


def test_determinism_same_seed_same_log() -> None:
    _, e1 = _play("skirmish_2v2", 7)
    _, e2 = _play("skirmish_2v2", 7)
    assert events_to_jsonl(e1) == events_to_jsonl(e2) and len(e1) > 20


def test_step_does_not_mutate_callers_state() -> None:
    state, _ = ENGINE.new_combat(SCENARIOS["spear_vs_sword"], RngRoller(np.random.default_rng(3)))
    before = ENGINE.describe(state)
    legal = np.flatnonzero(ENGINE.legal_mask(state))
    for a in legal:
        ENGINE.step(state, int(a), RngRoller(np.random.default_rng(1)))
    assert ENGINE.describe(state) == before


@pytest.mark.parametrize("scenario", sorted(SCENARIOS))
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**31))
def test_random_legal_play_invariants(scenario: str, seed: int) -> None:
    roller = RngRoller(np.random.default_rng(seed))
    choice = np.random.default_rng(seed + 1)
    state, _ = ENGINE.new_combat(SCENARIOS[scenario], roller)
    events: list = []  # type: ignore[type-arg]
    while (d := ENGINE.pending(state)) is not None:
        assert state.combatants[d.actor].status == Status.ACTIVE
        mask = ENGINE.legal_mask(state, d)
        assert mask.dtype == np.bool_ and mask.shape == (N_ACTIONS,) and mask.any()
        legal = np.flatnonzero(mask)
        state, ev = ENGINE.step(state, int(legal[choice.integers(len(legal))]), roller, inplace=True)
        events += ev
        for c in state.combatants:
            assert c.hp <= c.max_hp and all(h >= -m for h, m in zip(c.loc_hp, c.prof.loc_max, strict=True))
            assert c.reactions >= 0 and c.lost_ca >= 0
    out = ENGINE.outcome(state)
    assert out is not None and out.rounds <= state.max_rounds
    assert ENGINE.legal_mask(state).all()
    for e in events:
        if e.kind in ("attack", "status", "reaction", "special_effect"):
            assert isinstance(e.data.get("result", e.data.get("status")), str)
    prof = tactic_profile(events, state, 0)
    assert all(isinstance(v, int) and v >= 0 for v in prof.values())


def test_tactic_profile_counts() -> None:
    state, events = _play("shield_vs_greataxe", 11)
    p0, p1 = tactic_profile(events, state, 0), tactic_profile(events, state, 1)
    spent = sum(1 for e in events if e.kind == "reaction" and e.data["result"] != "none")
    assert p0.get("reactions_spent", 0) + p1.get("reactions_spent", 0) == spent
    picked = sum(1 for e in events if e.kind == "special_effect")
    assert p0.get("effects_picked", 0) + p1.get("effects_picked", 0) == picked


def test_max_rounds_ends_in_a_draw() -> None:
    eng = MRQEngine()
    scen = load_scenario("lancer_charge")
    state, _ = eng.new_combat(scen, RngRoller(np.random.default_rng(0)))
    roller = RngRoller(np.random.default_rng(1))
    while (d := eng.pending(state)) is not None:  # both sides only ever hold
        mask = eng.legal_mask(state, d)
        a = IDX["hold"] if mask[IDX["hold"]] else int(np.flatnonzero(mask)[0])
        state, _ = eng.step(state, a, roller, inplace=True)
    out = eng.outcome(state)
    assert out.reason == "max_rounds" and out.winner is None and out.rounds == scen.max_rounds


def test_withdraw_flees_and_side_result() -> None:
    eng, s0 = duel("swordsman", "swordsman", distance="apart")
    assert IDX["withdraw"] in eng.act_options(s0, 0)
    s = sink()
    eng._act(s0, s, 0, "withdraw", -1)
    eng.advance(s0, s)
    out = eng.outcome(s0)
    assert s0.combatants[0].status == Status.FLED and out.results[0].name == "FLED" and out.winner == 1
