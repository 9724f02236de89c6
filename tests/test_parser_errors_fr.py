"""A pasted stat block that does not parse, said in French (issue 29): for each system, bad stat lines, stat blocks
and sheets added to a tracked fight, whose error the page shows through ``said_in(exc.message, "fr")``: French
with no English sentence left (the pasted tokens and the notation the parser reads aside), every sentence of it
in the catalogue, while its English text (``str``) is what it always was. And every sentence the parser modules
write has its French in the .po, with the same placeholders.

The French is read from the repo's compiled catalogue (``make catalogues``).
"""

from __future__ import annotations

import pickle
import re
import string
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po

from npc_tactics import i18n
from npc_tactics.errors import ConfigError
from npc_tactics.gm.table.tracker import Fight
from npc_tactics.i18n import Said, said_in
from tests.gm.test_french_everywhere import english_left

ROOT = Path(__file__).resolve().parents[1]
#: English words of the parsers' sentences that suggest's stoplist (tests/gm/test_french_everywhere.py) lacks
PARSER_ENGLISH = frozenset("missing expected unknown valid give such must needs twice got line".split())
#: The parser modules whose sentences are Said (each listed in npc_tactics/locale/babel.cfg).
PARSERS = (
    "npc_tactics/systems/ose/rules/statline.py",
    "npc_tactics/systems/ose/rules/statline_fields.py",
    "npc_tactics/systems/ose/rules/bestiary_files.py",
    "npc_tactics/systems/ose/rules/bestiary_check.py",
    "npc_tactics/systems/ose/rules/templates.py",
    "npc_tactics/systems/runequest/rules/statblock.py",
    "npc_tactics/systems/runequest/rules/statblock_text.py",
    "npc_tactics/systems/runequest/rules/bestiary_files.py",
    "npc_tactics/systems/runequest/rules/bestiary_check.py",
    "npc_tactics/systems/mrq/rules/statblock_text.py",
    "npc_tactics/systems/mrq/rules/statblock_words.py",
    "npc_tactics/systems/mrq/rules/statblock_files.py",
    "npc_tactics/systems/mrq/rules/statblock_check.py",
    "npc_tactics/systems/dicepool/rules/sheet.py",
    "npc_tactics/systems/dicepool/rules/user_bestiary.py",
    "npc_tactics/systems/dicepool/rules/bestiary.py",
)

OSE_OK = {"AC": "AC 6 [13]", "HD": "HD 2", "Att": "Att 1 × claw (1d4)", "MV": "MV 90' (30')", "ML": "ML 9"}


def ose(**fields: str) -> str:
    """A good OSE stat line with ``fields`` replaced (an empty value drops the field)."""
    return ", ".join(v for v in {**OSE_OK, **fields}.values() if v)


RQ_CHARS = "STR 13 CON 12 SIZ 13 DEX 10 INT 9 POW 9 CHA 5"
RQ_WEAPONS = "Weapon  %  Damage  SR  HP\nClub    40 1D6+1D4 7   8"
MRQ_LOCS = ("D20 Hit Location AP/HP\n1-3 Right Leg 2/5\n4-6 Left Leg 2/5\n7-9 Abdomen 2/6\n10-12 Chest 2/7\n"
            "13-15 Right Arm 2/4\n16-18 Left Arm 2/4\n19-20 Head 2/5")


def mrq(chars: str = "STR 12 CON 12 SIZ 12 INT 11 POW 10 DEX 13", locs: str = MRQ_LOCS,
        weapons: str = "Weapons\nBroadsword 60% 1D8", extra: str = "") -> str:
    return "\n".join(x for x in ("Guard", chars, locs, weapons, extra) if x)


DP_OK = "Initiative 5, Coordination 3, Strength 1, Defense 3"
DP_SKILLS = "Skills: brawl 4, sword 5"
DP_LOCS = "Locations: head 4, torso 10, pelvis 7, left arm 6, right arm 6, left leg 7, right leg 7"

#: (system, pasted stat block, its error in English as the tracker's field reads it, a piece of its French)
CASES: list[tuple[str, str, str, str]] = [
    ("ose", ose(Att="Att 1 × bit (1d3)"),
     "Att: '1 × bit (1d3)': unknown attack form 'bit'; did you mean 'bite'? (forms: beak, bite, butt, claw, "
     "constrict, crush, fist, gore, hoof, horn, hug, kick, peck, pincer, pseudopod, punch, ram, slam, squeeze, "
     "sting, strike, sucker, tail, talon, tentacle, touch, trample, tusk, weapon, whip, wing, or a weapon of "
     "weapons.yaml)",
     "Att : '1 × bit (1d3)' : forme d'attaque inconnue 'bit' ; vouliez-vous dire 'bite' ?"),
    ("ose", ose(AC="AC 6 [14]"),
     "AC: '6 [14]': the ascending AC [14] does not match AC 6 (19 - 6 = 13)",
     "la CA ascendante [14] ne correspond pas à la CA 6"),
    ("ose", ose(Att="Att 1 × short bow (1d6)"),
     "Att: '1 × short bow (1d6)': a missile weapon as the attack is not supported; write 1 × weapon (1d6) and give "
     "missile: short_bow",
     "une arme de tir comme attaque n'est pas prise en charge ; écrivez 1 × weapon (1d6) et donnez missile: short_bow"),
    ("ose", ose(MV=""), "MV: missing; expected e.g. MV 90' (30')", "MV : manquant ; attendu par exemple MV 90' (30')"),
    ("runequest", f"STR 13 CON 12 SIZ 13 DEX 10 INT 9 POW 9\n{RQ_WEAPONS}",
     "line 1: 'STR': missing CHA (give all seven: STR CON SIZ DEX INT POW CHA)",
     "ligne 1 : 'STR' : il manque CHA (donnez les sept, FOR CON TAI DEX INT POU CHA, écrites STR CON SIZ DEX INT "
     "POW CHA)"),
    ("runequest", f"{RQ_CHARS}\nWeapon  %  Damage  SR  HP\nClub    40 1D6+1D4 x   8",
     "line 3: 'x': expected the strike rank, e.g. 7 (or 3/8 for a bow's shots)",
     "ligne 3 : 'x' : attendu : le rang d'action, par exemple 7"),
    ("runequest", f"{RQ_CHARS}\n{RQ_WEAPONS}\nBody: octopus",
     "line 4: 'octopus': unknown body plan; valid: humanoid, quadruped, ",
     "ligne 4 : 'octopus' : plan corporel inconnu ; valides : humanoid, quadruped, "),
    ("mrq", mrq(extra="Strike Rank fast"), "line 13: 'fast': expected a Strike Rank such as +12",
     "ligne 13 : 'fast' : attendu : un rang d'action (Strike Rank) tel que +12"),
    ("mrq", mrq(locs=MRQ_LOCS.replace("Head 2/5", "Head 2/0")),
     "line 10: '0': location HP must be at least 1 (the unhurt maximum)",
     "ligne 10 : '0' : les PV d'une localisation valent au moins 1"),
    ("mrq", mrq(weapons="Weapons\nShortbow 60% 1D8"),
     "line 12: 'Shortbow': a missile weapon needs its ammunition, e.g. 'Short bow 70% 1D8 x12'",
     "ligne 12 : 'Shortbow' : une arme de tir a besoin de ses munitions"),
    ("dicepool", "\n".join(("Bob", "Initiative 5, Coordination 3, Forse 2, Defense 3", DP_SKILLS, DP_LOCS)),
     "line 2: 'Forse 2': unknown attribute; expected LABEL NUMBER with one of Initiative / INITIATIVE, "
     "Coordination / COORDINATION, Strength / FORCE, Defense / DÉFENSE, Speed / VITESSE, Mount speed / VITESSE "
     "MONTÉE",
     "ligne 2 : 'Forse 2' : attribut inconnu ; attendu : LIBELLÉ NOMBRE, le libellé parmi Initiative / INITIATIVE"),
    ("dicepool", "\n".join((DP_OK, "Initiative 6", DP_SKILLS, DP_LOCS)),
     "line 2: 'Initiative 6': Initiative given twice (also line 1)",
     "ligne 2 : 'Initiative 6' : INITIATIVE en double (aussi ligne 1)"),
    ("dicepool", "\n".join((DP_OK, DP_SKILLS, "Locations: head 4, chest 10")),
     "line 3: 'chest': unknown location of a humanoid body; expected one of head, torso, pelvis, left arm, right "
     "arm, left leg, right leg",
     "ligne 3 : 'chest' : localisation inconnue pour un corps humanoïde ; attendu : Tête, Torse, Bassin, "
     "Bras gauche, Bras droit, Jambe gauche, Jambe droite"),
]


@pytest.fixture(autouse=True)
def french_catalogue() -> Iterator[None]:
    """The repo's compiled catalogue, read afresh (no translations cached by an earlier test)."""
    i18n.translations.cache_clear()
    yield
    i18n.translations.cache_clear()


def sentences(text: str) -> Iterator[Said]:
    """Every catalogue sentence of ``text``: itself and the Said arguments inside it (the sheet's own labels, which
    carry their French with them, aside)."""
    if isinstance(text, Said):
        if type(text) is Said:
            yield text
        for v in text.args.values():
            if isinstance(v, str):
                yield from sentences(v)


def quoted(text: str) -> set[str]:
    """The lower-cased words of what a message quotes (its arguments that are no sentence: tokens, the notation's
    lists of forms, weapons ...)."""
    words: set[str] = set()
    if isinstance(text, Said):
        for v in text.args.values():
            words |= quoted(v) if isinstance(v, Said) else {w.lower() for w in re.findall(r"[A-Za-zÀ-ÿ']+", str(v))}
    return words


def english_words(text: str, names: set[str]) -> set[str]:
    """The English words of ``text`` (suggest's stoplist and :data:`PARSER_ENGLISH`), ``names`` aside."""
    words = {w.lower() for w in re.findall(r"[A-Za-zÀ-ÿ][a-zà-ÿ']+", text)} - names
    return english_left(text, names) | (words & PARSER_ENGLISH)


def refused(system: str, block: str) -> ConfigError:
    """The error of adding ``block`` as a combatant's stat block to a fight of ``system`` (the tracker's path)."""
    with pytest.raises(ConfigError) as info:
        Fight(system).add(0, fields={"stat_block": block})
    return info.value


@pytest.mark.parametrize(("system", "block", "english", "french"), CASES,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_a_pasted_block_that_does_not_parse_is_said_in_french(system: str, block: str, english: str,
                                                              french: str) -> None:
    exc = refused(system, block)
    message = exc.message
    assert isinstance(message, Said), f"{system}: the message reaches the tracker as a plain str: {message}"
    assert str(message).startswith(english) and str(exc).endswith(str(message)[-40:])
    said = said_in(message, "fr")
    assert french in said, said
    untranslated = [s.msgid for s in sentences(message) if i18n.translator("fr")(s.msgid) == s.msgid]
    assert not untranslated, f"not in the French catalogue (run `make catalogues`): {untranslated}"
    names = quoted(message) | {w.lower() for w in re.findall(r"[A-Za-zÀ-ÿ']+", block)}
    assert english_words(str(message), names), "the check below sees no English even in the English message"
    assert not english_words(said, names), f"English left in: {said}"
    assert said_in(message, "en") == str(message)


def test_a_sheet_label_keeps_both_languages_through_pickling() -> None:
    message = refused("dicepool", "\n".join((DP_OK, "Initiative 6", DP_SKILLS, DP_LOCS))).message
    back = pickle.loads(pickle.dumps(message))
    assert back == message and said_in(back, "fr") == said_in(message, "fr")
    assert "INITIATIVE en double" in said_in(back, "fr")


def test_the_tracker_page_shows_the_parse_error_in_french() -> None:
    from fastapi.testclient import TestClient

    from npc_tactics.gm.service.app import create_app

    with TestClient(create_app()) as client:
        made = client.post("/fights?lang=fr", json={"system": "ose"})
        assert made.status_code == 201, made.text
        url = f"/fights/{made.json()['id']}/combatants"
        for lang, expected in (("fr", "la CA ascendante [14] ne correspond pas"), ("en", "the ascending AC [14]")):
            r = client.post(f"{url}?lang={lang}", json={"side": 0, "fields": {"stat_block": ose(AC="AC 6 [14]")}})
            assert r.status_code == 422, r.text
            detail = r.json()["detail"][0]
            assert detail["loc"][:3] == ["body", "fields", "stat_block"] and expected in detail["msg"], detail


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def test_every_parser_sentence_has_its_french_with_the_same_placeholders() -> None:
    with open(ROOT / "npc_tactics/locale/babel.cfg", encoding="utf-8") as f:
        extracted_files = set(re.findall(r"^\[python: (.+)\]$", f.read(), re.M))
    assert set(PARSERS) <= extracted_files, "a parser module is missing from babel.cfg"
    with open(ROOT / "npc_tactics/locale/fr/LC_MESSAGES/npc_tactics.po", "rb") as f:
        french = {m.id: m.string for m in read_po(f) if m.id}
    msgids = {str(m) for path in PARSERS for _, m, _, _ in extract_from_file("python", str(ROOT / path),
                                                                             keywords={"Said": None})}
    assert len(msgids) > 150
    missing = sorted(m for m in msgids if not french.get(m))
    assert not missing, f"{len(missing)} parser sentences without French: {missing}"
    broken = sorted(m for m in msgids if _fields(str(french[m])) != _fields(m))
    assert not broken, f"French placeholders differ from the English ones: {broken}"
