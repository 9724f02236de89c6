"""Published OSE data pinned to the values checked against public sources.

docs/ose.md "Published data checked" lists every fact with its source URL.
"""

from __future__ import annotations

import dataclasses

import pytest
from ose_helpers import Fight, scenario

from npc_tactics.rules.base import Status
from npc_tactics.systems.ose.rules import tables as T
from npc_tactics.systems.ose.rules.templates import armour, make_template, raw_templates, weapons

# ----- saving throws -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "save_as, row",
    [
        ("NH", (14, 15, 16, 17, 18)),  # OSE SRD Combat Tables / Goblin "(NH)"
        ("F1", (12, 13, 14, 15, 16)),  # Fighter 1-3
        ("F3", (12, 13, 14, 15, 16)),
        ("F4", (10, 11, 12, 13, 14)),  # Fighter 4-6 = OSE Ogre "(4)"
        ("F7", (8, 9, 10, 10, 12)),
        ("F10", (6, 7, 8, 8, 10)),
        ("F13", (4, 5, 6, 5, 8)),
        ("C1", (11, 12, 14, 16, 15)),  # Cleric 1-4
        ("C4", (11, 12, 14, 16, 15)),
        ("C5", (9, 10, 12, 14, 12)),
        ("C9", (6, 7, 9, 11, 9)),
        ("C13", (3, 5, 7, 8, 7)),
        ("T1", (13, 14, 13, 16, 15)),  # Thief 1-4
        ("T5", (12, 13, 11, 14, 13)),
        ("T9", (10, 11, 9, 12, 10)),
        ("T13", (8, 9, 7, 10, 8)),
        ("M1", (13, 14, 13, 16, 15)),  # Magic-user 1-5 (OSE SRD "Medium": MU1)
        ("M3", (13, 14, 13, 16, 15)),
    ],
)
def test_saving_throw_rows(save_as: str, row: tuple[int, ...]) -> None:
    assert T.save_row(save_as) == row


def test_fighter_1_saves_vs_spells_on_16() -> None:
    assert T.save_row("F1")[T.SAVE_CATEGORIES.index("spells")] == 16


# ----- character templates, levels 1-3 -----------------------------------------------------------

#: template -> (AC, THAC0, save vs spells, encounter move in squares, hp dice)
CHARACTERS = {
    "fighter_1": (4, 19, 16, 4, "1d8+1"),  # chain 5, shield, DEX 10
    "fighter_2": (4, 19, 16, 4, "2d8+2"),
    "fighter_3": (2, 19, 16, 4, "3d8+3"),  # plate 3, shield
    "cleric_1": (4, 19, 15, 4, "1d6+1"),
    "cleric_2": (4, 19, 15, 4, "2d6+2"),
    "cleric_3": (2, 19, 15, 4, "3d6+3"),
    "magic_user_1": (8, 19, 15, 8, "1d4+1"),  # unarmoured 9, DEX 13 (+1)
    "magic_user_2": (8, 19, 15, 8, "2d4+2"),
    "magic_user_3": (8, 19, 15, 8, "3d4+3"),  # DEX 14
    "thief_1": (5, 19, 15, 6, "1d4+1"),  # leather 7, DEX 16 (+2), no shield
    "thief_2": (5, 19, 15, 6, "2d4+2"),
    "thief_3": (5, 19, 15, 6, "3d4+3"),  # DEX 17
    "evil_priest": (4, 19, 15, 4, "4d6+4"),  # cleric 4
}


@pytest.mark.parametrize("name", sorted(CHARACTERS))
def test_character_template(name: str) -> None:
    t = make_template(name)
    p = t.profile
    assert (p.ac, p.thac0, p.save_spells, p.move, t.hp) == CHARACTERS[name]


def test_class_equipment_limits() -> None:
    for lvl in (1, 2, 3):
        assert make_template(f"magic_user_{lvl}").profile.melee_weapon == "dagger"
        assert make_template(f"thief_{lvl}").profile.shield == 0
        assert make_template(f"cleric_{lvl}").profile.melee_weapon == "mace"  # blunt only
    assert weapons()["mace"]["slow"] is False


def test_spells_memorised_by_clerics() -> None:
    sid = T.SPELL_NAMES.index
    assert sum(make_template("cleric_1").spells) == 0  # none at level 1
    assert make_template("cleric_2").spells[sid("cure_light_wounds")] == 1
    assert make_template("cleric_3").spells[sid("cure_light_wounds")] == 2
    assert make_template("evil_priest").spells[sid("hold_person")] == 1


# ----- monsters ----------------------------------------------------------------------------------

#: template -> (AC, HD, HD plus, THAC0, damage, base movement feet, ML, save_as)
MONSTERS = {
    "kobold": (7, 1, -4, 19, "1d4", 60, 6, "NH"),  # 1/2 HD
    "goblin": (6, 1, -1, 19, "1d6", 60, 7, "NH"),
    "orc": (6, 1, 0, 19, "1d6", 120, 6, "F1"),
    "skeleton": (7, 1, 0, 19, "1d6", 60, 12, "F1"),
    "hobgoblin": (6, 1, 1, 18, "1d8", 90, 8, "F1"),
    "gnoll": (5, 2, 0, 18, "2d4", 90, 8, "F2"),
    "bugbear": (5, 3, 1, 16, "2d4", 90, 9, "F3"),
    "ogre": (5, 4, 1, 15, "1d10", 90, 10, "F4"),
}


@pytest.mark.parametrize("name", sorted(MONSTERS))
def test_monster_stat_line(name: str) -> None:
    ac, hd, plus, thac0, dmg, feet, ml, save_as = MONSTERS[name]
    p = make_template(name).profile
    assert (p.ac, p.hd, p.hd_plus, p.thac0, p.melee_damage, p.morale) == (
        ac,
        hd,
        plus,
        thac0,
        dmg,
        ml,
    )
    assert p.move == T.feet_to_squares(feet // 3)
    assert raw_templates()[name][1].get("save_as", "NH") == save_as


def test_by_weapon_bonus_and_undead() -> None:
    assert make_template("kobold").profile.melee_damage_var == "1d4-1"  # dagger, "weapon -1"
    assert make_template("bugbear").profile.melee_damage_var == "1d6+1"  # mace, "by weapon +1"
    sk = make_template("skeleton").profile
    assert sk.undead and {"sleep", "hold", "charm", "poison"} <= sk.immune


# ----- weapons and armour ------------------------------------------------------------------------

WEAPONS = {
    "battle_axe": ("1d8", True, None),
    "club": ("1d4", False, None),
    "crossbow": ("1d6", True, (80, 160, 240)),
    "dagger": ("1d4", False, (10, 20, 30)),
    "hand_axe": ("1d6", False, (10, 20, 30)),
    "javelin": ("1d4", False, (30, 60, 90)),
    "lance": ("1d6", False, None),
    "long_bow": ("1d6", False, (70, 140, 210)),
    "mace": ("1d6", False, None),
    "polearm": ("1d10", True, None),
    "short_bow": ("1d6", False, (50, 100, 150)),
    "short_sword": ("1d6", False, None),
    "silver_dagger": ("1d4", False, (10, 20, 30)),
    "sling": ("1d4", False, (40, 80, 160)),
    "spear": ("1d6", False, (20, 40, 60)),
    "staff": ("1d4", True, None),
    "sword": ("1d8", False, None),
    "two_handed_sword": ("1d10", True, None),
    "war_hammer": ("1d6", False, None),
}


def test_weapons() -> None:
    table = weapons()
    assert set(table) == set(WEAPONS)
    for name, (dmg, slow, ranges) in WEAPONS.items():
        assert (str(table[name]["damage"]), table[name]["slow"], table[name]["ranges"]) == (
            dmg,
            slow,
            ranges,
        ), name


def test_armour_and_encumbrance_movement() -> None:
    table, shield = armour()
    assert table == {
        "none": (9, 120),
        "leather": (7, 90),
        "chainmail": (5, 60),
        "plate_mail": (3, 60),
    }
    assert shield == 1
    assert {k: v[1] for k, v in table.items()} == T.ARMOUR_MOVEMENT
    assert T.feet_to_squares(120 // T.ENCOUNTER_FRACTION) == 8  # 120' (40'): 12 m a round


# ----- spells ------------------------------------------------------------------------------------


def test_spell_data() -> None:
    assert T.SPELLS["magic_missile"][2] == 150 and T.MAGIC_MISSILE_DAMAGE == "1d6+1"
    assert T.SPELLS["sleep"][2] == 240 and T.SLEEP_HD == "2d8"
    assert T.SPELLS["hold_person"][:3] == (2, "cleric", 180)
    assert T.HOLD_PERSON_SINGLE_PENALTY == -2
    assert T.SPELLS["cure_light_wounds"][2] == 0 and T.CURE_LIGHT_WOUNDS == "1d6+1"


def sleeping(f: Fight) -> list[str]:
    return [c.name for c in f.state.combatants if c.status == Status.INCAPACITATED]


def sleep_fight(monsters: list[tuple[str, str]], dice: list[int], target: int = 0) -> Fight:
    sc = scenario(
        [{"template": t, "name": n, "position": 0, "hp": 30} for t, n in monsters],
        [{"template": "magic_user_1", "name": "M", "position": 24, "hp": 4}],
    )
    f = Fight(sc, [1, 6, *dice])  # the magic-user's side wins initiative, then 2d8
    f.do(f"cast:sleep:enemy_{target}", "M:declare")
    return f


def test_sleep_single_4_plus_1_creature_alone_without_roll() -> None:
    f = sleep_fight([("ogre", "O"), ("kobold", "K")], [])
    assert sleeping(f) == ["O"]
    assert [e.data["mode"] for e in f.kinds("sleep")] == ["single"]


def test_sleep_2d8_mode_leaves_out_4_plus_1() -> None:
    f = sleep_fight([("kobold", "K"), ("ogre", "O")], [8, 8])  # 16 HD, aimed at the kobold
    assert sleeping(f) == ["K"] and f.c("O").status == Status.ACTIVE


def test_sleep_bonus_hd_counts_flat_and_excess_is_wasted() -> None:
    # 2d8 = 3: kobold (under 1 HD counts 1), then 2 HD left < bugbear 3+1 (counts 3): wasted
    f = sleep_fight([("bugbear", "B"), ("kobold", "K")], [1, 2])
    assert sleeping(f) == ["K"]
    # 2d8 = 4: kobold 1 + bugbear 3
    f = sleep_fight([("bugbear", "B"), ("kobold", "K")], [2, 2])
    assert sleeping(f) == ["B", "K"]


def test_sleep_fewest_hd_first_and_undead_unaffected() -> None:
    # the skeleton (undead) never counts; the goblin (1 HD) goes before the gnoll (2 HD)
    f = sleep_fight([("gnoll", "N"), ("skeleton", "S"), ("goblin", "G")], [1, 1])  # 2 HD
    assert sleeping(f) == ["G"]
    f = sleep_fight([("gnoll", "N"), ("skeleton", "S"), ("goblin", "G")], [8, 8])  # 16 HD
    assert sleeping(f) == ["N", "G"]


def hold_fight(target: dict, dice: list[int], **prof: int) -> Fight:
    sc = scenario(
        [{"template": "evil_priest", "name": "P", "position": 0, "hp": 10}],
        [{"name": "X", "position": 15, "hp": 30, **target}],
    )
    f = Fight(sc, [6, 1, *dice])  # the priest's side wins initiative, then the target's save
    if prof:
        x = f.c("X")
        x.prof = dataclasses.replace(x.prof, **prof)
    f.do("cast:hold_person:enemy_0", "P:declare")
    return f


def test_hold_person_holds_humans_of_any_level() -> None:
    f = hold_fight({"template": "fighter_1"}, [17], level=6, hd=6)  # 17 - 2 = 15 < 16: held
    assert [e.data["result"] for e in f.kinds("save")] == ["failed"]
    assert f.c("X").status == Status.INCAPACITATED


def test_hold_person_monster_hd_limit_is_4_plus_1() -> None:
    f = hold_fight({"template": "ogre"}, [2])  # 4+1 HD human-like monster: affected, saves on 14
    assert [e.data["need"] for e in f.kinds("save")] == [14]
    f = hold_fight({"template": "ogre"}, [], hd_plus=2)  # 4+2 HD: unaffected
    assert [e.data["result"] for e in f.kinds("hold")] == ["unaffected"] and not f.kinds("save")


def test_magic_missile_count_by_level() -> None:
    sc = scenario(
        [{"template": "ogre", "name": "O", "position": 0, "hp": 40}],
        [{"template": "magic_user_2", "name": "M", "position": 24, "hp": 5}],
    )
    for level, missiles in ((1, 1), (5, 1), (6, 3), (11, 5)):
        f = Fight(sc, [1, 6, *[1] * missiles])
        m = f.c("M")
        m.prof = dataclasses.replace(m.prof, level=level)
        f.do("cast:magic_missile:enemy_0", "M:declare")
        dmg = [e.data["amount"] for e in f.kinds("damage") if e.data["cause"] == "magic_missile"]
        assert dmg == [2] * missiles, level  # each 1d6+1, no attack roll
