"""Issue 8 §3 and §5 for the dice pool: a situation means what the GM wrote (impossible values are errors,
option VALUES are checked, assumptions are reported in ``notes``), and the encoder's hit table is lazy."""

from __future__ import annotations

import subprocess
import sys

import pytest

from npc_tactics.dice import ScriptedRoller
from npc_tactics.errors import ConfigError
from npc_tactics.rules.base import Status
from npc_tactics.systems.dicepool.rules.content import load_situation, scenario_from_mapping
from npc_tactics.systems.dicepool.rules.engine import DicePoolEngine
from npc_tactics.systems.dicepool.rules.pool import hit_probability, hit_table

ENGINE = DicePoolEngine()


def duel(kesh: dict | None = None, varo: dict | None = None, **top) -> dict:
    return {
        "sides": [
            {"combatants": [{"template": "duelist", "name": "Kesh", "position": 0, **(kesh or {})}]},
            {"combatants": [{"template": "duelist", "name": "Varo", "position": 1, **(varo or {})}]},
        ],
        "acting": "Kesh",
        "then": ["Varo"],
        **top,
    }


def load(sit: dict, notes: list[str] | None = None):
    return load_situation(ENGINE, sit, ScriptedRoller([]), notes)


@pytest.mark.parametrize(
    ("sit", "field"),
    [
        (duel(varo={"location_hp": {"torso": -100}}), "location_hp.torso"),  # below -max HP (10)
        (duel(varo={"location_hp": {"torso": -11}}), "location_hp.torso"),
        (duel(varo={"location_hp": {"head": 5}}), "location_hp.head"),  # above max (4)
        (duel(varo={"defense_dice": 8}), "defense_dice"),  # more than its 7 sword dice
        (duel(varo={"location_hp": {"head": -1}, "status": "active"}), "status"),  # D16: out of the fight
        (duel(kesh={"moving": True, "posture": "prone"}), "moving"),
        (duel(kesh={"aim_target": "Varo"}), "aim_target"),  # a sword cannot aim (D7)
        (duel(kesh={"facing": "Kesh"}), "facing"),
        (duel(options={"disengage": "bogus"}), "options"),
        (duel(options={"defense_dice_until": "forever"}), "options"),
        (duel(options={"aim_bonus": -3}), "options"),
        (duel(options={"death_serious_wounds": True}), "options"),
        (duel(options={"rear_defense_penalty": 99}), "options"),
        ({**duel(), "then": ["Varo", "Varo"]}, "then"),
    ],
)
def test_impossible_situations_are_rejected_with_their_field(sit, field):
    with pytest.raises(ConfigError) as err:
        load(sit)
    assert field in str(err.value)


def test_scenario_options_values_are_checked_too():
    """0.1.0 checked keys and types only: ``aim_bonus: -3`` or ``death_serious_wounds: true`` went through."""
    for options, name in (({"aim_bonus": -3}, "aim_bonus"), ({"item_hit": "explode"}, "item_hit")):
        sc = duel(options=options)
        del sc["acting"], sc["then"]
        with pytest.raises(ConfigError, match=name):
            scenario_from_mapping({"name": "x", **sc}, "<x>")
    with pytest.raises(ValueError, match="death_serious_wounds"):
        DicePoolEngine({"death_serious_wounds": True})


def test_assumptions_are_reported_in_notes():
    notes: list[str] = []
    sit = duel(varo={"location_hp": {"head": -1}})
    sit["sides"][1]["combatants"].append({"template": "duelist", "name": "Dax", "position": 2})
    del sit["then"]
    del sit["sides"][0]["combatants"][0]["position"]
    state = load(sit, notes)
    assert state.combatants[1].status == Status.UNCONSCIOUS  # derived from the wounds, and said so
    text = "\n".join(notes)
    assert "Kesh: location_hp not given, assumed unhurt (47 HP)" in text
    assert "Varo: status not given, unconscious" in text
    assert "Kesh: position not given, assumed 0 m" in text
    assert "then not given" in text and "round not given" in text
    full: list[str] = []
    load({**duel(kesh={"location_hp": {"torso": 9}}, varo={"location_hp": {"torso": 9}}), "round": 2}, full)
    assert full == []


def test_hit_table_matches_the_exact_probabilities():
    table = hit_table(12, 40)
    cells = [(n, k) for n in range(13) for k in range(21)] + [(12, 30), (12, 40), (5, 40)]
    worst = max(abs(table[n][k] - float(hit_probability(n, k))) for n, k in cells)
    assert worst < 1e-12


def test_importing_the_encoder_computes_no_probabilities():
    """Issue 8 §5: importing the encoder ran 533 exact probability computations (~2.5 s per command)."""
    code = (
        "import npc_tactics.systems.dicepool.encoder as e, npc_tactics.systems.dicepool.rules.pool as p;"
        "assert not hasattr(e, 'HIT');"
        "assert p.hit_table.cache_info().currsize == 0, p.hit_table.cache_info()"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
