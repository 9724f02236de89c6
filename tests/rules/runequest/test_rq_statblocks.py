"""The GM's own RQG stat blocks (issue 27): inline in a combatant, in user bestiary files, characteristics as
dice rolled with the fight's dice, hit locations derived per the rules (reference §15, Published data)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from npc_tactics.configs.bestiaries import ENV
from npc_tactics.dice import ScriptedRoller
from npc_tactics.errors import ConfigError
from npc_tactics.systems.runequest.rules import calc
from npc_tactics.systems.runequest.rules.bestiary_files import shipped_bestiary
from npc_tactics.systems.runequest.rules.content import bestiary_listing, check_bestiary, load_situation
from npc_tactics.systems.runequest.rules.engine import RuneQuestEngine
from npc_tactics.systems.runequest.rules.scenario import bestiary, validate_scenario

CHIEF = """Broo chief
STR 3D6+6  CON 13  SIZ 15  DEX 11  INT 12  POW 13  CHA 7
Move 8
Skills: Dodge 35%
Location   D20    AP/HP
Right Leg  01-04  3/5
Left Leg   05-08  3/5
Abdomen    09-11  3/5
Chest      12     3/6
Right Arm  13-15  3/4
Left Arm   16-18  3/4
Head       19-20  4/5
Weapon        %    Damage       SR  HP
Battleaxe     65   1D8+2+1D4    6   10
Head Butt     50   1D6+1D4      7   -
Ready: battleaxe
Kind: chaos
"""


def scenario(*entries: dict) -> dict:
    return {"name": "t", "distance": 1,
            "sides": [{"combatants": [entries[0]]}, {"combatants": list(entries[1:]) or [{"template": "broo"}]}]}


def build(*entries: dict, dice: list[int] | None = None):
    eng = RuneQuestEngine()
    scen = validate_scenario(scenario(*entries), "<t>")
    state, events = eng.new_combat(scen, ScriptedRoller(list(dice or [])))
    return state, events


def test_pasted_stat_block_inline_rolls_its_dice_characteristic_with_the_fight_dice() -> None:
    # STR 3D6+6 rolled 4+5+6 = 15 + 6 = 21: STR+SIZ 36 -> db 1d6 (Published data, 33-40)
    s, events = build({"name": "Broo chief", "stat_block": CHIEF}, dice=[4, 5, 6])
    chief = s.combatants[0]
    assert chief.spec.str_ == 21 and chief.spec.db == "1d6"
    assert [e.kind for e in events][:1] == ["roll"]
    # total HP = CON 13 + SIZ 15 modifier (+1) = 14; head 3/5 of the table; weapons back to their own values
    assert chief.max_hp == 14 == calc.total_hp(13, 15, 13)
    assert [(loc.spec.name, loc.spec.armour, loc.spec.max_hp) for loc in chief.locations][-1] == ("head", 4, 5)
    axe, butt = chief.weapons
    assert (axe.spec.name, axe.spec.damage, axe.spec.sr, axe.spec.max_hp, axe.spec.skill) == ("battleaxe", "1d8+2",
                                                                                              2, 10, 65)
    assert (butt.spec.name, butt.spec.parry, butt.spec.hands) == ("head_butt", False, 0)
    assert chief.spec.dodge == 35
    # the book's SR column is DEX SR 3 + SIZ SR 1 + the weapon's: 6 -> the battleaxe's own 2, 7 -> head butt 3
    assert butt.spec.sr == 3


def test_the_same_seed_rolls_the_same_chief_and_a_fixed_block_rolls_nothing() -> None:
    a, _ = build({"name": "c", "stat_block": CHIEF}, dice=[1, 1, 1])
    assert a.combatants[0].spec.str_ == 9
    _, events = build({"template": "broo"})
    assert not [e for e in events if e.kind == "roll"]


def test_full_fields_without_template_and_derived_locations() -> None:
    s, _ = build({"name": "Gor", "characteristics": {"STR": 22, "CON": 16, "SIZ": 22, "DEX": 10, "INT": 12,
                                                      "POW": 12, "CHA": 8},
                  "armour": 5, "weapons": [{"weapon": "troll_maul", "skill": 70},
                                           {"name": "claw", "skill": 40, "damage": "1d6", "sr": 3,
                                            "natural": True}]})
    gor = s.combatants[0]
    # CON 16 + SIZ 22 modifier (ceil(22/4) - 3 = +3) = 19; 19 total -> legs 7, chest 8, arms 6 (§15 +1 per 3)
    assert gor.max_hp == 19
    assert {loc.spec.name: loc.spec.max_hp for loc in gor.locations} == {
        "right_leg": 7, "left_leg": 7, "abdomen": 7, "chest": 8, "right_arm": 6, "left_arm": 6, "head": 7}
    assert gor.weapons[1].spec.wclass == "natural" and not gor.weapons[1].spec.parry


def test_a_template_entry_changes_its_max_hp_and_the_situation_hp_follows() -> None:
    sit = {"acting": "Grak", "sides": [
        {"combatants": [{"name": "Grak", "template": "dark_troll", "max_hp": 20, "hp": 20}]},
        {"combatants": [{"template": "broo", "position": 1.5}]}]}
    s = load_situation(RuneQuestEngine(), sit, ScriptedRoller([]), [])
    assert (s.combatants[0].hp, s.combatants[0].max_hp) == (20, 20)
    sit["sides"][0]["combatants"][0] = {"name": "Grak", "template": "dark_troll", "hp": 20}
    with pytest.raises(ConfigError, match=r"combatants\[0\]\.hp: 20 is more than its maximum 13 HP.*max_hp"):
        load_situation(RuneQuestEngine(), sit, ScriptedRoller([]), [])


def test_a_situation_notes_the_rolled_characteristic() -> None:
    notes: list[str] = []
    sit = {"acting": "c", "sides": [{"combatants": [{"name": "c", "stat_block": CHIEF}]},
                                    {"combatants": [{"template": "broo", "position": 1.5}]}]}
    load_situation(RuneQuestEngine(), sit, ScriptedRoller([6, 6, 6]), notes)
    assert "c STR: 3D6+6 rolled 24" in notes


@pytest.mark.parametrize(("entry", "expected"), [
    ({"template": "broo", "stat_block": CHIEF}, r"stat_block: give template .* or stat_block"),
    ({"name": "x"}, r"template: missing required key \(or give stat_block"),
    ({"template": "broo", "characteristics": {"STR": "3d6+100"}}, r"characteristics\.STR: '3d6\+100' rolls 103\.\.118"),
    ({"template": "broo", "weapons": [{"name": "tentacle", "skill": 40}]},
     r"weapons\[0\]\.damage: missing required key"),
    ({"template": "broo", "weapons": [{"name": "axe", "skill": 40, "damage": "1d6", "sr": 2, "hp": 0}]},
     r"weapons\[0\]\.hp: 0: a weapon without hit points is natural"),
    ({"template": "broo", "hit_locations": [{"name": "body", "d20": "1-19", "kind": "chest"}]},
     r"hit_locations: the D20 bands end at 19"),
    ({"template": "broo", "hit_locations": [{"name": f"l{i}", "d20": i + 1, "kind": "limb"} for i in range(13)]},
     r"hit_locations: expected a list of 1 to 12 locations"),
])
def test_bad_inline_blocks_are_one_line_errors(entry: dict, expected: str) -> None:
    with pytest.raises(ConfigError, match=expected) as info:
        validate_scenario(scenario(entry), "s.yaml")
    assert "\n" not in str(info.value) and str(info.value).startswith("s.yaml: sides[0].combatants[0]")


def write(tmp_path: Path, text: str) -> str:
    p = tmp_path / "rq.yaml"
    p.write_text(text, encoding="utf-8")
    return str(p)


def test_user_bestiary_file_adds_templates_listing_and_check(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    block = "\n".join("  " + line for line in CHIEF.splitlines())
    path = write(tmp_path, f"system: runequest\nbroo_chief: |\n{block}\nbig_troll:\n"
                           "  characteristics: {STR: 22, CON: 16, SIZ: 22, DEX: 10, INT: 12, POW: 12, CHA: 8}\n"
                           "  weapons: [{weapon: troll_maul, skill: 70}]\n  ready: [troll_maul]\n")
    monkeypatch.setenv(ENV, os.pathsep.join([path]))
    assert {"broo_chief", "big_troll"} <= set(bestiary()) and "broo_chief" not in shipped_bestiary()
    rows = {r["name"]: r for r in bestiary_listing()}
    assert rows["broo_chief"]["kind"] == "chaos" and not rows["broo_chief"]["shipped"]
    assert rows["broo"]["shipped"] and rows["broo"]["stat_block"].startswith("Description: Chaos broo")
    s, _ = build({"template": "big_troll"})
    assert s.combatants[0].max_hp == 19
    result = check_bestiary(path)
    assert result["errors"] == [] and [e["name"] for e in result["entries"]] == ["broo_chief", "big_troll"]


@pytest.mark.parametrize(("text", "expected"), [
    ("system: runequest\nbroo: {characteristics: {STR: 1}}\n", "broo: is a shipped template"),
    ("broo2: 'STR 1'\n", "system: missing: a RuneQuest bestiary says system: runequest"),
    ("system: runequest\nx: 12\n", "x: expected a stat line or stat block (text)"),
    ("system: runequest\nx: 'STR 10 CON 10 SIZ 10 DEX 10 INT 10 POW 10 CHA10'\n", "x: line 1: 'CHA10': expected pairs"),
])
def test_a_bad_user_bestiary_gives_one_line_per_mistake(tmp_path: Path, text: str, expected: str) -> None:
    path = write(tmp_path, text)
    errors = check_bestiary(path)["errors"]
    assert len(errors) == 1 and expected in errors[0] and errors[0].startswith(path) and "\n" not in errors[0]


def test_magic_points_stand_in_for_pow_where_the_stat_block_gives_them() -> None:
    """Zombie: POW 1 but 5 MP, as in Chaosium's GM example (Well of Daliath: "Hit Points 16, Magic Points 5");
    the Bestiary Q&A: a creature without POW resists with its MP."""
    s, _ = build({"template": "zombie"})
    z = s.combatants[0]
    assert (z.max_hp, z.mp, z.max_mp, z.spec.db) == (16, 5, 5, "1d6")
    assert (z.weapons[0].spec.damage, z.weapons[0].spec.skill) == ("1d6+1", 50)  # "1H Spear 50% 1d6+1+1d6"
