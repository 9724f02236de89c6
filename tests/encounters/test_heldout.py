"""The shipped held-out sets: the fights their seeds draw, below the training seed range, loadable."""

from __future__ import annotations

import pytest

from npc_tactics.encounters.generator import TRAIN_SEED_BASE
from npc_tactics.encounters.heldout import SIZE, draw_heldout, load_heldout
from npc_tactics.systems import SYSTEMS, get_system


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
