"""A corpus of malformed or unplayable stat lines: each is one line naming the field and the token at fault,
read as a user bestiary entry would be (``file: entry: field: 'token': what was expected``)."""

from __future__ import annotations

import pytest

from npc_tactics.errors import ConfigError
from npc_tactics.systems.ose.rules import bestiary_files as B

OK = {"AC": "AC 6 [13]", "HD": "HD 2", "Att": "Att 1 × claw (1d4)", "MV": "MV 90' (30')", "ML": "ML 9"}


def line(**fields: str) -> str:
    """A good stat line with ``fields`` replaced (an empty value drops the field)."""
    merged = {**OK, **fields}
    return ", ".join(v for v in merged.values() if v)


CORPUS: list[tuple[str, str]] = [
    # AC
    (line(AC="AC six"), "AC: 'six': expected descending [ascending] armour class"),
    (line(AC="AC 6 [14]"), "AC: '6 [14]': the ascending AC [14] does not match AC 6"),
    (line(AC="AC 11"), "AC: '11': armour class 11 is out of range"),
    (line(AC="AC [3]"), "AC: '[3]': armour class 16 is out of range"),
    (line(AC="AC 6 13"), "AC: '6 13'"),
    (line(AC=""), "AC: missing; expected e.g. AC 6 [13]"),
    # HD
    (line(HD="HD two"), "HD: 'two': expected Hit Dice"),
    (line(HD="HD 0"), "HD: '0': expected 1 to 40 Hit Dice"),
    (line(HD="HD ½+1"), "HD: '½+1': ½ Hit Die takes no bonus"),
    (line(HD="HD 2 (30hp)"), "HD: '2 (30hp)': 30 hp is not possible for HD 2"),
    (line(HD="HD 2 (9)"), "HD: '2 (9)'"),
    (line(HD="HD 99"), "HD: '99': expected 1 to 40 Hit Dice"),
    (line(HD=""), "HD: missing"),
    # Att: notation
    (line(Att="Att 1 × bit (1d3)"), "Att: '1 × bit (1d3)': unknown attack form 'bit'; did you mean 'bite'?"),
    (line(Att="Att claw (1d4)"), "Att: 'claw (1d4)': expected count × form (damage)"),
    (line(Att="Att 1 × claw (1d4 + paralisys)"), "Att: '1 × claw (1d4 + paralisys)': unknown effect 'paralisys'"),
    (line(Att="Att 1 × claw (1x4)"), "Att: '1 × claw (1x4)': damage '1x4'"),
    (line(Att="Att 1 × claw (1d4 +)"), "Att: '1 × claw (1d4 +)': a '+' with nothing after it"),
    (line(Att="Att 1 × claw (1d4 + ~)"), "Att: '1 × claw (1d4 + ~)': ~ marks a word as flavour but no word"),
    (line(Att="Att 0 × claw (1d4)"), "Att: '0 × claw (1d4)': expected 1 to 20 attacks"),
    (line(Att="Att 1 × claw (1d4, 1 × bite (1d6)"), "\"Att 1 × claw (1d4, 1 × bite (1d6), MV 90' (30'), ML 9\": "
                                                    "an opening bracket is never closed"),
    (line(Att="Att 1 × claw 1d4)"), "a closing bracket without its opening one"),
    (line(Att="Att 1 × claw (1d4) 1 × bite (1d6)"), "Att: '1 × claw (1d4) 1 × bite (1d6)': expected count × form"),
    (line(Att="Att 1 × claw (1d4) or 1 × spell"), "alternative attack routines ('... or ...') are not supported"),
    (line(Att="Att 1 × weapon (or by weapon)"), "'or by weapon' follows no damage"),
    (line(Att="Att 1 × claw (500d6)"), "Att: '1 × claw (500d6)': damage '500d6': expected up to 100 dice"),
    (line(Att=""), "Att: missing"),
    # Att: what the engine does not play yet
    (line(Att="Att 1 × bite (1d4 + lycanthropy)"), "Att: '1 × bite (1d4 + lycanthropy)': lycanthropy is not "
                                                   "modelled yet; write ~lycanthropy"),
    (line(Att="Att 1 × bite (1d4 + acid)"), "acid is not modelled yet"),
    (line(Att="Att 1 × sword (1d8), 1 × dagger (1d4)"), "attacks with two different weapons are not modelled"),
    (line(Att="Att 2 × claw (1d4), 1 × swallow"), "'swallow' attacks are not modelled yet"),
    (line(Att="Att 1 × spit (1d6)"), "'spit' attacks are not modelled yet"),
    (line(Att="Att 1 × gaze (petrification)"), "Att: '1 × gaze (petrification)': a gaze alone: give the "
                                               "creature's attacks too"),
    (line(Att="Att 1 × breath (3d8)"), "'breath' attacks are not modelled yet"),
    (line(Att="Att 1 × short bow (1d6)"), "a missile weapon as the attack is not supported; write 1 × weapon (1d6) "
                                          "and give missile: short_bow"),
    (line(Att="Att 1 × claw (1d4), 1 × gaze (2d6)"), "a gaze is played as '1 × gaze (petrification)'"),
    (line(Att="Att 1 × touch"), "Att: '1 × touch': 'touch' does no damage and carries no effect"),
    # THAC0
    (line(Att="Att 1 × claw (1d4), THAC0 18 [+2]"), "THAC0: '18 [+2]': the attack bonus [+2] does not match THAC0 18"),
    (line(Att="Att 1 × claw (1d4), THAC0 30"), "THAC0: '30': THAC0 30 is out of range"),
    (line(Att="Att 1 × claw (1d4), THAC0 eighteen"), "THAC0: 'eighteen': expected THAC0 [attack bonus]"),
    # MV
    (line(MV="MV 90' (40')"), "MV: \"90' (40')\": the encounter rate (40') is not a third of 90' (30')"),
    (line(MV="MV 90' (30') / 120' (40') hopping"), "MV: \"120' (40') hopping\": unknown movement mode 'hopping'"),
    (line(MV="MV fast"), "MV: 'fast': expected base (encounter) feet"),
    (line(MV="MV 90' / 120'"), "MV: \"120'\": a second on foot rate"),
    (line(MV="MV 9000'"), "MV: \"9000'\": 9000' is out of range"),
    (line(MV=""), "MV: missing"),
    # SV
    (line(ML="ML 9, SV D12 W13 P14 B15 S16 (4)"), "SV: 'D12 W13 P14 B15 S16 (4)': the saves of level 4 are "
                                                  "D10 W11 P12 B13 S14"),
    (line(ML="ML 9, SV D12 W13 P14"), "SV: 'D12 W13 P14': expected D W P B S saves"),
    (line(ML="ML 9, SV D12 W13 P14 B15 S16 (Q2)"), "SV: 'D12 W13 P14 B15 S16 (Q2)': unknown save level 'Q2'"),
    (line(ML="ML 9, SV D12 W13 P14 B15 S40"), "SV: 'D12 W13 P14 B15 S40': a save is out of range"),
    (line(ML="ML 9, SV 20"), "SV: '20': give the five saves for a level above 14"),
    # ML, AL, XP, fields
    (line(ML="ML 13"), "ML: '13': 13 is out of range: expected 2..12"),
    (line(ML="ML brave"), "ML: 'brave': expected a number and an optional note"),
    (line(ML=""), "ML: missing"),
    (line(ML="ML 9, AL Evil"), "AL: 'Evil': expected Lawful, Neutral, Chaotic, Any"),
    (line(ML="ML 9, XP lots"), "XP: 'lots': expected a number"),
    (line(ML="ML 9, ML 8"), "ML: 'ML 8': given twice"),
    (line(ML="ML 9, Speed 90"), "'Speed 90': not a stat line field; fields: AC, HD, Att"),
    (line(ML="ML 9, XP"), "XP: 'XP': no value; expected e.g. XP 25"),
    ("", "expected a stat line such as AC 6 [13]"),
    (line(ML="ML 9\x07"), "control character"),
]
#: odd digits a pasted PDF may carry (superscript, Arabic-Indic, full-width): refused at their token, never read
#: as a number (int() crashes on the first and silently reads the others)
ODD_DIGITS = ("\u00b2", "\u0663", "\uff13")
for _d in ODD_DIGITS:
    CORPUS += [
        (line(AC=f"AC {_d}"), f"AC: '{_d}': expected descending [ascending] armour class"),
        (line(HD=f"HD {_d}"), f"HD: '{_d}': expected Hit Dice"),
        (line(HD=f"HD 2 ({_d}hp)"), f"HD: '2 ({_d}hp)': expected Hit Dice"),
        (line(Att=f"Att {_d} × claw (1d4)"), f"Att: '{_d} × claw (1d4)': expected count × form (damage)"),
        (line(Att=f"Att 1 × claw (1d{_d})"), f"Att: '1 × claw (1d{_d})': damage '1d{_d}': expected dice"),
        (line(Att=f"Att 1 × weapon (1d8 or by weapon +{_d})"), f"Att: '1 × weapon (1d8 or by weapon +{_d})': damage"),
        (line(Att=f"Att 1 × claw (1d4), THAC0 1{_d}"), f"THAC0: '1{_d}': expected THAC0 [attack bonus]"),
        (line(MV=f"MV 9{_d}'"), f"MV: \"9{_d}'\": expected base (encounter) feet"),
        (line(ML=f"ML {_d}"), f"ML: '{_d}': expected a number and an optional note"),
        (line(ML=f"ML 9, XP 2{_d}"), f"XP: '2{_d}': expected a number and an optional note"),
        (line(ML=f"ML 9, SV D1{_d} W13 P14 B15 S16"), f"SV: 'D1{_d} W13 P14 B15 S16': expected D W P B S saves"),
        (line(ML=f"ML 9, SV {_d}"), f"SV: '{_d}': expected D W P B S saves"),
        (line(ML=f"ML 9, SV D12 W13 P14 B15 S16 (F{_d})"), f"SV: 'D12 W13 P14 B15 S16 (F{_d})': unknown save level"),
    ]


@pytest.mark.parametrize(("text", "expected"), CORPUS, ids=range(len(CORPUS)))
def test_each_malformed_line_is_one_line_naming_the_token(text: str, expected: str) -> None:
    with pytest.raises(ConfigError) as info:
        B.expand({"stat_line": text}, "mine.yaml", "ghoul") if text else B.expand({"stat_line": " "}, "mine.yaml",
                                                                                  "ghoul")
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith("mine.yaml: ghoul"), message
    assert expected in message, message


def test_the_corpus_is_large_enough() -> None:
    assert len(CORPUS) >= 40


def test_the_brief_example_reads_as_promised() -> None:
    with pytest.raises(ConfigError, match=r"^mine\.yaml: ghoul: Att: '1 × bit \(1d3\)': unknown attack form 'bit'"):
        B.expand({"stat_line": line(Att="Att 1 × bit (1d3)")}, "mine.yaml", "ghoul")


@pytest.mark.parametrize("digit", ODD_DIGITS)
def test_yaml_fields_with_odd_digits_are_refused_at_their_field(digit: str) -> None:
    for extra, expected in (({"save_as": f"F{digit}"}, f"mine.yaml: ghoul.save_as: 'F{digit}' disagrees"),
                            ({"ac": f"{digit}"}, f"mine.yaml: ghoul.ac: '{digit}': expected descending"),
                            ({"hd": f"{digit}"}, f"mine.yaml: ghoul.hd: '{digit}': expected Hit Dice")):
        with pytest.raises(ConfigError) as info:
            B.expand({"stat_line": line(), **extra}, "mine.yaml", "ghoul")
        assert str(info.value).startswith(expected) and "\n" not in str(info.value), str(info.value)
