"""A combatant given by class and level (``{class: elf, level: 9}``) in a scenario: built from the class tables,
played to the end, and exclusive with ``template`` and ``stat_block``."""

from __future__ import annotations

import numpy as np
import pytest

from npc_tactics.dice import RngRoller
from npc_tactics.errors import ConfigError
from npc_tactics.systems.ose.rules.engine import OSEEngine
from npc_tactics.systems.ose.rules.scenario import parse_scenario
from npc_tactics.systems.ose.rules.templates import make_template


def scenario(party: list[dict[str, object]]) -> dict[str, object]:
    return {"name": "t", "sides": [{"name": "ogres", "combatants": [{"template": "ogre", "position": 0}]},
                                   {"name": "party", "combatants": party}]}


def test_class_and_level_give_the_same_template_as_its_name() -> None:
    s = parse_scenario(scenario([{"class": "elf", "level": 9, "name": "Elowen", "position": 3}]), "t.yaml")
    elf = next(c for c in s.combatants if c.side == 1)
    assert elf.name == "Elowen"
    assert elf.template == make_template("elf_9")


def test_a_level_6_dwarf_and_a_level_9_elf_fight_an_ogre_to_the_end() -> None:
    engine = OSEEngine()
    s = parse_scenario(scenario([{"class": "elf", "level": 9, "position": 3},
                                 {"class": "dwarf", "level": 6, "position": 3}]), "t.yaml")
    rng = np.random.default_rng(4)
    for _ in range(5):
        state, _events = engine.new_combat(s, RngRoller(rng))
        steps = 0
        while engine.pending(state) is not None and steps < 5000:
            legal = np.flatnonzero(engine.legal_mask(state))
            state, _ev = engine.step(state, int(rng.choice(legal)), RngRoller(rng))
            steps += 1
        assert engine.pending(state) is None


@pytest.mark.parametrize(("entry", "field", "words"), [
    ({"class": "elf", "level": 11}, "level", "maximum level is 10"),
    ({"template": "ogre", "class": "fighter", "level": 2}, "class", "not several"),
    ({"class": "fighter", "level": 3, "ac": 2}, "ac", "takes no 'ac'"),
    ({"class": "fighter"}, "level", "missing required key"),
])
def test_bad_class_combatants_name_the_field(entry: dict[str, object], field: str, words: str) -> None:
    with pytest.raises(ConfigError) as err:
        parse_scenario(scenario([entry]), "t.yaml")
    assert f"combatants[0].{field}" in str(err.value) and words in str(err.value)
    assert "\n" not in str(err.value)
