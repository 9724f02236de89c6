"""Mid-fight starts (``midfight`` in an encounter distribution): drawn on a stream of their own, played in
``Encounter.start_combat`` with engine-chosen moves, live, deterministic, off the fight's dice, round-tripped."""

from __future__ import annotations

import dataclasses
import hashlib
import pickle
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import yaml

from npc_tactics.dice import RngRoller
from npc_tactics.encounters import heldout
from npc_tactics.encounters.generator import Encounter, Generator, encounter_from_dict, training_seed
from npc_tactics.encounters.midfight import LEFT
from npc_tactics.encounters.spec import EncounterSpec, MidfightSpec, load_encounter, parse_encounter
from npc_tactics.errors import ConfigError
from npc_tactics.registry import SYSTEMS, make_engine
from npc_tactics.rules.base import Engine, events_to_jsonl

SYSTEM_NAMES = sorted(SYSTEMS)


def _spec(system: str, chance: float = 1.0, decisions: tuple[int, int] = (2, 12)) -> EncounterSpec:
    return dataclasses.replace(load_encounter("generalist", system), midfight=MidfightSpec(chance, decisions))


def _raw(system: str = "ose") -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(Path(load_encounter("generalist", system).file).read_text())
    return data


def _digest(state: Any) -> str:
    return hashlib.sha256(pickle.dumps(state)).hexdigest()


def _play_out(engine: Engine[Any], state: Any, seed: int) -> str:
    """Play ``state`` to its end with random legal moves (seeded); the log as canonical JSON lines."""
    rng = np.random.default_rng([seed, 99])
    roller = RngRoller(np.random.default_rng([seed, 98]))
    log = []
    for _ in range(20000):
        if engine.outcome(state) is not None:
            break
        decision = engine.pending(state)
        assert decision is not None
        mask = engine.legal_mask(state, decision)
        assert mask.any()
        state, events = engine.step(state, int(rng.choice(np.flatnonzero(mask))), roller, inplace=True)
        log.extend(events)
    assert engine.outcome(state) is not None
    return events_to_jsonl(log) + _digest(state)


@pytest.mark.parametrize("system", SYSTEM_NAMES)
def test_midfight_is_drawn_on_its_own_stream(system: str) -> None:
    plain, mid = Generator(load_encounter("generalist", system)), Generator(_spec(system, 0.5, (2, 12)))
    warmups = []
    for seed in range(40):
        a, b = plain.draw(seed), mid.draw(seed)
        assert a.warmup == 0
        assert {k: v for k, v in b.to_dict().items() if k != "warmup"} == a.to_dict()  # the rest of the draw
        assert b.warmup == 0 or 2 <= b.warmup <= 12
        assert ("warmup" in b.to_dict()) == (b.warmup > 0)
        warmups.append(b.warmup)
    assert 5 < sum(w > 0 for w in warmups) < 35 and len(set(warmups)) > 4
    never = Generator(_spec(system, 0.0, (2, 12)))
    assert all(never.draw(s).to_dict() == plain.draw(s).to_dict() for s in range(10))


@pytest.mark.parametrize("system", SYSTEM_NAMES)
def test_midfight_start_is_live_deterministic_and_off_the_fight_dice(system: str) -> None:
    gen = Generator(_spec(system, 1.0, (6, 30)))
    engine = make_engine(system)
    advanced = changed = hurt = 0
    seeds = range(12)
    for seed in seeds:
        enc = gen.draw(seed)
        assert 6 <= enc.warmup <= 30
        roller = RngRoller(np.random.default_rng(seed))
        state, opening = enc.start_combat(engine, roller)
        # live: a decision pending, no outcome, nobody taken off the field by the warm-up
        assert engine.outcome(state) is None and engine.pending(state) is not None
        assert not any(c.status in LEFT for c in state.combatants)
        # the same seed, the same mid-fight state and the same opening events
        again_roller = RngRoller(np.random.default_rng(seed))
        again, again_opening = enc.start_combat(engine, again_roller)
        assert _digest(again) == _digest(state)
        assert events_to_jsonl(again_opening) == events_to_jsonl(opening)
        # the events handed out are the plain opening's (the warm-up is never paid as shaping); the fight's
        # roller rolled the opening only: what it rolls next is what a plain start's roller rolls next
        plain_roller = RngRoller(np.random.default_rng(seed))
        plain, plain_opening = dataclasses.replace(enc, warmup=0).start_combat(engine, plain_roller)
        assert events_to_jsonl(opening) == events_to_jsonl(plain_opening)
        assert [roller.die(100) for _ in range(16)] == [plain_roller.die(100) for _ in range(16)]
        _, _, warm = enc.start_with_warmup(engine, RngRoller(np.random.default_rng(seed)))
        assert warm  # the warm-up's own events, apart
        advanced += state.round > plain.round
        changed += _digest(state) != _digest(plain)
        hurt += sum(c.hp for c in state.combatants) < sum(c.hp for c in plain.combatants)
        # the fight then plays to its end, the same way twice
        assert _play_out(engine, state, seed) == _play_out(engine, again, seed)
    assert advanced > 0 and hurt > 0 and changed >= len(seeds) - 1, (advanced, hurt, changed)


@pytest.mark.parametrize("system", SYSTEM_NAMES)
def test_warmup_stops_before_a_decision_that_would_end_the_fight(system: str) -> None:
    """A warm-up asked for more decisions than any fight lasts still hands out a live fight."""
    engine = make_engine(system)
    gen = Generator(_spec(system, 1.0, (400, 500)))
    for seed in range(3):
        enc = gen.draw(seed)
        state, _ = enc.start_combat(engine, RngRoller(np.random.default_rng(seed)))
        assert engine.outcome(state) is None and engine.pending(state) is not None
        again, _ = enc.start_combat(engine, RngRoller(np.random.default_rng(seed)))
        assert _digest(again) == _digest(state)


def test_session_sees_only_the_opening_events() -> None:
    from npc_tactics.envs.session import FightSession

    session = FightSession("ose", reward={"damage_dealt": 1.0, "damage_taken": 1.0})
    session.generator = Generator(_spec("ose", 1.0, (6, 12)))
    session.start(7)
    enc = session.generator.draw(training_seed(7))
    state, opening = enc.start_combat(session.engine, RngRoller(np.random.default_rng(7)))
    assert _digest(session.state) == _digest(state)
    assert session.event_counts == Counter(e.kind for e in opening)


@pytest.mark.parametrize(
    ("midfight", "field", "expected"),
    [
        ({"chance": 2, "decisions": [2, 12]}, "midfight.chance", "out of range"),
        ({"chance": "often", "decisions": [2, 12]}, "midfight.chance", "expected a number"),
        ({"chance": 0.5, "decisions": [12, 2]}, "midfight.decisions", "low <= high"),
        ({"chance": 0.5, "decisions": [1, 2, 3]}, "midfight.decisions", "[low, high]"),
        ({"chance": 0.5, "decisions": [0, 3]}, "midfight.decisions[0]", "out of range"),
        ({"chance": 0.5, "decisions": [2.5, 3]}, "midfight.decisions[0]", "integer"),
        ({"chance": 0.5, "decisions": [2, 9999]}, "midfight.decisions[1]", "out of range"),
        ({"chance": 0.5}, "midfight.decisions", "missing required key"),
        ({"chance": 0.5, "decisions": [2, 3], "rounds": 2}, "midfight.rounds", "unknown key"),
        (0.5, "midfight", "expected a mapping"),
    ],
)
def test_bad_midfight_values_are_refused_naming_the_field(midfight: Any, field: str, expected: str) -> None:
    with pytest.raises(ConfigError) as err:
        parse_encounter({**_raw(), "midfight": midfight}, "dist.yaml")
    assert err.value.file == "dist.yaml" and err.value.field == field, str(err.value)
    assert expected in str(err.value)


def test_midfight_from_a_yaml_file(tmp_path: Path) -> None:
    path = tmp_path / "mid.yaml"
    path.write_text(yaml.safe_dump({**_raw("mrq"), "midfight": {"chance": 0.25, "decisions": 5}}))
    spec = load_encounter(path, "mrq")
    assert spec.midfight == MidfightSpec(0.25, (5, 5))
    assert {Generator(spec).draw(s).warmup for s in range(40)} == {0, 5}
    path.write_text(yaml.safe_dump({**_raw("mrq"), "midfight": {"chance": -1, "decisions": 5}}))
    with pytest.raises(ConfigError, match="midfight.chance") as err:
        load_encounter(path, "mrq")
    assert err.value.file == str(path)


@pytest.mark.parametrize("system", SYSTEM_NAMES)
def test_warmup_round_trips_through_to_dict(system: str) -> None:
    gen = Generator(dataclasses.replace(_spec(system, 1.0, (2, 12)), scenario_share=0.0, scenarios=()))
    enc = gen.draw(3)
    assert enc.warmup > 0 and enc.to_dict()["warmup"] == enc.warmup
    back = encounter_from_dict(system, enc.to_dict(), "x.yaml")
    assert back.warmup == enc.warmup and back.to_dict() == enc.to_dict()
    engine = make_engine(system)
    a, _ = enc.start_combat(engine, RngRoller(np.random.default_rng(1)))
    b, _ = back.start_combat(engine, RngRoller(np.random.default_rng(1)))
    assert _digest(a) == _digest(b)
    plain = dataclasses.replace(enc, warmup=0)
    assert "warmup" not in plain.to_dict() and encounter_from_dict(system, plain.to_dict(), "x.yaml").warmup == 0
    for bad in (-1, "3", 2.5, 501, True):
        with pytest.raises(ConfigError) as err:
            encounter_from_dict(system, {**enc.to_dict(), "warmup": bad}, "x.yaml", "encounters[4]")
        assert err.value.field == "encounters[4].warmup"


@pytest.mark.parametrize("system", SYSTEM_NAMES)
def test_a_shipped_scenario_draw_round_trips_by_its_name(system: str) -> None:
    gen = Generator(dataclasses.replace(_spec(system, 1.0, (2, 6)), scenario_share=1.0))
    enc = gen.draw(5)
    assert set(enc.mapping) == {"shipped"} and enc.warmup > 0
    back = encounter_from_dict(system, enc.to_dict(), "x.yaml")
    assert back.to_dict() == enc.to_dict() and type(back.scenario) is type(enc.scenario)
    engine = make_engine(system)
    a, _ = enc.start_combat(engine, RngRoller(np.random.default_rng(2)))
    b, _ = back.start_combat(engine, RngRoller(np.random.default_rng(2)))
    assert _digest(a) == _digest(b)
    with pytest.raises(ConfigError, match="no_such_scenario") as err:
        encounter_from_dict(system, {**enc.to_dict(), "scenario": {"shipped": "no_such_scenario"}}, "x.yaml",
                            "encounters[2]")
    assert err.value.field == "encounters[2].scenario.shipped"


def test_heldout_sets_keep_warmup(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    dist = tmp_path / "mid.yaml"
    dist.write_text(yaml.safe_dump({**_raw("dicepool"), "midfight": {"chance": 0.5, "decisions": [2, 12]}}))
    monkeypatch.setattr(heldout, "heldout_path", lambda system, distribution="generalist": tmp_path / "held.yaml")
    heldout.write_heldout("dicepool", str(dist), size=12)
    loaded = heldout.load_heldout("dicepool", str(dist))
    fresh = heldout.draw_heldout("dicepool", str(dist), size=12)
    assert [e.to_dict() for e in loaded] == [e.to_dict() for e in fresh]
    assert any(e.warmup for e in loaded) and not all(e.warmup for e in loaded)
    assert isinstance(loaded[0], Encounter)


@pytest.mark.parametrize("system", SYSTEM_NAMES)
def test_runner_plays_midfight_starts_and_counts_rounds_from_there(system: str) -> None:
    from npc_tactics.rollouts import FromEncounter, run_fights
    from npc_tactics.rollouts.fights import ENCOUNTER_SEED_BASE

    spec = _spec(system, 1.0, (6, 30))
    engine = make_engine(system)
    seeds = list(range(6))
    results = run_fights(engine, FromEncounter(spec=spec), ["by-the-book", "random"], seeds, workers=1)
    again = run_fights(engine, FromEncounter(spec=spec), ["by-the-book", "random"], seeds, k=1, workers=1)
    assert [(r.results, r.rounds, r.end_round, r.decisions, r.statuses) for r in results] == [
        (r.results, r.rounds, r.end_round, r.decisions, r.statuses) for r in again]
    gen = Generator(spec)
    for r in results:
        state, _ = gen.draw(ENCOUNTER_SEED_BASE + r.seed).start_combat(
            engine, RngRoller(np.random.default_rng(r.seed)), record_rolls=False)
        assert r.rounds == max(1, r.end_round - int(state.round) + 1)
