"""Engagement is a pair's (A23): a scenario may start one spearman engaged while a knight stands apart."""

from __future__ import annotations

import numpy as np
import pytest

from npc_tactics.dice import RngRoller
from npc_tactics.errors import ConfigError
from npc_tactics.systems.mrq.rules.engine import MRQEngine
from npc_tactics.systems.mrq.rules.scenario import scenario_from_mapping
from npc_tactics.systems.mrq.rules.tables import APART, CLOSE, LONG

DATA = {
    "distance": "long",
    "range": 12,
    "distances": [{"a": "Spear", "b": "Knight", "distance": "apart", "metres": 20},
                  {"a": "Spear", "b": "Axe", "distance": "close"}],
    "sides": [{"combatants": [{"template": "spearman", "name": "Spear"}, {"template": "archer", "name": "Bow"}]},
              {"combatants": [{"template": "knight", "name": "Knight"}, {"template": "great_axe", "name": "Axe"}]}],
}


def test_each_pair_keeps_its_own_band() -> None:
    state = MRQEngine().build_state(scenario_from_mapping(DATA, "d.yaml"))
    spear, bow, knight, axe = range(4)
    assert state.distance(spear, knight) == state.distance(knight, spear) == APART
    assert state.metres(spear, knight) == 20
    assert state.distance(spear, axe) == CLOSE and state.distance(bow, knight) == LONG
    assert state.distance(bow, axe) == LONG  # the scenario's band for every other pair


def test_a_fight_starts_from_pair_bands() -> None:
    eng = MRQEngine()
    state, _ = eng.new_combat(scenario_from_mapping(DATA, "d.yaml"), RngRoller(np.random.default_rng(3)))
    assert state.distance(0, 2) in (APART, LONG, CLOSE)  # played on from the described start


@pytest.mark.parametrize(("pair", "match"), [
    ({"a": "Spear", "b": "Bow", "distance": "close"}, r"distances\[0\]\.b: 'Bow' is on the side of 'Spear'"),
    ({"a": "Spear", "b": "Knight", "distance": "long", "metres": 4}, r"distances\[0\]\.metres: metres only apply"),
    ({"a": "Spear", "b": "Nobody", "distance": "close"}, r"distances\[0\]\.b: unknown combatant 'Nobody'"),
    ({"a": "Spear", "b": "Knight", "distance": "near"}, r"distances\[0\]\.distance: unknown distance 'near'"),
])
def test_bad_pairs_are_one_line(pair: dict[str, object], match: str) -> None:
    with pytest.raises(ConfigError, match=match):
        scenario_from_mapping({**DATA, "distances": [pair]}, "d.yaml")
