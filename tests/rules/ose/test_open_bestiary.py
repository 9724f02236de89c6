"""The open bestiary (``content/monsters/open.yaml``, docs/ose-bestiary.md): every entry's OSE stat line parses and
round-trips (parse -> print -> parse), its ability keys come from the documented vocabulary with valid values and
agree with its stat line, its name clashes with no shipped template, and a handful of published numbers are pinned
against the OSE SRD pages they were read from.

The file is not loaded by the engine yet; these checks keep it ready for the loader (docs/ose-bestiary.md)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from npc_tactics.configs import load_yaml, system_dir
from npc_tactics.systems.ose.rules import statline_words as W
from npc_tactics.systems.ose.rules.statline import Attack, MonsterStats, parse_stat_line, weapon_forms
from npc_tactics.systems.ose.rules.statline_print import format_stat_line

OPEN = system_dir("ose") / "monsters" / "open.yaml"
ENTRIES: dict[str, dict[str, Any]] = dict(load_yaml(OPEN))  # strict loader: a repeated name is an error
NAMES = sorted(ENTRIES)

#: The keys an entry may carry (docs/ose-bestiary.md "Entry keys") and the vocabularies of their values.
REQUIRED = ("stat_line", "description", "kind", "faction", "humanoid", "undead", "source")
OPTIONAL = ("immune", "hit_by", "halved", "regenerate", "regenerate_after", "regenerate_not", "revives",
            "paralysis_spares", "breath", "gaze", "effect_saves", "constrict", "swallow", "weapon", "missile", "notes")
KINDS = frozenset({"human", "demihuman", "humanoid", "giant", "undead", "animal", "giant_animal", "monstrosity",
                   "dragon", "construct", "ooze", "lycanthrope", "enchanted", "plant", "insect"})
#: "melee", "missile": weapons of that kind do it no damage (templates.IMMUNITIES)
IMMUNE = frozenset({"sleep", "charm", "hold", "paralysis", "poison", "fire", "cold", "lightning", "acid", "gas",
                    "energy_drain", "petrification", "disease", "melee", "missile"})
DAMAGE_KINDS = frozenset({"fire", "cold", "lightning", "acid", "gas", "poison"})
HALVED = DAMAGE_KINDS
HIT_BY = frozenset({"silver", "magic"})
SAVES = frozenset({"death", "wands", "paralysis", "breath", "spells"})
#: classes, or "large": creatures larger than ogres (above 4+1 HD)
SPARED = frozenset({"fighter", "cleric", "magic_user", "thief", "dwarf", "elf", "halfling", "large"})
BREATH_KEYS = frozenset({"kind", "damage", "shape", "length", "width", "height", "save", "uses", "chance"})
BREATH_SHAPES = frozenset({"cone", "line", "cloud"})
GAZE_EFFECTS = frozenset({"petrification", "paralysis", "charm"})
DICE = re.compile(r"\d+d\d+")
SNAKE = re.compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)*")
SRD = "[SRD]"


def _shipped_names() -> set[str]:
    names: set[str] = set()
    for file in ("bestiary.yaml", "characters.yaml"):
        names |= set(load_yaml(system_dir("ose") / file))
    return names


def _stats(name: str) -> MonsterStats:
    return parse_stat_line(ENTRIES[name]["stat_line"])


def test_the_open_bestiary_has_at_least_sixty_monsters_with_new_names() -> None:
    assert len(ENTRIES) >= 60
    assert all(SNAKE.fullmatch(n) for n in NAMES), [n for n in NAMES if not SNAKE.fullmatch(n)]
    assert not set(NAMES) & _shipped_names()  # kobold ... ogre and the class templates stay where they are


def test_it_spans_half_a_hit_die_to_more_than_eight() -> None:
    stats = [_stats(n) for n in NAMES]
    assert any(s.half_hd for s in stats)
    assert sum(1 for s in stats if s.hd > 8) >= 10


@pytest.mark.parametrize("name", NAMES)
def test_every_stat_line_parses_and_round_trips(name: str) -> None:
    s = _stats(name)
    printed = format_stat_line(s)
    assert parse_stat_line(printed) == s
    assert format_stat_line(parse_stat_line(printed)) == printed  # the printed line is a fixed point


@pytest.mark.parametrize("name", NAMES)
def test_every_entry_uses_the_documented_keys_and_vocabularies(name: str) -> None:
    e = ENTRIES[name]
    assert not [k for k in REQUIRED if k not in e], name
    assert not [k for k in e if k not in REQUIRED + OPTIONAL], name
    assert e["kind"] in KINDS
    assert SNAKE.fullmatch(e["faction"])
    assert isinstance(e["humanoid"], bool) and isinstance(e["undead"], bool)
    assert isinstance(e["description"], str) and "\n" not in e["description"].strip() and e["description"]
    assert e["source"].startswith(("[SRD] ", "[BX] "))
    assert set(e.get("immune", [])) <= IMMUNE
    assert set(e.get("halved", [])) <= HALVED
    assert set(e.get("regenerate_not", [])) <= DAMAGE_KINDS
    assert set(e.get("paralysis_spares", [])) <= SPARED
    assert e.get("hit_by", "silver") in HIT_BY
    for effect, save in e.get("effect_saves", {}).items():
        assert effect in W.EFFECTS and save in SAVES, (effect, save)
    if "notes" in e:
        assert isinstance(e["notes"], str) and e["notes"].strip()


@pytest.mark.parametrize("name", NAMES)
def test_the_ability_keys_agree_with_the_stat_line(name: str) -> None:
    e, s = ENTRIES[name], _stats(name)
    effects = {x for a in s.attacks for x in a.effects}
    assert (e["kind"] == "undead") == e["undead"]
    if e["kind"] in ("human", "demihuman"):
        assert e["humanoid"]
    if "paralysis_spares" in e:
        assert "paralysis" in effects
    if "effect_saves" in e:
        assert set(e["effect_saves"]) <= effects
    if "regenerate" in e:
        assert isinstance(e["regenerate"], int) and e["regenerate"] > 0
        assert isinstance(e.get("regenerate_after", 0), int) and e.get("regenerate_after", 0) >= 0
    else:
        assert not {"regenerate_after", "regenerate_not", "revives"} & set(e)
    if "revives" in e:
        assert DICE.fullmatch(e["revives"])
    forms = weapon_forms()
    carried = [forms[a.form] for a in s.attacks if a.form in forms]
    if carried:  # "1 × mace (1d6)": the weapon carried is the one the line names
        assert e.get("weapon") == carried[0]
    weapons = load_yaml(system_dir("ose") / "weapons.yaml")
    if "weapon" in e:
        assert e["weapon"] in weapons and not weapons[e["weapon"]].get("missile")
    if "missile" in e:
        assert weapons[e["missile"]].get("missile")


@pytest.mark.parametrize("name", [n for n in NAMES if "breath" in ENTRIES[n]])
def test_a_breath_weapon_has_a_shape_an_area_and_a_save(name: str) -> None:
    b = ENTRIES[name]["breath"]
    assert set(b) <= BREATH_KEYS
    assert b["shape"] in BREATH_SHAPES and b["save"] in SAVES
    assert b["damage"] in ("hp", "none") or DICE.fullmatch(b["damage"])
    assert isinstance(b["length"], int) and isinstance(b["width"], int) and b["length"] >= b["width"] > 0
    assert b["kind"] in DAMAGE_KINDS | {"petrification"}
    assert 1 <= b.get("chance", 6) <= 6 and b.get("uses", 1) >= 1
    if b["kind"] in DAMAGE_KINDS and b["damage"] == "hp":  # a dragon: its own breath cannot hurt it
        assert b["kind"] in ENTRIES[name].get("halved", []) + ENTRIES[name].get("immune", [])


@pytest.mark.parametrize("name", [n for n in NAMES if "gaze" in ENTRIES[n]])
def test_a_gaze_names_its_effect_and_save(name: str) -> None:
    g = ENTRIES[name]["gaze"]
    assert set(g) == {"effect", "save"} and g["effect"] in GAZE_EFFECTS and g["save"] in SAVES


def test_every_undead_is_immune_to_the_mind_spells_and_poison() -> None:
    """OSE SRD, every undead page: immune to effects on the living (poison, and so disease) and to mind spells
    (charm, hold, sleep)."""
    undead = [n for n in NAMES if ENTRIES[n]["undead"]]
    assert len(undead) >= 6
    assert all({"sleep", "charm", "hold", "poison", "disease"} <= set(ENTRIES[n]["immune"]) for n in undead)


def test_the_groups_the_encounter_builder_needs_are_there() -> None:
    by_faction: dict[str, list[str]] = {}
    for n in NAMES:
        by_faction.setdefault(ENTRIES[n]["faction"], []).append(n)
    for faction, members in (("undead", {"ghoul", "wight", "wraith", "zombie", "mummy"}),
                             ("lycanthropes", {"werewolf", "wererat", "wereboar"}),
                             ("dragons", {"white_dragon", "black_dragon", "red_dragon"}),
                             ("giants", {"hill_giant", "stone_giant"}),
                             ("oozes", {"gelatinous_cube", "ochre_jelly"}),
                             ("bandits", {"bandit", "brigand"}),
                             ("lizardfolk", {"lizard_man", "troglodyte"})):
        assert members <= set(by_faction[faction]), faction


# ----- published numbers, pinned against the pages they were read from -----------------------------------

def test_ghoul_as_published() -> None:
    """[SRD] 7. Monsters/Monster Stats/Ghoul.md @16b6aa2: AC 6 [13], HD 2* (9hp), 2 × claw (1d3 + paralysis),
    1 × bite (1d3 + paralysis), THAC0 18 [+1], MV 90' (30'), SV (2), ML 9, XP 25; elves and creatures larger than
    ogres are unaffected."""
    s, e = _stats("ghoul"), ENTRIES["ghoul"]
    assert (s.ac, s.hd, s.asterisks, s.hp, s.thac0, s.base_movement, s.save_as, s.morale, s.xp) == (
        6, 2, 1, 9, 18, 90, "2", 9, 25)
    assert s.attacks == (Attack(2, "claw", "1d3", ("paralysis",)), Attack(1, "bite", "1d3", ("paralysis",)))
    assert e["paralysis_spares"] == ["elf", "large"] and e["undead"]


def test_troll_as_published() -> None:
    """[SRD] Troll.md: AC 4 [15], HD 6+3* (30hp), 2 × claw (1d6), 1 × bite (1d10), THAC0 13 [+6], MV 120' (40'),
    SV D10 W11 P12 B13 S14 (6), ML 10 (8 when attacked with fire), XP 650; regenerates 3 hp a round from 3 rounds
    after first damaged, revives in 2d6 rounds unless the damage was fire or acid."""
    s, e = _stats("troll"), ENTRIES["troll"]
    assert (s.ac, s.hd, s.hd_plus, s.hp, s.thac0, s.base_movement, s.saves, s.morale, s.xp) == (
        4, 6, 3, 30, 13, 120, (10, 11, 12, 13, 14), 10, 650)
    assert [(a.count, a.form, a.damage) for a in s.attacks] == [(2, "claw", "1d6"), (1, "bite", "1d10")]
    assert (e["regenerate"], e["regenerate_after"], e["revives"], set(e["regenerate_not"])) == (
        3, 3, "2d6", {"fire", "acid"})


def test_wight_as_published() -> None:
    """[SRD] Wight.md: AC 5 [14], HD 3* (13hp), 1 × touch (energy drain), THAC0 17 [+2], MV 90' (30'), ML 12,
    XP 50; harmed only by silver or magic weapons."""
    s, e = _stats("wight"), ENTRIES["wight"]
    assert (s.ac, s.hd, s.hp, s.thac0, s.base_movement, s.morale, s.xp) == (5, 3, 13, 17, 90, 12, 50)
    assert s.attacks == (Attack(1, "touch", None, ("energy drain",)),)
    assert e["hit_by"] == "silver"


def test_red_dragon_as_published() -> None:
    """[SRD] Dragon.md (red dragon): AC -1 [20], HD 10** (45hp), 2 × claw (1d8), 1 × bite (4d8), THAC0 11 [+8],
    MV 90' (30') / 240' (80') flying, SV D6 W7 P8 B8 S10 (10), ML 10, XP 2,300; breath: a cone of fire 90' long
    (30' wide at the end), damage = its current hp, save vs breath for half, 3 times a day."""
    s, e = _stats("red_dragon"), ENTRIES["red_dragon"]
    assert (s.ac, s.hd, s.asterisks, s.hp, s.thac0, s.fly, s.saves, s.morale, s.xp) == (
        -1, 10, 2, 45, 11, 240, (6, 7, 8, 8, 10), 10, 2300)
    assert [(a.count, a.form, a.damage) for a in s.attacks] == [(2, "claw", "1d8"), (1, "bite", "4d8")]
    b = e["breath"]
    assert (b["kind"], b["damage"], b["shape"], b["length"], b["width"], b["save"], b["uses"]) == (
        "fire", "hp", "cone", 90, 30, "breath", 3)


def test_medusa_as_published() -> None:
    """[SRD] Medusa.md: AC 8 [11], HD 4** (18hp), snakebite (1d6 + poison), THAC0 16 [+3], MV 90' (30'),
    SV (4), ML 8, XP 175; a look turns to stone (save vs petrification, the P save)."""
    s, e = _stats("medusa"), ENTRIES["medusa"]
    assert (s.ac, s.hd, s.asterisks, s.hp, s.thac0, s.base_movement, s.saves, s.morale, s.xp) == (
        8, 4, 2, 18, 16, 90, (10, 11, 12, 13, 14), 8, 175)
    assert s.attacks == (Attack(1, "bite", "1d6", ("poison",)),)
    assert e["gaze"] == {"effect": "petrification", "save": "paralysis"}


def test_every_source_names_a_page_that_was_read() -> None:
    """Every entry but the halfling (whose SRD mirror page is cut short) was read on the SRD mirror."""
    assert [n for n in NAMES if not ENTRIES[n]["source"].startswith(SRD)] == ["halfling"]
    pages = {n: re.match(r"\[SRD\] ([^;]+?\.md)", ENTRIES[n]["source"]) for n in NAMES if n != "halfling"}
    assert not [n for n, m in pages.items() if m is None]
