"""The shipped held-out sets: the fights their seeds draw, below the training seed range, loadable."""

from __future__ import annotations

import pytest

from npc_tactics.encounters.generator import TRAIN_SEED_BASE
from npc_tactics.encounters.heldout import SIZE, draw_heldout, draw_validation, load_heldout
from npc_tactics.registry import SYSTEMS, get_system


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_heldout_file_is_the_draw_of_its_seeds(system: str) -> None:
    shipped = load_heldout(system)
    assert len(shipped) == SIZE
    assert all(e.seed < TRAIN_SEED_BASE for e in shipped)
    fresh = draw_heldout(system)
    # a generator change that moves these fights must rewrite the file on purpose (module docstring)
    assert [e.to_dict() for e in shipped] == [e.to_dict() for e in fresh]
    scenario_type = type(get_system(system).load("content").load_scenario(get_system(system).default_scenario))
    assert all(type(e.scenario) is scenario_type for e in shipped)


def test_validation_fights_are_neither_held_out_nor_trained_on() -> None:
    heldout_seeds = {e.seed for e in load_heldout("mrq")}
    val = draw_validation("mrq", size=20)
    assert len(val) == 20
    assert all(e.seed < TRAIN_SEED_BASE and e.seed not in heldout_seeds for e in val)
    # seeded: the same fights every time they are drawn
    assert [e.to_dict() for e in val] == [e.to_dict() for e in draw_validation("mrq", size=20)]
    with pytest.raises(ValueError, match="validation size"):
        draw_validation("mrq", size=0)
