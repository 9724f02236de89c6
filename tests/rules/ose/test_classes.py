"""The seven OSE classes at levels 1-14: the class tables, caps, equipment, ability modifiers, derived
templates, and a fight of a level-6 dwarf against an ogre.

Published numbers are restated here from the sources, not read back from classes.yaml:
[A] itaiag/OSE.SRD.Wiki "2. Classes/<n>. <Class>.md" (the OSE SRD level progression tables; commit 9e35b355),
[B] gglessner/BXish ".cursor/skills/bx-dungeon-master/03-character-classes.md" (the same OSE tables in
English; commit d12cd1ec). Both agree on every value checked below; docs/ose.md "Character classes".
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import yaml

from npc_tactics.dice import RngRoller
from npc_tactics.systems.ose.agents import ByTheBookAgent
from npc_tactics.systems.ose.rules import class_spells as S
from npc_tactics.systems.ose.rules import classes as C
from npc_tactics.systems.ose.rules import tables as T
from npc_tactics.systems.ose.rules.engine import OSEEngine
from npc_tactics.systems.ose.rules.templates import character_template, make_template, weapons

#: class -> {level: (HD column, THAC0, (D, W, P, B, S), spells per spell level)} from [A] and [B]
PUBLISHED: dict[str, dict[int, tuple[str, int, tuple[int, ...], tuple[int, ...]]]] = {
    "fighter": {
        1: ("1d8", 19, (12, 13, 14, 15, 16), ()),
        4: ("4d8", 17, (10, 11, 12, 13, 14), ()),
        9: ("9d8", 14, (8, 9, 10, 10, 12), ()),
        10: ("9d8+2", 12, (6, 7, 8, 8, 10), ()),
        14: ("9d8+10", 10, (4, 5, 6, 5, 8), ()),
    },
    "cleric": {
        1: ("1d6", 19, (11, 12, 14, 16, 15), (0, 0, 0, 0, 0)),
        4: ("4d6", 19, (11, 12, 14, 16, 15), (2, 1, 0, 0, 0)),
        6: ("6d6", 17, (9, 10, 12, 14, 12), (2, 2, 1, 1, 0)),
        9: ("9d6", 14, (6, 7, 9, 11, 9), (3, 3, 3, 2, 2)),
        14: ("9d6+5", 12, (3, 5, 7, 8, 7), (6, 5, 5, 5, 4)),
    },
    "magic_user": {
        1: ("1d4", 19, (13, 14, 13, 16, 15), (1, 0, 0, 0, 0, 0)),
        3: ("3d4", 19, (13, 14, 13, 16, 15), (2, 1, 0, 0, 0, 0)),
        6: ("6d4", 17, (11, 12, 11, 14, 12), (2, 2, 2, 0, 0, 0)),
        10: ("9d4+1", 17, (11, 12, 11, 14, 12), (3, 3, 3, 3, 2, 0)),
        11: ("9d4+2", 14, (8, 9, 8, 11, 8), (4, 3, 3, 3, 2, 1)),
        14: ("9d4+5", 14, (8, 9, 8, 11, 8), (4, 4, 4, 4, 3, 3)),
    },
    "thief": {
        1: ("1d4", 19, (13, 14, 13, 16, 15), ()),
        5: ("5d4", 17, (12, 13, 11, 14, 13), ()),
        9: ("9d4", 14, (10, 11, 9, 12, 10), ()),
        12: ("9d4+6", 14, (10, 11, 9, 12, 10), ()),
        13: ("9d4+8", 12, (8, 9, 7, 10, 8), ()),
    },
    "dwarf": {
        1: ("1d8", 19, (8, 9, 10, 13, 12), ()),
        4: ("4d8", 17, (6, 7, 8, 10, 10), ()),
        7: ("7d8", 14, (4, 5, 6, 7, 8), ()),
        10: ("9d8+3", 12, (2, 3, 4, 4, 6), ()),
        12: ("9d8+9", 12, (2, 3, 4, 4, 6), ()),
    },
    "elf": {
        1: ("1d6", 19, (12, 13, 13, 15, 15), (1, 0, 0, 0, 0)),
        3: ("3d6", 19, (12, 13, 13, 15, 15), (2, 1, 0, 0, 0)),
        4: ("4d6", 17, (10, 11, 11, 13, 12), (2, 2, 0, 0, 0)),
        9: ("9d6", 14, (8, 9, 9, 10, 10), (3, 3, 3, 2, 1)),
        10: ("9d6+2", 12, (6, 7, 8, 8, 8), (3, 3, 3, 3, 2)),
    },
    "halfling": {
        1: ("1d6", 19, (8, 9, 10, 13, 12), ()),
        4: ("4d6", 17, (6, 7, 8, 10, 10), ()),
        8: ("8d6", 14, (4, 5, 6, 7, 8), ()),
    },
}
CAPS = {"fighter": 14, "cleric": 14, "magic_user": 14, "thief": 14, "dwarf": 12, "elf": 10, "halfling": 8}
HIT_DIE = {"fighter": 8, "cleric": 6, "magic_user": 4, "thief": 4, "dwarf": 8, "elf": 6, "halfling": 6}


@pytest.mark.parametrize("cls, level", [(c, lv) for c, rows in PUBLISHED.items() for lv in rows])
def test_class_table_rows_match_the_published_tables(cls: str, level: int) -> None:
    """HD column, THAC0, the five saves and the spell slots at several levels of each class ([A], [B])."""
    hd, thac0, saves, slots = PUBLISHED[cls][level]
    cc = C.classes()[cls]
    row = C.level_row(cc, level, "t", "level")
    assert (C.hit_points(cc, row, 0), row.thac0, row.saves, row.slots) == (hd, thac0, saves, slots)


def test_caps_hit_dice_and_every_level_present() -> None:
    """Maximum levels (OSE Classic Fantasy: dwarf 12, elf 10, halfling 8) and hit dice ([A], SRD headers)."""
    table = C.classes()
    assert {n: c.max_level for n, c in table.items()} == CAPS
    assert {n: c.hit_die for n, c in table.items()} == HIT_DIE
    assert sum(c.max_level for c in table.values()) == 4 * 14 + 12 + 10 + 8  # 86 class/level pairs
    names = C.class_template_names()
    assert len(names) == 86 and names[0] == "fighter_1" and names[-1] == "halfling_8"
    for name in names:
        assert make_template(name).profile.level == int(name.rsplit("_", 1)[1])


@pytest.mark.parametrize("name, cap", sorted(CAPS.items()))
def test_above_the_cap_is_one_line_naming_it(name: str, cap: int) -> None:
    with pytest.raises(Exception, match=f"maximum level is {cap}") as err:
        make_template(f"{name}_{cap + 1}", None, "party.yaml", "sides[1].combatants[0].template")
    assert "\n" not in str(err.value) and "sides[1].combatants[0].template" in str(err.value)


def test_save_as_codes_of_every_class() -> None:
    """``save_as`` letters: the four human classes as before, and D/E/H for the demihumans."""
    assert T.save_row("D1") == (8, 9, 10, 13, 12)  # dwarf 1 ([A]; chargen.scriptwizards.org dwarf 1)
    assert T.save_row("E1") == (12, 13, 13, 15, 15)  # elf 1 ([A]; monstro.cc OSE Elf "(Elf 1)")
    assert T.save_row("H7") == (4, 5, 6, 7, 8)
    assert T.save_row("F20") == T.save_row("F14") and T.save_row("E12") == T.save_row("E10")
    with pytest.raises(ValueError, match="F/C/M/T/D/E/H"):
        T.save_row("X3")


# ----- equipment restrictions (OSE class descriptions, [A] and [B]) ------------------------------------


def test_class_weapon_and_armour_lists() -> None:
    """Clerics: the five blunt weapons (the weapons.yaml blunt mark agrees); magic-users: daggers, no
    armour, no shield; thieves: leather, no shield; dwarves and halflings: no long bow, no two-handed sword."""
    table = C.classes()
    raw = yaml.safe_load((C.CLASS_FILE.parent / "weapons.yaml").read_text())
    blunt = {n for n, w in raw.items() if w.get("blunt")}
    assert set(weapons()) == set(raw)
    assert set(table["cleric"].weapons or ()) == blunt == {"club", "mace", "sling", "staff", "war_hammer"}
    assert table["magic_user"].armour == () and not table["magic_user"].shield
    assert table["thief"].armour == ("leather",) and not table["thief"].shield
    for cls in ("dwarf", "halfling"):
        assert set(table[cls].forbidden_weapons) == {"long_bow", "two_handed_sword"}
    for cls in ("fighter", "elf", "dwarf"):
        assert table[cls].armour is None and table[cls].shield


def test_magic_user_in_plate_is_an_error() -> None:
    with pytest.raises(Exception, match=r"c\.armour: a magic_user cannot wear 'plate_mail'"):
        character_template({"class": "magic_user", "level": 5, "armour": "plate_mail"}, "f.yaml", "c")


def test_allowed_equipment_passes() -> None:
    for spec in (
        {"class": "cleric", "level": 2, "weapon": "war_hammer", "missile": "sling"},
        {"class": "thief", "level": 3, "armour": "leather", "weapon": "two_handed_sword"},
        {"class": "dwarf", "level": 2, "weapon": "battle_axe", "missile": "crossbow"},
        {"class": "halfling", "level": 2, "armour": "plate_mail", "missile": "short_bow"},
        {"class": "magic-user", "level": 1, "weapon": "silver_dagger"},
    ):
        character_template(spec, "f.yaml", "c")


# ----- ability modifiers (OSE SRD "Ability Scores", [A] 1. Characters/3. Ability Scores.md) -------------


def _spec(**kw: object) -> dict[str, object]:
    return {"class": "fighter", "level": 1, "armour": "none", "shield": False, "weapon": "sword", **kw}


@pytest.mark.parametrize("score, mod", [(3, -3), (5, -2), (8, -1), (9, 0), (12, 0), (13, 1), (16, 2), (18, 3)])
def test_str_dex_con_modifiers(score: int, mod: int) -> None:
    """STR: melee to hit and damage; DEX: AC and missile to hit; CON: hp per Hit Die (one table)."""
    p = character_template(_spec(str=score), "f", "c")[1].profile
    assert p.str_mod == mod
    p = character_template(_spec(dex=score), "f", "c")[1].profile
    assert (p.ac, p.dex_missile) == (9 - mod, mod)
    t = character_template(_spec(level=3, con=score), "f", "c")[1]
    assert t.hp == (f"3d8{3 * mod:+d}" if mod else "3d8")


def test_dex_initiative_and_flat_hp_after_ninth() -> None:
    """DEX initiative: 13-17 +1, 18 +2 (individual initiative); past 9th no CON: fighter 12 = 9d8+6."""
    assert character_template(_spec(dex=16), "f", "c")[1].profile.init_mod == 1
    assert character_template(_spec(dex=18), "f", "c")[1].profile.init_mod == 2
    assert character_template(_spec(level=12, con=18), "f", "c")[1].hp == "9d8+33"  # 9 x 3 + 6
    assert character_template(_spec(level=9, con=16), "f", "c")[1].hp == "9d8+18"


def test_templates_of_characters_yaml_have_their_stated_con() -> None:
    """Every shipped template's hp is the default its CON 13 derives (+1 per die)."""
    for name in ("fighter_2", "cleric_3", "magic_user_1", "thief_3", "evil_priest"):
        t = make_template(name)
        cc = C.classes()[t.profile.cls]
        assert t.hp == C.hit_points(cc, cc.levels[t.profile.level - 1], 1)


def test_halfling_missile_and_initiative_bonus() -> None:
    """+1 to missile attacks and +1 individual initiative, on top of DEX ([A] Halfling)."""
    p = character_template({"class": "halfling", "level": 1, "dex": 13}, "f", "c")[1].profile
    assert (p.dex_missile, p.init_mod) == (2, 2)


# ----- spells ---------------------------------------------------------------------------------------


def test_default_memorised_lists() -> None:
    """Slots dealt in turn to the modelled spells of each level; levels with none stay empty."""
    mu5 = make_template("magic_user_5").spells  # 2 1st, 2 2nd, 1 3rd: each level's slots dealt in turn
    assert {T.SPELL_NAMES[i]: n for i, n in enumerate(mu5) if n} == {
        "sleep": 1, "magic_missile": 1, "web": 1, "mirror_image": 1, "fire_ball": 1}
    c8 = make_template("cleric_8").spells  # 3 1st, 3 2nd, 2 3rd, ...
    assert {T.SPELL_NAMES[i]: n for i, n in enumerate(c8) if n} == {
        "cure_light_wounds": 1, "protection_from_evil": 1, "light": 1, "hold_person": 1, "bless": 1,
        "silence_15_radius": 1, "striking": 2}
    assert sum(make_template("dwarf_12").spells) == 0


def test_given_spells_within_the_slots() -> None:
    t = character_template({"class": "elf", "level": 3, "spells": {"magic_missile": 2}}, "f", "c")[1]
    assert t.spells[T.SPELL_NAMES.index("magic_missile")] == 2 and sum(t.spells) == 2


# ----- derived templates -----------------------------------------------------------------------------

#: template -> (AC, THAC0, save vs spells, encounter move in squares, hp dice, melee weapon, missile weapon)
DERIVED = {
    "elf_9": (4, 14, 10, 4, "9d6", "sword", None),  # chainmail 5, shield; elf 7-9 saves 8 9 9 10 10
    "dwarf_6": (4, 17, 10, 4, "6d8", "war_hammer", None),  # dwarf 4-6 saves 6 7 8 10 10
    "halfling_8": (6, 14, 8, 6, "8d6", "short_sword", "sling"),  # leather 7, shield; 90' -> 30'/round
    "thief_10": (7, 14, 10, 6, "9d4+2", "short_sword", "sling"),  # leather 7; thief 9-12 saves 10 11 9 12 10
}


@pytest.mark.parametrize("name", sorted(DERIVED))
def test_derived_profiles(name: str) -> None:
    t = make_template(name)
    p = t.profile
    assert (p.ac, p.thac0, p.save_spells, p.move, t.hp, p.melee_weapon, p.missile_weapon) == DERIVED[name]
    assert (p.kind, p.cls, p.level, p.hd, p.morale, p.humanoid) == ("character", name.split("_")[0],
                                                                  int(name.split("_")[1]), p.level, 0, True)


def test_elf_9_spells_and_what_stays_empty() -> None:
    """An elf 9 memorises 3/3/3/2/1: levels 1-3 from the modelled spells (Lightning Bolt among them), levels 4-5
    stay empty (no 4th- or 5th-level spell is modelled)."""
    t = make_template("elf_9")
    assert {T.SPELL_NAMES[i]: n for i, n in enumerate(t.spells) if n} == {
        "sleep": 1, "magic_missile": 1, "shield": 1, "web": 1, "mirror_image": 1, "invisibility": 1,
        "fire_ball": 1, "lightning_bolt": 1, "haste": 1}
    cc = C.classes()["elf"]
    assert S.empty_slots(cc.levels[8], t.spells) == (0, 0, 0, 2, 1)


def test_halfling_8_and_thief_10_class_data() -> None:
    h = make_template("halfling_8")
    assert (h.profile.dex_missile, h.profile.init_mod, h.ammo) == (1, 1, 20)
    assert C.classes()["thief"].backstab == (4, 2)  # +4 to hit, double damage ([A] Thief "Back-stab")


def test_class_spec_uses_the_kit_for_what_it_omits() -> None:
    name, t = character_template({"class": "dwarf", "level": 6, "weapon": "battle_axe"}, "f", "c")
    assert name == "dwarf_6" and t.profile.melee_weapon == "battle_axe" and t.profile.shield == 0  # two-handed
    assert t.profile.ac == 5  # chainmail, the kit's shield unusable with a two-handed axe


# ----- a fight to the end ---------------------------------------------------------------------------


def _play(sc: dict[str, Any], seed: int) -> tuple[Any, int]:
    """One fight to its end between two by-the-book agents: (outcome, decisions)."""
    engine = OSEEngine()
    roller = RngRoller(np.random.default_rng(seed))
    agents = [ByTheBookAgent(rng=np.random.default_rng(seed + k)) for k in (0, 1)]
    state, _ = engine.new_combat(sc, roller)
    decisions = 0
    while (d := engine.pending(state)) is not None and decisions < 2000:
        mask = engine.legal_mask(state)
        side = state.combatants[d.actor].side
        choice = agents[side].choose(state, d.actor, d.kind, d.context.get("phase", "declare"), mask)
        action = int(choice) if choice is not None and mask[choice] else int(np.flatnonzero(mask)[0])
        state, _ev = engine.step(state, action, roller, inplace=True)
        decisions += 1
    return engine.outcome(state), decisions


def test_level_6_dwarf_against_an_ogre_plays_to_the_end() -> None:
    sc = {"name": "dwarf_vs_ogre", "sides": [
        {"combatants": [{"template": "ogre", "name": "Ogre"}]},
        {"combatants": [{"template": "dwarf_6", "name": "Durin", "position": 6}]},
    ]}
    winners = set()
    for seed in range(8):
        outcome, decisions = _play(sc, seed)
        assert outcome is not None and 0 < decisions < 2000
        winners.add(str(outcome))
    assert winners  # every fight ended with an outcome
