"""The dice-pool character sheet as text (rules/sheet.py): the source text's fields read in French and English,
and every shipped template printed and read back to the same fields."""

from __future__ import annotations

import pytest

from npc_tactics.systems.dicepool.rules.bestiary import HUMAN_LOCATIONS, load_bestiary, load_equipment
from npc_tactics.systems.dicepool.rules.sheet import canonical, format_sheet, parse_sheet
from npc_tactics.systems.dicepool.rules.sheet_labels import labels
from npc_tactics.systems.dicepool.rules.user_bestiary import one_line

SHIPPED = sorted(load_bestiary())

HARU_FR = """Haru’Rak’Zall
INITIATIVE 8, COORDINATION 5, FORCE 2, DÉFENSE 3
Compétences : bagarre 5, épée 6, Mécartefact léger 7
Armes : crache-foudre léger, épée
Localisations : Tête 4, Torse 10, Bassin 7, Bras Gauche 6, Bras Droit 6, Jambe Gauche 7, Jambe Droite 7
"""


def test_the_source_texts_hero_reads_from_a_french_sheet() -> None:
    """The scores the source names for Haru (bagarre 5 L24, Mécartefact léger 7 L44, a sword L20), the
    location names of the 2d6 table (L74-81) with their capitals, and a head of 4 HP (L68)."""
    name, fields = parse_sheet(HARU_FR)
    assert name == "Haru’Rak’Zall"
    assert canonical(fields) == canonical(load_bestiary()["haru"])
    assert fields["skills"] == {"brawl": 5, "sword": 6, "mecartefact_leger": 7}


def test_english_labels_abbreviations_and_a_one_line_sheet() -> None:
    text = ("Init 5, COORD 3, STR: 3, DEF 4 | Skills: brawl 6, mace 7 | Weapons: mace | "
            "Locations: head 5, torso 13, pelvis 8, left arm 7, right_arm 7, Left-Leg 8, right leg 8")
    name, fields = parse_sheet(text)
    assert name is None
    assert canonical(fields) == canonical(load_bestiary()["markus"])


def test_inline_weapons_armour_and_a_body_plan() -> None:
    name, fields = parse_sheet(
        "Loup des cendres\n"
        "INITIATIVE 7, COORDINATION 4, FORCE 2, DÉFENSE 3, VITESSE 16\n"
        "Compétences : bagarre 6, tir à l'arc 5\n"
        "Armes : morsure (bagarre 1D6, naturelle), arc long (tir à l'arc 1D6+1, 20/40/80 m, munitions 12)\n"
        "Armure : pelage (Avant-train, arrière-train, 1 points)\n"
        "Morphologie : quadrupède\n"
        "Localisations : Tête 4, Avant-train 9, Arrière-train 7, Patte avant gauche 4, Patte avant droite 4, "
        "Patte arrière gauche 4, Patte arrière droite 4\n")
    assert name == "Loup des cendres"
    assert fields["speed"] == 16 and fields["body_plan"] == "quadruped"
    assert fields["skills"] == {"brawl": 6, "tir_a_l_arc": 5}
    assert fields["weapons"] == [
        {"name": "morsure", "kind": "melee", "skill": "brawl", "damage": "1d6", "natural": True},
        {"name": "arc long", "kind": "ranged", "skill": "tir_a_l_arc", "damage": "1d6+1", "ranges": [20, 40, 80],
         "ammo": 12},
    ]
    assert fields["armour"] == [{"name": "pelage", "covers": ["torso", "pelvis"], "points": 1}]
    assert fields["locations"]["torso"] == 9 and fields["locations"]["left_arm"] == 4
    for lang in ("en", "fr"):
        again = parse_sheet(format_sheet(fields, name, lang))
        assert again[0] == name and canonical(again[1]) == canonical(fields)


def test_human_locations_shorthand() -> None:
    _, fields = parse_sheet("Initiative 5, Coordination 3, Strength 1, Defense 3\nSkills: brawl 4\n"
                            "Localisations : humain\nArmes : aucune")
    assert fields["locations"] == HUMAN_LOCATIONS and fields["weapons"] == []


@pytest.mark.parametrize("name", SHIPPED)
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_shipped_template_round_trips(name: str, lang: str) -> None:
    """parse -> print -> parse: the printed sheet reads back to the template's fields, in both languages and
    on one line (the form `npc-tactics bestiary dicepool` shows)."""
    raw = load_bestiary()[name]
    text = format_sheet(raw, name, lang)
    read_name, fields = parse_sheet(text)
    assert read_name == name and canonical(fields) == canonical(raw)
    assert format_sheet(fields, name, lang) == text
    assert canonical(parse_sheet(one_line(raw, lang))[1]) == canonical(raw)


def test_every_shipped_item_has_both_labels() -> None:
    weapons, armour = load_equipment()
    L = labels()
    assert set(weapons) <= set(L.weapons.printed) and set(armour) <= set(L.armour.printed)
    skills = {w.skill for w in weapons.values()} | {s for t in load_bestiary().values() for s in t["skills"]}
    assert skills <= set(L.skills.printed)
