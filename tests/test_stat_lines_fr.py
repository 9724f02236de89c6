"""The stat line of a tracker combatant said by its system, in English or French (issue 29, "French wherever a GM
reads"), for RuneQuest, Mongoose RuneQuest and the dice pool: the system's content hook ``stat_line(get_system(entry),
lang)`` prints a bestiary template as the bestiary lists it, and in French in the French edition's terms (FOR
TAI POU, points de vie, ``37 %``; the dice pool's sheet labels: INITIATIVE, FORCE, Compétences, Localisations);
a pasted stat block is read by the system's parser and printed by its printer, not shown as the pasted text
squashed into one line, unless the parser cannot read it. The page's JSON (:func:`fight_view.view`) carries
the line in the language asked and the English one under ``stat_block``; OSE keeps its French rewrite."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from npc_tactics.gm.table.fight_import import stat_line
from npc_tactics.gm.table.stat_words import stat_line_in
from npc_tactics.locale_format import NNBSP
from npc_tactics.registry import get_system

SYSTEMS = ("runequest", "mrq", "dicepool")
#: One template of each system, and the French words its line must have.
TEMPLATES = {
    "runequest": ("broo", ("FOR 13", "TAI 13", "POU 9", "13 points de vie", "Lance courte 50" + NNBSP + "%",
                           "Coup de tête")),
    "mrq": ("orc", ("FOR 12", "TAI 11", "POU 9", "Cimeterre 45" + NNBSP + "% 1D8", "Targe")),
    "dicepool": ("veteran", ("INITIATIVE 7", "FORCE 3", "DÉFENSE 4", "Compétences : bagarre 5", "Armes : épée",
                             "Armure : cotte de mailles", "Localisations : Tête 5")),
}
#: English words of a stat line (field labels, locations, weapons) that no French line may hold.
ENGLISH = frozenset(
    "hp mp str siz pow ap sr skills weapons armour armor locations strength defense speed move mount "
    "head torso pelvis chest abdomen arm leg left right sword shortsword broadsword shield spear bite claw club "
    "axe bow sling short small target butt chain mail helmet brawl throw".split()
)
#: A stat block in each system's book layout, written by hand (spacing, case and label spellings of its own),
#: with the template whose stats it gives: its line is that template's.
PASTED = {
    "runequest": ("trollkin", """Trollkin
STR 9   CON 9   SIZ 7   DEX 12   INT 10   POW 8   CHA 6
Move 8   Hit Points 8   ENC 3
Skills: Dodge 30%
Location    D20     AP/HP
Right Leg   01-04   1/3
Left Leg    05-08   1/3
Abdomen     09-11   1/3
Chest       12      1/4
Right Arm   13-15   1/2
Left Arm    16-18   1/2
Head        19-20   1/3
Weapon          %     Damage    SR   HP
Club            40    1D6       7    8
Small Shield    35    1D3       8    8
Sling           40    1D8       3    2
Ready: club, small shield
"""),
    "mrq": ("orc", """Orc
STR 12  CON 12  SIZ 11  INT 9  POW 9  DEX 12
Combat Actions 2  Strike Rank +10  Damage Modifier +0  Movement 4m
D20 Hit Location AP/HP
1-3 Right Leg 2/5
4-6 Left Leg 2/5
7-9 Abdomen 2/6
10-12 Chest 2/7
13-15 Right Arm 2/4
16-18 Left Arm 2/4
19-20 Head 2/5
Weapons
Type Weapon skill Damage AP/HP
Scimitar 45% 1D8
Target shield 45% 1D6
Skills: Acrobatics 30%, Athletics 24%, Resilience 21%, Brute Force 23%, Riding 21%
"""),
    "dicepool": ("trained_fighter", """Combattant entraîné
INITIATIVE 9, COORDINATION 5, FORCE 2, DÉFENSE 4
Compétences : bagarre 5, épée 7
Armes : épée
Localisations : Tête 4, Torse 10, Bassin 7, Bras gauche 6, Bras droit 6, Jambe gauche 7, Jambe droite 7
"""),
}
#: Blocks each system's parser refuses (the characteristics or attributes incomplete).
UNREADABLE = {
    "runequest": "STR 13 CON 12\nWeapon % Damage SR HP\nClub 40 1D6 7 8\n",
    "mrq": "Orc\nSTR 12  CON 12\nWeapons\nScimitar 45% 1D8\n",
    "dicepool": "Initiative 9, Coordination 5\nSkills: brawl 5\n",
}


def _printed(system: str, text: str, lang: str) -> str:
    """The line the system's own printer gives for the stats its own parser reads off ``text``."""
    if system == "runequest":
        from npc_tactics.systems.runequest.rules.bestiary_files import fields_of
        from npc_tactics.systems.runequest.rules.statblock_print import stat_line as rq_line

        return rq_line(fields_of(text, "<test>", "stat_block"), lang)
    if system == "mrq":
        from npc_tactics.systems.mrq.rules.statblock_print import stat_line as mrq_line
        from npc_tactics.systems.mrq.rules.statblock_text import parse_stat_block

        return mrq_line("pasted", parse_stat_block(text), lang)
    from npc_tactics.systems.dicepool.rules.sheet import parse_sheet
    from npc_tactics.systems.dicepool.rules.user_bestiary import one_line

    return one_line(parse_sheet(text)[1], lang)


def _listing(system: str) -> dict[str, dict[str, Any]]:
    return {str(r["name"]): r for r in get_system(system).content_module().bestiary_listing()}


def english_words(line: str) -> set[str]:
    """The words of :data:`ENGLISH` in ``line`` (whole words, case aside)."""
    return {w.lower() for w in re.findall(r"[A-Za-zÀ-ÿ]+", line)} & ENGLISH


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_template_is_listed_in_english_and_said_in_the_french_editions_terms(system: str) -> None:
    template, french_words = TEMPLATES[system]
    entry = {"name": "X", "template": template, "position": 2.0}
    english = stat_line(get_system(system), entry)
    assert english == _listing(system)[template]["stat_line"]
    french = stat_line(get_system(system), entry, "fr")
    assert french is not None and french != english
    for words in french_words:
        assert words in french, (words, french)
    assert not english_words(french), f"English left in {french!r}: {english_words(french)}"
    assert not re.search(r"\d%", french), "French puts a space before %"


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_template_of_the_bestiary_has_a_french_line_with_no_english_field_word(system: str) -> None:
    for name, row in _listing(system).items():
        entry = {"name": "X", "template": name}
        assert stat_line(get_system(system), entry) == row["stat_line"]
        french = str(stat_line(get_system(system), entry, "fr"))
        assert not english_words(french), f"{name}: English left in {french!r}: {english_words(french)}"


def test_the_french_runequest_line_uses_the_french_editions_characteristics_and_typography() -> None:
    french = str(stat_line(get_system("runequest"), {"name": "X", "template": "humakti_swordsman"}, "fr"))
    assert french.startswith("FOR 15 CON 14 TAI 13 DEX 14 INT 13 POU 14 CHA 10")
    assert f"{NNBSP}; 15 points de vie{NNBSP}; " in french and f"Épée large 85{NNBSP}%" in french


@pytest.mark.parametrize("system", SYSTEMS)
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_pasted_block_is_shown_as_its_systems_printer_prints_the_parsed_stats(system: str, lang: str) -> None:
    template, text = PASTED[system]
    line = stat_line(get_system(system), {"name": "Pasted", "stat_block": text}, lang)
    assert line == _printed(system, text, lang)
    assert line != " ".join(text.split())  # not the pasted text squashed into one line
    # the stats of that template
    assert line == stat_line(get_system(system), {"name": "X", "template": template}, lang)


def test_a_french_dice_pool_sheet_has_its_english_line_in_english() -> None:
    _, text = PASTED["dicepool"]
    english = str(stat_line(get_system("dicepool"), {"name": "Pasted", "stat_block": text}))
    assert english.startswith("Initiative 9, Coordination 5, Strength 2, Defense 4 | Skills: brawl 5, sword 7")
    assert "Locations: head 4, torso 10" in english


@pytest.mark.parametrize("system", SYSTEMS)
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_block_the_parser_cannot_read_is_shown_as_typed(system: str, lang: str) -> None:
    text = UNREADABLE[system]
    hook: Callable[..., Any] = get_system(system).content_module().stat_line
    assert hook({"name": "Bad", "stat_block": text}, lang) is None  # the system says nothing of it
    assert stat_line(get_system(system), {"name": "Bad", "stat_block": text}, lang) == " ".join(text.split())


def test_ose_keeps_its_english_line_shown_in_the_french_editions_notation() -> None:
    entry = {"name": "G", "template": "ghoul"}
    english = stat_line(get_system("ose"), entry)
    assert english is not None and english.startswith("AC ")
    assert stat_line(get_system("ose"), entry, "fr") == stat_line_in(english, "fr")


@pytest.mark.parametrize("system", SYSTEMS)
def test_the_tracker_shows_the_line_in_the_language_asked_and_keeps_the_english_one(system: str) -> None:
    from npc_tactics.gm.table.fight_import import edit_text
    from npc_tactics.gm.table.fight_view import view
    from npc_tactics.gm.table.tracker import Fight

    template, text = TEMPLATES[system][0], PASTED[system][1]
    fight = Fight(system, seed=1)
    fight.add(0, template)
    fight.add(0, fields={"stat_block": text}, name="Pasted")
    fight.add(1, template)
    fight.start()
    got = view(fight, "fr", log=False)
    for member in got["members"]:
        entry = member["entry"]
        assert member["stat_line"] == stat_line(get_system(system), entry, "fr")
        assert member["stat_block"] == edit_text(get_system(system), entry)  # the full block the Edit box starts from
        assert not english_words(member["stat_line"])
    assert [c["stat_line"] for c in got["combatants"]] == [m["stat_line"] for m in got["members"]]
    assert [m["stat_line"] for m in view(fight, "en", log=False)["members"]] == \
        [stat_line(get_system(system), m["entry"]) for m in got["members"]]
