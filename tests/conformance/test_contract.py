"""The engine protocol as a contract, checked on every registered system, every shipped scenario and the test fake.

Each test states one clause of "The contract" in ``npc_tactics.rules.base``; an engine that fills a gap its own
way fails here rather than somewhere downstream (an encoder writing into a cached mask, a replay that drifts).
"""

from __future__ import annotations

import pickle
from collections.abc import Iterator

import numpy as np
import pytest

from npc_tactics.dice import RngRoller, ScriptedRoller
from npc_tactics.registry import get_system
from npc_tactics.rules.base import DecisionKind, Status, events_to_jsonl
from tests.conformance.helpers import CASES, SYSTEMS, mutables, other_options, play_logged, random_play, setup
from tests.conformance.helpers import with_options as _with_options
from tests.fakesys import registered

#: decisions of these kinds can be asked of any active combatant at any state ("what could X do now?");
#: the others (REACT, EFFECT, SPLIT, OPTION) only exist at the state that raised them
TURN_KINDS = (DecisionKind.DECLARE, DecisionKind.ACT)


@pytest.fixture(autouse=True)
def _fake_registered() -> Iterator[None]:
    with registered():
        yield


@pytest.mark.parametrize(("system", "scenario"), CASES)
def test_legal_mask_is_a_fresh_writable_bool_array_honouring_the_decision(system: str, scenario: str) -> None:
    engine, scen = setup(system, scenario)
    roller = RngRoller(np.random.default_rng(0))
    start, _ = engine.new_combat(scen, roller)
    previous = None
    for state, decision, mask in random_play(engine, start, np.random.default_rng(1), roller, 300):
        assert mask.dtype == np.bool_ and mask.shape == (len(engine.catalogue),)
        assert mask.flags.writeable, "legal_mask must hand out a writable array"
        again = engine.legal_mask(state, decision)
        assert again is not mask and not np.shares_memory(again, mask), "legal_mask must return a fresh array"
        assert np.array_equal(engine.legal_mask(state), mask), "the default decision is the pending one"
        assert mask.any(), f"no legal action at {decision.describe()}"
        for index in np.flatnonzero(mask):
            assert decision.kind in engine.catalogue[int(index)].kinds, (
                f"{engine.catalogue.name(int(index))} is legal at a {decision.kind.name} decision")
        # a turn decision asked at another state is answered for that decision, not for the pending one
        if previous is not None and previous.kind in TURN_KINDS and previous != decision and \
                state.combatants[previous.actor].status == Status.ACTIVE:
            for index in np.flatnonzero(engine.legal_mask(state, previous)):
                assert previous.kind in engine.catalogue[int(index)].kinds, (
                    f"{engine.catalogue.name(int(index))} offered for {previous.describe()} "
                    f"while {decision.describe()} is pending")
        scratch = engine.legal_mask(state, decision)
        scratch[:] = False  # writing into a mask handed out must not change the engine's next answer
        assert np.array_equal(engine.legal_mask(state, decision), mask)
        previous = decision


@pytest.mark.parametrize(("system", "scenario"), CASES)
def test_mask_is_all_ones_at_a_terminal_state_and_fights_end_within_max_decisions(system: str, scenario: str
                                                                                  ) -> None:
    engine, scen = setup(system, scenario)
    final, _, decisions = play_logged(engine, scen, RngRoller(np.random.default_rng(2)), seed=3)
    assert engine.outcome(final) is not None and engine.pending(final) is None
    assert decisions <= engine.spec.max_decisions
    mask = engine.legal_mask(final)
    assert mask.all() and mask.shape == (len(engine.catalogue),) and mask.dtype == np.bool_


@pytest.mark.parametrize(("system", "scenario"), CASES)
def test_step_without_inplace_leaves_its_input_untouched_and_clone_shares_nothing(system: str, scenario: str
                                                                                 ) -> None:
    engine, scen = setup(system, scenario)
    roller = RngRoller(np.random.default_rng(4))
    state, _ = engine.new_combat(scen, roller)
    rng = np.random.default_rng(5)
    for _ in range(40):
        decision = engine.pending(state)
        if decision is None:
            break
        before = pickle.dumps(state)
        clone = engine.clone(state)
        orig_ids: dict[int, str] = {}
        clone_ids: dict[int, str] = {}
        mutables(state, set(), orig_ids)
        mutables(clone, set(), clone_ids)
        shared = set(orig_ids) & set(clone_ids)
        assert not shared, f"clone shares {sorted(orig_ids[i] for i in shared)[:5]}"
        mask = engine.legal_mask(state, decision)
        nxt, _ = engine.step(state, int(rng.choice(np.flatnonzero(mask))), roller)
        assert pickle.dumps(state) == before, "step without inplace (or pending/legal_mask) changed its input"
        state = nxt


@pytest.mark.parametrize("other", [False, True], ids=["default_options", "other_options"])
@pytest.mark.parametrize(("system", "scenario"), CASES)
def test_the_event_log_holds_every_roll_so_forced_rolls_replay_the_fight_byte_for_byte(system: str, scenario: str,
                                                                                         other: bool) -> None:
    engine, scen = setup(system, scenario)
    if other:  # the rules paths behind the options roll their dice through the sink too
        scen = _with_options(scen, other_options(engine.spec))
    _, opening = engine.new_combat(scen, RngRoller(np.random.default_rng(7)))
    assert opening, "new_combat returns the opening events (round 1 starts there, with its rolls if any)"
    _, log, _ = play_logged(engine, scen, RngRoller(np.random.default_rng(7)), seed=8)
    assert log[: len(opening)] == opening
    faces = [face for e in log if e.kind == "roll" for face in e.data["faces"]]
    replay_engine, _ = setup(system, scenario)
    _, replayed, _ = play_logged(replay_engine, scen, ScriptedRoller(faces), seed=8)
    assert events_to_jsonl(replayed) == events_to_jsonl(log)
    _, quiet = engine.new_combat(scen, RngRoller(np.random.default_rng(7)), record_rolls=False)
    assert [e for e in opening if e.kind != "roll"] == quiet


@pytest.mark.parametrize(("system", "scenario"), CASES)
def test_rules_options_are_resolved_once_and_carried_on_the_state(system: str, scenario: str) -> None:
    """A state keeps the options it was built under, whatever fight the same engine starts afterwards (the
    RuneQuest engine used to store a scenario's options on itself at every new_combat: on that code this test
    fails on 6 of the 7 RuneQuest scenarios)."""
    engine, plain = setup(system, scenario)
    variant = _with_options(plain, other_options(engine.spec))
    expected = engine.resolve_options(other_options(engine.spec))
    logs = []
    for first_engine, starts_another in ((engine, True), (setup(system, scenario)[0], False)):
        state, events = first_engine.new_combat(variant, RngRoller(np.random.default_rng(9)))
        if starts_another:
            first_engine.new_combat(plain, RngRoller(np.random.default_rng(10)))
        assert dict(state.options) == dict(expected)
        with pytest.raises(TypeError):
            state.options["anything"] = 1  # read-only
        log = list(events)
        rng, roller = np.random.default_rng(11), RngRoller(np.random.default_rng(12))
        while (d := first_engine.pending(state)) is not None:
            mask = first_engine.legal_mask(state, d)
            state, ev = first_engine.step(state, int(rng.choice(np.flatnonzero(mask))), roller, inplace=True)
            log.extend(ev)
        logs.append(events_to_jsonl(log))
    assert logs[0] == logs[1], f"{scenario} under other options played differently after the engine started " \
                               "a fight under the scenario's own options"


@pytest.mark.parametrize("system", SYSTEMS)
def test_option_values_and_ranges_of_the_spec_are_enforced(system: str) -> None:
    info = get_system(system)
    spec = info.load("engine").spec
    engine_cls = info.load("engine")
    for key, allowed in spec.option_values.items():
        with pytest.raises(ValueError, match=key):
            engine_cls({key: "no such value"})
        for value in allowed:
            assert engine_cls({key: value}).options[key] == value
    for key, (low, high) in spec.option_ranges.items():
        default = spec.default_options[key]
        bad = [high + 1] * len(default) if isinstance(default, list | tuple) else high + 1
        with pytest.raises(ValueError, match=key):
            engine_cls({key: bad})
        assert low <= high
