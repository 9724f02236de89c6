"""The held-out creature set (issue 28): monsters no training distribution ever draws, and their held-out fights.

A distribution named ``creatures_heldout`` lists, on side 0, the creatures kept out of training; no other
distribution of the system (the shipped generalist's training distribution among them) may name one of them on
either side, so a held-out creature figure measures creatures the policy never met."""

from __future__ import annotations

import pytest

from npc_tactics.encounters.generator import TRAIN_SEED_BASE
from npc_tactics.encounters.heldout import SIZE, draw_heldout, heldout_path, load_heldout
from npc_tactics.encounters.spec import list_encounters, load_encounter
from npc_tactics.registry import SYSTEMS

HELDOUT = "creatures_heldout"
WITH_SET = [s for s in sorted(SYSTEMS) if HELDOUT in dict(list_encounters(s))]


def test_ose_has_a_held_out_creature_set() -> None:
    assert "ose" in WITH_SET


@pytest.mark.parametrize("system", WITH_SET)
def test_held_out_creatures_are_in_no_training_distribution(system: str) -> None:
    kept_out = {t for t, _ in load_encounter(HELDOUT, system).sides[0].templates}
    assert len(kept_out) >= 5
    for name, _ in list_encounters(system):
        if name == HELDOUT:
            continue
        spec = load_encounter(name, system)
        drawn = {t for side in spec.sides for t, w in side.templates if w > 0}
        assert not drawn & kept_out, f"{system}: the distribution {name} draws held-out creatures {drawn & kept_out}"


@pytest.mark.parametrize("system", WITH_SET)
def test_held_out_creature_fights_are_the_draw_of_their_seeds(system: str) -> None:
    assert heldout_path(system, HELDOUT).is_file()
    shipped = load_heldout(system, HELDOUT)
    assert len(shipped) == SIZE and all(e.seed < TRAIN_SEED_BASE for e in shipped)
    assert [e.to_dict() for e in shipped] == [e.to_dict() for e in draw_heldout(system, HELDOUT)]
