"""Encounter distributions: validation (file, field, expected), seeded draws, wear, and the training hook."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import yaml

from npc_tactics.dice import RngRoller
from npc_tactics.encounters.compose import threats
from npc_tactics.encounters.generator import TRAIN_SEED_BASE, Generator, training_seed, without_scenarios
from npc_tactics.encounters.spec import list_encounters, load_encounter, parse_encounter
from npc_tactics.errors import ConfigError
from npc_tactics.registry import SYSTEMS, make_engine
from npc_tactics.rules.base import Status

SYSTEM_NAMES = sorted(SYSTEMS)


def _raw(system: str = "ose") -> dict:  # type: ignore[type-arg]
    spec = load_encounter("generalist", system)
    return yaml.safe_load(Path(spec.file).read_text())


@pytest.mark.parametrize("system", SYSTEM_NAMES)
def test_draws_are_deterministic_and_within_the_spec(system: str) -> None:
    spec = load_encounter("generalist", system)
    gen = Generator(spec)
    shipped = 0
    for seed in range(25):
        a, b = gen.draw(seed), gen.draw(seed)
        assert a.mapping == b.mapping and a.wounds == b.wounds and a.spent == b.spent
        if "shipped" in a.mapping:  # a shipped scenario mixed into training draws (scenarios.share)
            shipped += 1
            assert a.mapping["shipped"] in dict(spec.scenarios) and not a.wounds
            continue
        sides = a.mapping["sides"]
        for s, side in enumerate(sides):
            lo, hi = spec.sides[s].size
            assert lo <= len(side["combatants"]) <= hi
            allowed = {t for t, _ in spec.sides[s].templates}
            assert {c["template"] for c in side["combatants"]} <= allowed
    assert 0 < shipped < 15
    assert len({str(gen.draw(s).mapping) for s in range(25)}) > 15  # the seed matters
    plain = Generator(without_scenarios(spec))  # held-out sets: composed fights only, the same ones
    assert all("sides" in plain.draw(s).mapping for s in range(25))
    assert all(plain.draw(s).mapping == gen.draw(s).mapping for s in range(25) if "sides" in gen.draw(s).mapping)


def test_budget_fills_side_one_to_the_ratio() -> None:
    spec = load_encounter("generalist", "ose")
    import dataclasses

    wide = dataclasses.replace(spec.sides[1], size=(1, 6))
    gen = Generator(dataclasses.replace(without_scenarios(spec), budget=(1.0, 1.0), sides=(spec.sides[0], wide)))
    t = threats("ose")
    for seed in range(30):
        sides = gen.draw(seed).mapping["sides"]
        t0, t1 = (sum(t[c["template"]] for c in side["combatants"]) for side in sides)
        smallest = min(t[n] for n, _ in spec.sides[1].templates)
        assert t1 > t0 - smallest or len(sides[1]["combatants"]) == 6  # short by less than one creature
        assert t1 <= 1.5 * t0 + max(t.values())  # no runaway overshoot
        assert smallest > 0


@pytest.mark.parametrize("system", SYSTEM_NAMES)
def test_wear_leaves_everyone_standing_and_the_fight_playable(system: str) -> None:
    gen = Generator(load_encounter("generalist", system))
    engine = make_engine(system)
    worn = 0
    for seed in range(40):
        enc = gen.draw(seed)
        state, _ = enc.start_combat(engine, RngRoller(np.random.default_rng(seed)))
        fresh, _ = engine.new_combat(enc.scenario, RngRoller(np.random.default_rng(seed)))
        for i, _f in enc.wounds:
            worn += 1
            assert 0 < state.combatants[i].hp <= fresh.combatants[i].hp
            assert state.combatants[i].status == Status.ACTIVE
        decision = engine.pending(state)
        assert decision is not None
        rng = np.random.default_rng(seed)
        for _ in range(20000):  # play it out with random legal moves
            if engine.outcome(state) is not None:
                break
            mask = engine.legal_mask(state)
            state, _ = engine.step(state, int(rng.choice(np.flatnonzero(mask))), RngRoller(rng), inplace=True)
        assert engine.outcome(state) is not None
    assert worn > 0


def test_training_seeds_never_reach_the_held_out_range() -> None:
    for s in (0, 1, 2**32 - 1, 2**32, 2**63 - 2, 123456789):
        assert training_seed(s) >= TRAIN_SEED_BASE


@pytest.mark.parametrize(
    ("change", "field", "expected"),
    [
        ({"system": "gurps"}, "system", "unknown system"),
        ({"sides": [{"templates": {"gobbo": 1}}, {"templates": {"orc": 1}}]}, "sides[0].templates.gobbo",
         "goblin_archer"),
        ({"budget": [2, 1]}, "budget", "low <= high"),
        ({"distance": [1, 2, 3]}, "distance", "[low, high]"),
        ({"wounds": {"chance": 2, "fraction": [0, 1]}}, "wounds.chance", "out of range"),
        ({"variants": {"goblin": [{"set": {"weapon": "lightsaber"}}]}}, "variants.goblin[0].set", "lightsaber"),
        ({"options": {"ac_mode": [{"value": "sideways"}]}}, "options.ac_mode[0].value", "sideways"),
        ({"sides": [{"size": [0, 9], "templates": {"orc": 1}}, {"templates": {"orc": 1}}]}, "sides[0].size[0]",
         "out of range"),
        ({"colour": "red"}, "colour", "unknown key"),
        ({"scenarios": {"share": 0.5, "weights": {"goblin_dual": 1}}}, "scenarios.weights.goblin_dual", "goblin_duel"),
        ({"sides": [{"templates": {"orc": 1}, "at_most": {"goblin": 1}}, {"templates": {"orc": 1}}]},
         "sides[0].at_most.goblin", "this side's `templates`"),
        ({"sides": [{"templates": {"orc": 1}, "at_most": {"orc": 9}}, {"templates": {"orc": 1}}]},
         "sides[0].at_most.orc", "out of range"),
        ({"sides": [{"size": [3, 4], "templates": {"orc": 1}, "at_most": {"orc": 2}}, {"templates": {"orc": 1}}]},
         "sides[0].at_most", "caps allow 2"),
    ],
)
def test_validation_names_file_field_and_expectation(change: dict, field: str, expected: str) -> None:  # type: ignore[type-arg]
    data = {**_raw(), **change}
    with pytest.raises(ConfigError) as err:
        parse_encounter(data, "dist.yaml")
    assert err.value.file == "dist.yaml" and err.value.field == field, str(err.value)
    assert expected in str(err.value)


def test_at_most_caps_a_template_and_leaves_uncapped_draws_alone() -> None:
    """MRQ's mounted lancer (rider and warhorse: two combatants) capped at one a side; without caps the draws
    are those of the spec before caps existed (the same random numbers)."""
    import dataclasses

    spec = without_scenarios(load_encounter("bestiary", "mrq"))
    sides = [dataclasses.replace(s, size=(1, 5), templates=(*s.templates, ("mounted_lancer", 50.0)), at_most=())
             for s in spec.sides]
    free = Generator(dataclasses.replace(spec, sides=tuple(sides)))
    capped_sides = tuple(dataclasses.replace(s, at_most=(("mounted_lancer", 1),)) for s in sides)
    capped = Generator(dataclasses.replace(spec, sides=capped_sides))
    overflow = 0
    for seed in range(60):
        lancers = [sum(c["template"] == "mounted_lancer" for c in side["combatants"])
                   for side in capped.draw(seed).mapping["sides"]]
        assert max(lancers) <= 1
        try:
            free.draw(seed)
        except ConfigError:  # two lancers and their horses overflow the engine's six a side
            overflow += 1
    assert overflow > 5  # without the cap, some of these draws cannot be built
    plain = load_encounter("generalist", "mrq").sides[0]  # no caps: every template, in order, whatever is drawn
    assert plain.at_most == () and plain.allowed(["wolf"] * 6) == list(plain.templates)


def test_wrong_system_and_unknown_name() -> None:
    with pytest.raises(ConfigError, match="for ose, not mrq"):
        load_encounter(load_encounter("generalist", "ose").file, "mrq")
    with pytest.raises(Exception, match="generalist"):
        load_encounter("nope", "ose")
    assert ("generalist" in dict(list_encounters("ose")))
