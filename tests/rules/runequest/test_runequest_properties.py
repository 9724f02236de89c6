"""Random-legal play on every shipped scenario keeps the invariants; same seed, same fight; table
shape."""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from npc_tactics.dice import RngRoller
from npc_tactics.rules.base import DecisionKind, Status, events_to_jsonl
from npc_tactics.systems.runequest.encoder import RuneQuestEncoder
from npc_tactics.systems.runequest.rules import actions as A
from npc_tactics.systems.runequest.rules import content
from npc_tactics.systems.runequest.rules import tables as T
from npc_tactics.systems.runequest.rules.engine import RuneQuestEngine

SCENARIOS = sorted(n for n, _ in content.list_scenarios())
LOADED = {n: content.load_scenario(n) for n in SCENARIOS}


def _play(name: str, seed: int, options: dict | None = None) -> tuple[str, int]:
    eng = RuneQuestEngine(options)
    enc = RuneQuestEncoder(eng)
    roller = RngRoller(seed)
    pick = np.random.default_rng(seed + 1)
    s, _ = eng.new_combat(LOADED[name], roller)
    log = []
    steps = 0
    while eng.outcome(s) is None:
        d = eng.pending(s)
        assert d is not None and s.combatants[d.actor].status == Status.ACTIVE
        mask = eng.legal_mask(s, d)
        assert mask.dtype == np.bool_ and mask.shape == (A.N,) and mask.any()
        for i in np.flatnonzero(mask):
            assert d.kind in A.CATALOGUE[int(i)].kinds
        v = enc.encode(s, d)
        assert v.shape == (enc.size,) and v.dtype == np.float32 and np.all(np.abs(v) <= 1.0)
        legal = np.flatnonzero(mask)
        s, ev = eng.step(s, int(legal[pick.integers(len(legal))]), roller, inplace=True)
        log.extend(ev)
        for c in s.combatants:
            assert c.hp <= c.max_hp
            assert all(w.hp >= 0 for w in c.weapons)
        assert s.round <= s.max_rounds
        steps += 1
        assert steps < 5000
    assert eng.legal_mask(s).all() and eng.pending(s) is None
    out = eng.outcome(s)
    assert out.rounds <= s.max_rounds and len(out.results) == 2
    return events_to_jsonl(log), steps


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(SCENARIOS), seed=st.integers(0, 2**31 - 1))
def test_random_legal_play_keeps_invariants(name: str, seed: int) -> None:
    _play(name, seed)


@settings(max_examples=15, deadline=None)
@given(
    seed=st.integers(0, 2**31 - 1),
    opt=st.sampled_from(
        [
            {"special_damage": "by_weapon_type"},
            {"crit_db": "max"},
            {"adjacent_location": "parrying_arm"},
            {"failed_attack_hits_on_defender_fumble": False},
            {"shield_passive_cover": False},
            {"spell_sr_reading": "seed_literal"},
            {"combine_move_and_ready": False},
            {"bleeding_clocks": False},
        ]
    ),
)
def test_rules_options_play_through(seed: int, opt: dict) -> None:
    _play("skirmish_3v3", seed, opt)


def test_same_seed_same_fight() -> None:
    for name in SCENARIOS:
        assert _play(name, 7) == _play(name, 7)


def test_clone_is_independent() -> None:
    eng = RuneQuestEngine()
    s, _ = eng.new_combat(LOADED["parry_duel"], RngRoller(3))
    before = eng.describe(s)
    mask = eng.legal_mask(s)
    s2, _ = eng.step(s, int(np.flatnonzero(mask)[0]), RngRoller(3))
    assert eng.describe(s) == before and s2 is not s
    assert s2.combatants[0].weapons[0] is not s.combatants[0].weapons[0]


def test_attack_parry_table_structure() -> None:
    """Same level: normal damage, P1, to the hit location; parry one level above: deflected with A1
    (§10.2); the fumbled-attack row repeats the failed-attack row plus the attacker's fumble."""
    for lv in (T.CRIT, T.SPECIAL, T.SUCCESS):
        cell = T.ATTACK_PARRY[lv][lv]
        assert (cell.outcome, cell.mode, cell.code, cell.dest) == (
            "through",
            "normal",
            "P1",
            "location",
        )
    for att in (T.SPECIAL, T.SUCCESS, T.FAILURE):
        cell = T.ATTACK_PARRY[att][att - 1]
        assert (cell.outcome, cell.mode, cell.code) == ("deflect", "normal", "A1")
    assert (
        T.ATTACK_PARRY[T.SUCCESS][T.CRIT].code == "AX"
        and T.ATTACK_PARRY[T.FAILURE][T.CRIT].code == "AF"
    )
    for par in range(4):
        f, m = T.ATTACK_PARRY[T.FUMBLE][par], T.ATTACK_PARRY[T.FAILURE][par]
        assert f[:5] == m[:5] and f.attacker_fumbles
    both = T.ATTACK_PARRY[T.FUMBLE][T.FUMBLE]
    assert both.attacker_fumbles and both.defender_fumbles


def test_vector_17_dodge_table() -> None:
    assert T.DODGE[T.SUCCESS][T.CRIT][:3] == ("hit", "special", True)
    assert T.DODGE[T.SPECIAL][T.CRIT][:3] == ("hit", "special", False)
    assert T.DODGE[T.FAILURE][T.FAILURE].outcome == "miss"
    assert T.DODGE[T.SUCCESS][T.SUCCESS].outcome == "dodged"


def test_decision_kinds_in_catalogue() -> None:
    kinds = {k for spec in A.CATALOGUE for k in spec.kinds}
    assert kinds == {DecisionKind.DECLARE, DecisionKind.REACT, DecisionKind.OPTION}
    assert RuneQuestEngine.spec.num_actions == len(A.CATALOGUE) == A.N
