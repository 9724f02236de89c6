"""Encounter wear through each system's hook: every shipped adapter has one, and the shared helpers apply it."""

from __future__ import annotations

import numpy as np
import pytest

from npc_tactics.dice import RngRoller
from npc_tactics.encounters.adapters import adapter
from npc_tactics.encounters.generator import Generator
from npc_tactics.encounters.spec import load_encounter
from npc_tactics.encounters.wear import Wear, apply_wear, spread, wear_of
from npc_tactics.errors import UserError
from npc_tactics.registry import available_systems, get_system, make_engine

SYSTEM_NAMES = list(available_systems())


@pytest.mark.parametrize("system", SYSTEM_NAMES)
def test_every_shipped_adapter_carries_its_wear(system: str) -> None:
    wear = adapter(get_system(system)).wear
    assert isinstance(wear, Wear) and wear.spent_what
    assert wear_of(get_system(system)) is wear


@pytest.mark.parametrize("system", SYSTEM_NAMES)
def test_apply_wear_is_the_start_of_a_drawn_encounter(system: str) -> None:
    gen = Generator(load_encounter("generalist", system))
    engine = make_engine(system)
    enc = next(e for e in map(gen.draw, range(100)) if e.wounds and e.spent)
    started, _ = enc.start_combat(engine, RngRoller(np.random.default_rng(0)))
    fresh, _ = engine.new_combat(enc.scenario, RngRoller(np.random.default_rng(0)))
    wear = wear_of(get_system(system))
    apply_wear(wear, fresh.combatants, enc.wounds, enc.spent, np.random.default_rng([enc.seed, 1]))
    assert repr(fresh) == repr(started)


def test_spread_keeps_one_hp_per_location_and_stops_when_none_is_left() -> None:
    rng = np.random.default_rng(0)
    assert spread([1, 1], 5, rng) == [0, 0]
    taken = spread([4, 2, 3], 100, rng)
    assert taken == [3, 1, 2]
    assert sum(spread([10, 10], 7, rng)) == 7


def test_a_system_without_an_encounter_adapter_has_no_wear() -> None:
    import dataclasses

    with pytest.raises(UserError, match="the ose system has no encounter wear"):
        wear_of(dataclasses.replace(get_system("ose"), encounter=""))
