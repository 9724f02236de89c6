"""Scenario and situation validation: every error is one ConfigError naming the file and the field."""

from __future__ import annotations

import pytest
import yaml

from npc_tactics.dice import RngRoller
from npc_tactics.errors import ConfigError, UnknownNameError
from npc_tactics.rules.base import DecisionKind
from npc_tactics.systems.dicepool.rules.content import (
    Scenario,
    list_scenarios,
    load_scenario,
    load_situation,
    scenario_from_mapping,
)
from npc_tactics.systems.dicepool.rules.engine import DicePoolEngine

REQUIRED = {"melee_duel", "shootout", "fast_vs_brutes", "lightning_vs_armour", "skirmish_2v3"}


def base() -> dict:
    return {
        "name": "t",
        "sides": [
            {"combatants": [{"template": "duelist"}]},
            {"combatants": [{"template": "duelist", "name": "b", "position": 1}]},
        ],
    }


def test_shipped_scenarios_load():
    names = {n for n, _ in list_scenarios()}
    assert REQUIRED <= names
    for name in names:
        sc = load_scenario(name)
        assert isinstance(sc, Scenario) and sc.fighters and sc.name == name
        assert {f.side for f in sc.fighters} == {0, 1}


def test_unknown_scenario_lists_names():
    with pytest.raises(UnknownNameError, match="melee_duel"):
        load_scenario("no_such_fight")


@pytest.mark.parametrize(
    "mutate, field, message",
    [
        (
            lambda d: d["sides"][0]["combatants"][0].update(template="gobln"),
            "sides[0].combatants[0].template",
            "unknown template 'gobln'; valid: ",
        ),
        (
            lambda d: d["sides"][1]["combatants"][0].update(position="far"),
            "sides[1].combatants[0].position",
            "expected a number",
        ),
        (
            lambda d: d["sides"][0]["combatants"][0].update(colour="red"),
            "sides[0].combatants[0].colour",
            "unknown key 'colour'",
        ),
        (lambda d: d.update(speed=3), "speed", "unknown key"),
        (lambda d: d.update(options={"aim_bonus": "four"}), "options.aim_bonus", "expects int"),
        (lambda d: d.update(options={"facing": True}), "options.facing", "unknown rules option"),
        (
            lambda d: d["sides"][0]["combatants"][0].update(skills={"sword": 20}),
            "sides[0].combatants[0].skills.sword",
            "out of range",
        ),
        (
            lambda d: d["sides"][0]["combatants"][0].update(readied="axe"),
            "sides[0].combatants[0].readied",
            "unknown weapon 'axe'",
        ),
        (
            lambda d: d["sides"][0]["combatants"][0].update(weapons=["sword", "laser"]),
            "sides[0].combatants[0].weapons[1]",
            "unknown weapon 'laser'",
        ),
        (
            lambda d: d["sides"][1]["combatants"][0].update(name="duelist"),
            "sides[1].combatants[0].name",
            "duplicate",
        ),
        (lambda d: d.update(max_rounds=0), "max_rounds", "out of range"),
    ],
)
def test_validation_errors_name_file_and_field(tmp_path, mutate, field, message):
    data = base()
    mutate(data)
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump(data))
    with pytest.raises(ConfigError) as info:
        load_scenario(str(path))
    err = info.value
    assert err.file == str(path) and err.field == field and message in err.message
    assert "\n" not in str(err)


def test_scenario_options_apply_and_engine_options_win():
    data = base()
    data["options"] = {"aim_bonus": 2, "reroll_chain": False}
    sc = scenario_from_mapping(data, "<t>")
    state, _ = DicePoolEngine().new_combat(sc, RngRoller(0))
    assert state.rules.aim_bonus == 2 and not state.rules.reroll_chain
    state, _ = DicePoolEngine({"aim_bonus": 5}).new_combat(sc, RngRoller(0))
    assert state.rules.aim_bonus == 5 and not state.rules.reroll_chain


def test_new_combat_accepts_a_mapping():
    state, _ = DicePoolEngine().new_combat(base(), RngRoller(1))
    assert len(state.combatants) == 2 and state.round >= 1


def test_situation_returns_acting_npc_decision():
    engine = DicePoolEngine()
    sit = {
        "round": 3,
        "acting": "Kesh",
        "then": ["Varo"],
        "sides": [
            {
                "combatants": [
                    {
                        "template": "duelist",
                        "name": "Kesh",
                        "location_hp": {"torso": 2, "left_arm": 0},
                    }
                ]
            },
            {
                "combatants": [
                    {"template": "duelist", "name": "Varo", "position": 1, "defense_dice": 2}
                ]
            },
        ],
    }
    state = load_situation(engine, sit, RngRoller(0))
    d = engine.pending(state)
    assert (d.actor, d.kind, d.round) == (0, DecisionKind.ACT, 3)
    kesh = state.combatants[0]
    assert kesh.loc_hp[1] == 2 and kesh.serious[3] and kesh.hp < kesh.max_hp
    assert state.combatants[1].defense_dice == 2  # Varo's dice stay until his own slot
    assert "Kesh" in engine.describe(state)


@pytest.mark.parametrize(
    "mutate, field",
    [
        (lambda d: d.update(acting="Nobody"), "acting"),
        (
            lambda d: d["sides"][0]["combatants"][0].update(location_hp={"tail": 3}),
            "sides[0].combatants[0].location_hp.tail",
        ),
        (
            lambda d: d["sides"][0]["combatants"][0].update(aim_target="Ghost"),
            "sides[0].combatants[0].aim_target",
        ),
        (
            lambda d: d["sides"][0]["combatants"][0].update(status="asleep"),
            "sides[0].combatants[0].status",
        ),
    ],
)
def test_situation_errors(mutate, field):
    sit = {
        "acting": "Kesh",
        "sides": [
            {"combatants": [{"template": "duelist", "name": "Kesh"}]},
            {"combatants": [{"template": "duelist", "name": "Varo", "position": 1}]},
        ],
    }
    mutate(sit)
    with pytest.raises(ConfigError) as info:
        load_situation(DicePoolEngine(), sit, RngRoller(0))
    assert info.value.field == field and info.value.file == "<situation>"
