"""Content validation: shipped bestiary and scenarios load; bad files fail with one line naming
file and field."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from npc_tactics.dice import ScriptedRoller
from npc_tactics.errors import ConfigError, UnknownNameError
from npc_tactics.rules.base import DecisionKind, Status
from npc_tactics.systems.runequest.rules import content
from npc_tactics.systems.runequest.rules.engine import RuneQuestEngine

REQUIRED = {
    "parry_duel",
    "dodge_duel",
    "spell_timing",
    "archer_vs_charge",
    "losing_retreat",
    "skirmish_3v3",
}


def _write(tmp_path: Path, data: object) -> str:
    p = tmp_path / "s.yaml"
    p.write_text(yaml.safe_dump(data), encoding="utf-8")
    return str(p)


def _scenario(**entry: object) -> dict[str, object]:
    return {
        "name": "x",
        "sides": [
            {"name": "a", "combatants": [{"template": "broo", **entry}]},
            {"name": "b", "combatants": [{"template": "trollkin"}]},
        ],
    }


def test_shipped_scenarios_and_bestiary() -> None:
    names = {n for n, _ in content.list_scenarios()}
    assert REQUIRED <= names
    for name in names:
        scen = content.load_scenario(name)
        s, _ = RuneQuestEngine().new_combat(scen, ScriptedRoller([]))
        assert s.round == 1 and len(s.combatants) <= 12
    b = content.bestiary()
    assert {
        "humakti_swordsman",
        "orlanthi_warrior",
        "lunar_archer",
        "shaman",
        "broo",
        "trollkin",
        "dark_troll",
        "great_troll",
        "wolf",
    } <= set(b)
    assert b["wolf"]["locations"] == "quadruped"


def test_derived_stat_block() -> None:
    c = content.make_combatant("orlanthi_warrior", {}, 0, 0.0, RuneQuestEngine().options)
    assert (c.max_hp, c.spec.dex_sr, c.spec.siz_sr, c.spec.db, c.mp) == (14, 3, 2, "1d4", 13)
    assert [loc.spec.max_hp for loc in c.locations] == [5, 5, 5, 6, 4, 4, 5]
    assert c.spec.move_m == 24.0 and c.is_ready(0) and c.is_ready(1) and not c.is_ready(2)


def test_unknown_template(tmp_path: Path) -> None:
    f = _write(
        tmp_path,
        {
            "name": "x",
            "sides": [
                {"name": "a", "combatants": [{"template": "gobln"}]},
                {"name": "b", "combatants": [{"template": "broo"}]},
            ],
        },
    )
    with pytest.raises(
        ConfigError,
        match=r"s\.yaml: sides\[0\]\.combatants\[0\]\.template: unknown template "
        r"'gobln'; valid: .*broo",
    ):
        content.load_scenario(f)


def test_unknown_key_and_bad_type(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"sides\[0\]\.combatants\[0\]\.hitpoints: unknown key"):
        content.load_scenario(_write(tmp_path, _scenario(hitpoints=3)))
    with pytest.raises(ConfigError, match=r"max_rounds: expected an integer"):
        content.load_scenario(_write(tmp_path, {**_scenario(), "max_rounds": "ten"}))
    with pytest.raises(
        ConfigError, match=r"sides\[0\]\.combatants\[0\]\.position: expected a number"
    ):
        content.load_scenario(_write(tmp_path, _scenario(position="near")))
    with pytest.raises(ConfigError, match=r"options\.crit_dmg: unknown rules option"):
        content.load_scenario(_write(tmp_path, {**_scenario(), "options": {"crit_dmg": "max"}}))
    with pytest.raises(ConfigError, match=r"^[^\n]*: unknown key 'sidez'"):
        content.load_scenario(_write(tmp_path, {**_scenario(), "sidez": []}))


def test_bad_ready_weapon_names_field(tmp_path: Path) -> None:
    f = _write(tmp_path, _scenario(ready=["greataxe"]))
    with pytest.raises(
        ConfigError, match=r"sides\[0\]\.combatants\[0\]\.ready\[0\]: unknown weapon 'greataxe'"
    ):
        RuneQuestEngine().new_combat(content.load_scenario(f), ScriptedRoller([]))


def test_unknown_scenario_name() -> None:
    with pytest.raises(UnknownNameError, match="parry_duel"):
        content.load_scenario("no_such_fight")


def test_scenario_options_apply() -> None:
    scen = {**content.load_scenario("parry_duel"), "options": {"crit_db": "max"}}
    eng = RuneQuestEngine()
    state, _ = eng.new_combat(scen, ScriptedRoller([]))
    assert state.options["crit_db"] == "max" and eng.options["crit_db"] == "rolled"
    with pytest.raises(ValueError, match="special_damage"):
        RuneQuestEngine({"special_damage": "triple"})


def test_situation_in_progress() -> None:
    eng = RuneQuestEngine()
    situation = {
        "name": "mid-fight",
        "round": 3,
        "acting": "Snik",
        "sides": [
            {
                "name": "a",
                "combatants": [
                    {
                        "template": "trollkin",
                        "name": "Snik",
                        "wounds": {"left_leg": 2},
                        "weapon_hp": {"small_shield": 3},
                    }
                ],
            },
            {"name": "b", "combatants": [{"template": "humakti_swordsman", "position": 1}]},
        ],
    }
    s = content.load_situation(eng, situation, ScriptedRoller([]))
    d = eng.pending(s)
    assert (d.kind, d.actor, s.round) == (DecisionKind.DECLARE, 0, 3)
    c = s.combatants[0]
    assert c.hp == c.max_hp - 2 and c.weapons[1].hp == 3 and c.engaged_start
    with pytest.raises(ConfigError, match=r"<situation>: acting: unknown combatant 'Snok'"):
        content.load_situation(eng, {**situation, "acting": "Snok"}, ScriptedRoller([]))
    with pytest.raises(ConfigError, match=r"wounds\.tail: unknown location 'tail'"):
        bad = {
            **situation,
            "sides": [
                {
                    "name": "a",
                    "combatants": [{"template": "trollkin", "name": "Snik", "wounds": {"tail": 1}}],
                },
                situation["sides"][1],
            ],
        }
        content.load_situation(eng, bad, ScriptedRoller([]))
    dead = {
        **situation,
        "sides": [
            {
                "name": "a",
                "combatants": [{"template": "trollkin", "name": "Snik", "status": "dead"}],
            },
            situation["sides"][1],
        ],
    }
    with pytest.raises(ConfigError, match="acting: 'Snik' is dead"):
        content.load_situation(eng, dead, ScriptedRoller([]))
    assert Status.DEAD
