"""Malformed dice-pool character sheets: each is one line naming the sheet's line and the token (a corpus of 42),
and the same mistake inside a scenario or a user bestiary names the file and the field too."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from npc_tactics.errors import ConfigError
from npc_tactics.systems.dicepool.rules.content import scenario_from_mapping
from npc_tactics.systems.dicepool.rules.sheet import SheetError, parse_sheet
from npc_tactics.systems.dicepool.rules.user_bestiary import check_bestiary

OK = "Initiative 5, Coordination 3, Strength 1, Defense 3"
SK = "Skills: brawl 4, sword 5"
LIMBS = "left arm 6, right arm 6, left leg 7, right leg 7"
LO = f"Locations: head 4, torso 10, pelvis 7, {LIMBS}"
def sheet(*lines): return "\n".join(lines)
CORPUS = [
    ("", "expected the sheet's text"),
    ("   \n  ", "expected the sheet's text"),
    (sheet("Bob", "Initiative 5, Coordination 3, Forse 2, Defense 3", SK, LO), "line 2: 'Forse 2': unknown attribute"),
    (sheet(OK, SK), "missing Locations (Localisations)"),
    (sheet("Initiative 5, Coordination 3, Defense 3", SK, LO), "missing Strength (FORCE)"),
    (sheet(OK, LO), "missing Skills (Compétences)"),
    (sheet(OK, "Initiative 6", SK, LO), "line 2: 'Initiative 6': Initiative given twice (also line 1)"),
    (sheet("Initiative 50, Coordination 3, Strength 1, Defense 3", SK, LO),
     "line 1: 'Initiative 50': Initiative out of range: expected 0..40"),
    (sheet("Initiative 5, Coordination 3, Strength 1, Defense three", SK, LO),
     "line 1: 'Defense three': unknown attribute"),
    (sheet(OK, "Skills: brawl 14", LO), "line 2: 'brawl 14': a pool of dice (brawl) out of range: expected 0..12"),
    (sheet(OK, "Skills: brawl", LO), "line 2: 'brawl': expected a skill and its pool"),
    (sheet(OK, "Skills: brawl 4, bagarre 5", LO), "line 2: 'bagarre 5': skill 'brawl' given twice"),
    (sheet(OK, "Skills: 5", LO), "line 2: '5': expected a skill and its pool"),
    (sheet(OK, SK, "Weapons: laser", LO), "line 3: 'laser': unknown weapon"),
    (sheet(OK, SK, "Weapons: bite (brawl)", LO), "line 3: 'brawl': expected the weapon's skill and damage"),
    (sheet(OK, SK, "Weapons: bite (brawl 1x6)", LO), "line 3: 'brawl 1x6': expected the weapon's skill and damage"),
    (sheet(OK, SK, "Weapons: bite (brawl 1d6, poisoned)", LO), "line 3: 'poisoned': expected short/medium/long ranges"),
    (sheet(OK, SK, "Weapons: bow (bow 1d6, 30/20/50 m)", LO), "line 3: '30/20/50 m': range bands must increase"),
    (sheet(OK, SK, "Weapons: sling (throw 1d4, ammo 10)", LO),
     "line 3: 'sling (throw 1d4, ammo 10)': thrown, reload and ammo need range bands"),
    (sheet(OK, SK, "Weapons: bite (brawl 1d6", LO), "line 3: 'bite (brawl 1d6': a '(' without its ')'"),
    (sheet(OK, SK, "Weapons: bite brawl 1d6)", LO), "line 3: 'bite brawl 1d6)': a ')' without its '('"),
    (sheet(OK, SK, "Weapons: (brawl 1d6)", LO), "line 3: '(brawl 1d6)': an inline item needs a name"),
    (sheet(OK, SK, "Weapons: sword, mace, spear, dagger", LO),
     "line 3: 'sword, mace, spear, dagger': at most 3 weapons, got 4"),
    (sheet(OK, SK, "Armour: mithril", LO), "line 3: 'mithril': unknown armour"),
    (sheet(OK, SK, "Armour: hide (tail, 2 points)", LO), "line 3: 'tail': unknown location of a humanoid body"),
    (sheet(OK, SK, "Armour: hide (torso, 30 points)", LO),
     "line 3: '30 points': armour points out of range: expected 0..20"),
    (sheet(OK, SK, "Armour: hide (2 points)", LO),
     "line 3: 'hide (2 points)': an armour piece covers at least one location"),
    (sheet(OK, SK, "Armour: hide (torso, torso)", LO), "line 3: 'torso': location given twice"),
    (sheet(OK, SK, "Locations: head 4, torso 10"), "line 3: 'head 4, torso 10': missing HP for pelvis"),
    (sheet(OK, SK, f"Locations: head 4, chest 10, pelvis 7, {LIMBS}"),
     "line 3: 'chest': unknown location of a humanoid body"),
    (sheet(OK, SK, f"Locations: head 0, torso 10, pelvis 7, {LIMBS}"),
     "line 3: 'head 0': location HP out of range: expected 1..100"),
    (sheet(OK, SK, "Locations: head 4, head 4, torso 10"), "line 3: 'head 4': location given twice"),
    (sheet(OK, SK, "Locations: head four"), "line 3: 'head four': expected a location and its HP"),
    (sheet(OK, SK, "Body plan: octopus", LO),
     "line 3: 'octopus': unknown body plan; expected one of humanoid, quadruped"),
    (sheet(OK, SK, "Body plan: quadruped",
           "Locations: head 4, torso 10, pelvis 7, left foreleg 6, right arm 6, left leg 7, right wing 7"),
     "line 4: 'right wing': unknown location of a quadruped body"),
    (sheet("Bob", "Grr", OK, SK, LO), "line 2: 'Grr': unknown line"),
    (sheet(OK, "Bob", SK, LO), "line 2: 'Bob': unknown line"),
    (sheet(OK, SK, SK, LO), "line 3: 'Skills': given twice (also line 2)"),
    (sheet(OK, SK, LO, "Speed 0"), "line 4: 'Speed 0': Speed out of range: expected 1..100"),
    (sheet(OK, "Skills: brawl 4,", "  sword 5,", "  bow x", LO), "line 2: 'bow x': expected a skill and its pool"),
    (sheet(OK, "Compétences : bagarre 4, épée -1", LO), "line 2: 'épée -1': a pool of dice (sword) out of range"),
    ("x" * 5000, "a sheet is at most 4000 characters"),
]
#: odd digits a pasted PDF may carry (superscript, Arabic-Indic, full-width): refused at their token, never read
#: as a number (int() crashes on the first and silently reads the others)
ODD_DIGITS = ("\u00b2", "\u0663", "\uff13")
for _d in ODD_DIGITS:
    CORPUS += [
        (sheet(OK.replace("Strength 1", f"Strength {_d}"), SK, LO), f"line 1: 'Strength {_d}': unknown attribute"),
        (sheet(OK, f"Skills: brawl {_d}, sword 5", LO), f"line 2: 'brawl {_d}': expected a skill and its pool"),
        (sheet(OK, SK, f"Weapons: bite (brawl 1d{_d})", LO),
         f"line 3: 'brawl 1d{_d}': expected the weapon's skill and damage"),
        (sheet(OK, SK, f"Weapons: bow (bow 1d6, 10/20/4{_d} m)", LO),
         f"line 3: '10/20/4{_d} m': expected short/medium/long ranges"),
        (sheet(OK, SK, f"Weapons: bow (bow 1d6, 10/20/40 m, ammo {_d})", LO),
         f"line 3: 'ammo {_d}': expected short/medium/long ranges"),
        (sheet(OK, SK, f"Armour: hide (torso, {_d} points)", LO), f"line 3: '{_d} points': unknown location"),
        (sheet(OK, SK, LO.replace("head 4", f"head {_d}")), f"line 3: 'head {_d}': expected a location and its HP"),
    ]


def test_the_corpus_is_large_enough() -> None:
    assert len(CORPUS) >= 30


@pytest.mark.parametrize(("text", "expected"), CORPUS, ids=[str(i) for i in range(len(CORPUS))])
def test_a_malformed_sheet_is_one_line_naming_line_and_token(text: str, expected: str) -> None:
    with pytest.raises(SheetError) as info:
        parse_sheet(text)
    message = str(info.value)
    assert expected in message and "\n" not in message, message


@pytest.mark.parametrize(("text", "expected"), CORPUS[2:12])
def test_in_a_scenario_the_error_names_file_and_combatant(text: str, expected: str) -> None:
    data = {"name": "t", "sides": [{"combatants": [{"template": "duelist"}]},
                                   {"combatants": [{"name": "Bob", "stat_block": text, "position": 1}]}]}
    with pytest.raises(ConfigError) as info:
        scenario_from_mapping(data, "mine.yaml")
    assert str(info.value).startswith("mine.yaml: sides[1].combatants[0].stat_block: ")
    assert expected in str(info.value) and "\n" not in str(info.value)


def test_in_a_user_bestiary_each_bad_entry_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    lines = ["system: dicepool"] + [f"bad_{i}: {json.dumps(text)}" for i, (text, _) in enumerate(CORPUS[2:])]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = check_bestiary(str(path))
    assert result["entries"] == [] and len(result["errors"]) == len(CORPUS) - 2
    for i, ((_, expected), line) in enumerate(zip(CORPUS[2:], result["errors"], strict=True)):
        assert line.startswith(f"{path}: bad_{i}: ") and expected in line and "\n" not in line, line
