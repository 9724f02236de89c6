"""A bad combatant said in French (issue 29): the generic validators every loader uses (a number out of range, a
list too long, an unknown name or key, a value of the wrong type), the MRQ bestiary's checks of a stat block, each
system's check that a combatant names a template or gives a stat block, a Foundry actor that does not read and an
OSE attack routine that does not parse. Each refusal of a combatant added to a tracked fight is a
:class:`~npc_tactics.i18n.Said` whose English (``str``) is what it always was and whose French (what the page
shows through ``said_in(exc.message, "fr")``) has no English sentence left, only the GM's own values and the
names it may write (keys, templates); and every sentence these modules write has its French in the catalogue, with
the same placeholders.

The French is read from the repo's compiled catalogue (``make catalogues``).
"""

from __future__ import annotations

import copy
import json
import pickle
import re
import string
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from babel.messages.extract import extract_from_file

from npc_tactics import i18n
from npc_tactics.errors import ConfigError
from npc_tactics.gm.table.fight_import import import_data
from npc_tactics.gm.table.tracker import Fight
from npc_tactics.i18n import Said, said_in
from npc_tactics.registry import get_system
from tests.gm.test_french_everywhere import english_left
from tests.test_parser_errors_fr import french_catalogue  # noqa: F401  (autouse: the catalogue read afresh)

ROOT = Path(__file__).resolve().parents[1]
FOUNDRY = ROOT / "tests" / "rules" / "ose" / "foundry"
#: English words of these messages that suggest's stoplist (tests/gm/test_french_everywhere.py) lacks
MORE_ENGLISH = frozenset("missing expected unknown valid give such needs got required key".split())
#: The modules whose sentences are Said here (each to be listed in npc_tactics/locale/babel.cfg).
SOURCES = (
    "npc_tactics/configs/validate.py",
    "npc_tactics/systems/mrq/rules/bestiary.py",
    "npc_tactics/systems/mrq/rules/scenario.py",
    "npc_tactics/systems/ose/rules/scenario.py",
    "npc_tactics/systems/runequest/rules/scenario.py",
    "npc_tactics/systems/dicepool/rules/content.py",
    "npc_tactics/systems/ose/foundry_monster.py",
)
CHARS = {"str": 10, "con": 10, "siz": 10, "int": 10, "pow": 10, "dex": 10}
LOCS = {"right_leg": "1-3", "left_leg": "3-6", "abdomen": "7-9", "chest": "10-12", "right_arm": "13-15",
        "left_arm": "16-18", "head": "19-20"}


def mrq(**fields: Any) -> dict[str, Any]:
    """An MRQ combatant's own stat block fields (no template) with ``fields`` changed."""
    return {"style": "one_handed", "skill": 50, "weapon": "broadsword", "characteristics": CHARS, **fields}


#: (system, the combatant's fields, its error's English (the start of it when it lists names), a piece of its
#: French): the generic validators (1), the MRQ bestiary and scenario (2), a template or a stat block (3)
CASES: list[tuple[str, dict[str, Any], str, str]] = [
    # 1. configs/validate.py, reached by each system's loader
    ("ose", {"template": "goblin", "position": "far"}, "expected a number, got 'far'",
     "attendu : un nombre, reçu 'far'"),
    ("ose", {"template": "goblin", "immune": "sleep"}, "expected a list of immunities, got str",
     "attendu : la liste des immunités, reçu un texte"),
    ("ose", {"class": "fighter", "level": 1, "armour": "mithril"},
     "unknown armour 'mithril'; valid: chainmail, leather, none, plate_mail",
     "armure inconnue 'mithril' ; valides : chainmail, leather, none, plate_mail"),
    ("ose", {"template": "goblin", "hp": "1d100000"},
     "'1d100000': 1d100000 is out of range: expected at most 1000 dice of at most 1000 sides",
     "'1d100000' : 1d100000 hors limites : attendu au plus 1000 dés d'au plus 1000 faces"),
    ("ose", {"template": "goblin", "name": "Bob\x07"},
     "control character U+0007 at position 3; a text may hold newlines and tabs, no other control character nor "
     "bidi override", "caractère de contrôle U+0007 en position 3 ; un texte peut contenir"),
    ("runequest", {"template": "broo", "weapons": 3}, "expected a list of 1 to 4 weapons, got int",
     "attendu : une liste de 1 à 4 armes, reçu un entier"),
    ("runequest", {"template": "broo", "colour": 1}, "unknown key 'colour'; valid keys: armour, characteristics, ",
     "clé inconnue 'colour' ; clés valides : armour, characteristics, "),
    ("runequest", {"template": "nosuch"}, "unknown template 'nosuch'; valid: aldryami_archer, ",
     "modèle inconnu 'nosuch' ; valides : aldryami_archer, "),
    ("mrq", mrq(characteristics={**CHARS, "str": 0}), "0 is out of range: expected 1..200",
     "0 hors limites : attendu 1..200"),
    ("mrq", mrq(traits="x"), "expected a list of 0 to 2 traits, got str",
     "attendu : une liste de 0 à 2 traits, reçu un texte"),
    ("mrq", {"template": "orc", "condition": "flying"}, "unknown condition 'flying'; valid: none, swimming, climbing",
     "situation inconnue 'flying' ; valides : none, swimming, climbing"),
    ("mrq", {"stat_block": {"style": "natural"}}, "missing required key", "clé requise manquante"),
    ("dicepool", {"template": "bandit", "mounted": "yes"}, "expected true or false, got 'yes'",
     "attendu : true ou false, reçu 'yes'"),
    ("dicepool", {"template": "bandit", "skills": "x"}, "expected a mapping, got str",
     "attendu : une table, reçu un texte"),
    ("dicepool", {"template": "bandit", "position": 99999}, "99999 is out of range: expected -10000.0..10000.0",
     "99999 hors limites : attendu -10000.0..10000.0"),
    ("dicepool", {"template": "bandit", "posture": "flying"},
     "unknown posture 'flying'; valid: standing, kneeling, prone", "posture inconnue 'flying' ; valides : "),
    # 2. MRQ: the bestiary's checks of a stat block, the scenario's of a combatant entry
    ("mrq", mrq(style="two_weapons"), "style two_weapons needs an offhand item",
     "le style two_weapons demande un objet en main secondaire"),
    ("mrq", mrq(style="weapon_and_shield", offhand="broadsword"), "weapon_and_shield needs a shield, got 'broadsword'",
     "weapon_and_shield demande un bouclier, reçu 'broadsword'"),
    ("mrq", mrq(weapon="shortbow"), "'shortbow' is a missile weapon: use the missile field",
     "'shortbow' est une arme de tir : utilisez le champ missile"),
    ("mrq", mrq(hit_locations=LOCS), "face 3 is already right_leg", "la face 3 est déjà right_leg"),
    ("mrq", {"template": "nosuch"}, "unknown template 'nosuch'; valid: archer, duellist, ",
     "modèle inconnu 'nosuch' ; valides : archer, duellist, "),
    ("mrq", {"template": "orc", "style": "natural"},
     "a combatant with a template may only adjust skill, armour and condition; leave template out to give the "
     "whole stat block", "ne peut changer que skill, armour et condition ; omettez template"),
    ("mrq", {}, "expected template (a bestiary name), stat_block, or the stat block's fields",
     "attendu : template (un nom du bestiaire), stat_block, ou les champs du profil"),
    # 3. a template or a stat block, one of them
    ("ose", {"template": "goblin", "stat_block": "AC 6"},
     "give one of template (a bestiary name), stat_block (an OSE stat line) or class and level, not several",
     "donnez un seul de template (un nom du bestiaire), stat_block (une ligne de profil OSE) ou class et level"),
    ("ose", {}, "missing required key (or give stat_block, an OSE stat line, or class and level)",
     "clé requise manquante (ou donnez stat_block, une ligne de profil OSE, ou class et level)"),
    ("runequest", {"template": "broo", "stat_block": "x"},
     "give template (a bestiary name) or stat_block (the creature's own), not both",
     "donnez template (un nom du bestiaire) ou stat_block (le profil propre de la créature), pas les deux"),
    ("runequest", {},
     "missing required key (or give stat_block, the creature's own stat block, or its fields: characteristics, "
     "weapons...)", "clé requise manquante (ou donnez stat_block, le profil propre de la créature"),
    ("dicepool", {"template": "bandit", "stat_block": "x"},
     "give one of template (a bestiary name) or stat_block (the character sheet's text), not both",
     "donnez template (un nom du bestiaire) ou stat_block (le texte de la fiche), pas les deux"),
    ("dicepool", {},
     "missing required key (or give stat_block, the character sheet's text, or the stat fields in full: "
     "initiative, coordination, strength, defense, skills, locations missing)",
     "ou tous les champs de la fiche : il manque initiative, coordination, strength, defense, skills, locations)"),
]


def catalogue() -> dict[str, str]:
    """msgid -> French of the catalogue in use (the compiled .mo)."""
    found: dict[str, str] = getattr(i18n.translations("fr"), "_catalog", {})
    return found


def sentences(text: str) -> Iterator[Said]:
    """``text`` and every Said argument inside it."""
    if isinstance(text, Said):
        yield text
        for v in text.args.values():
            if isinstance(v, str):
                yield from sentences(v)


def words(text: object) -> set[str]:
    return {w.lower() for w in re.findall(r"[A-Za-zÀ-ÿ']+", str(text))}


def quoted(text: str) -> set[str]:
    """The words of what a message quotes: its arguments that are no sentence (the GM's value, lists of names)."""
    out: set[str] = set()
    if isinstance(text, Said):
        for v in text.args.values():
            out |= quoted(v) if isinstance(v, Said) else words(v)
    return out


def english_words(text: str, names: set[str]) -> set[str]:
    """The English words of ``text`` (suggest's stoplist and :data:`MORE_ENGLISH`), ``names`` aside."""
    found = {w.lower() for w in re.findall(r"[A-Za-zÀ-ÿ][a-zà-ÿ']+", text)} - names
    return english_left(text, names) | (found & MORE_ENGLISH)


def check_french(message: str, given: object, english: str, french: str) -> None:
    """``message`` is a Said whose English starts with ``english`` and whose French holds ``french``, every
    sentence of it in the catalogue and no English word left but the GM's ``given`` values and what it quotes."""
    assert isinstance(message, Said), f"the message reaches the tracker as a plain str: {message}"
    assert str(message).startswith(english), str(message)
    said = said_in(message, "fr")
    assert french in said, said
    missing = [s.msgid for s in sentences(message) if s.msgid not in catalogue()]
    assert not missing, f"not in the French catalogue (merge /tmp/v_fr.po, `make catalogues`): {missing}"
    names = quoted(message) | words(given)
    assert english_words(str(message), names), "the check below sees no English even in the English message"
    assert not english_words(said, names), f"English left in: {said}"
    assert said_in(message, "en") == str(message)


def refused(system: str, fields: dict[str, Any]) -> ConfigError:
    """The error of adding a combatant of ``fields`` to a fight of ``system`` (the tracker's path)."""
    with pytest.raises(ConfigError) as info:
        Fight(system).add(0, fields=fields)
    return info.value


@pytest.mark.parametrize(("system", "fields", "english", "french"), CASES,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_a_bad_combatant_is_said_in_french(system: str, fields: dict[str, Any], english: str, french: str) -> None:
    exc = refused(system, fields)
    check_french(exc.message, list(fields.values()), english, french)
    assert f"{exc.field}: {str(exc.message)[:60]}" in str(exc)  # the one-line error the CLI prints, in English


def test_a_message_keeps_both_languages_through_pickling() -> None:
    message = refused("ose", {"class": "fighter", "level": 1, "armour": "mithril"}).message
    back = pickle.loads(pickle.dumps(message))
    assert back == message and said_in(back, "fr") == said_in(message, "fr")
    assert said_in(back, "fr").startswith("armure inconnue 'mithril'")


def test_an_attack_routine_that_does_not_parse_keeps_its_sentence() -> None:
    from npc_tactics.systems.ose.rules.monster_abilities import abilities

    with pytest.raises(ConfigError) as info:
        abilities({"routine": "1 × bit (1d3)"}, {"damage": "1d6"}, None, "mine.yaml", "templates.x")
    assert info.value.field == "templates.x.routine"
    check_french(info.value.message, "1 × bit (1d3)", "Att: '1 × bit (1d3)': unknown attack form 'bit'; did you mean",
                 "Att : '1 × bit (1d3)' : forme d'attaque inconnue 'bit' ; vouliez-vous dire 'bite' ?")


def foundry_goblin(**system: Any) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FOUNDRY / "goblin.json").read_text(encoding="utf-8"))
    data = copy.deepcopy(data)
    data["system"].update(system)
    return data


@pytest.mark.parametrize(("change", "field", "english", "french"), [
    ({"hp": {"hd": "3d6", "value": 9, "max": 9}}, "system.hp.hd",
     "'3d6': expected OSE Hit Dice (d8s, e.g. 2d8, 4d8+1, or 1d4 for ½ HD)",
     "'3d6' : attendu : des dés de vie OSE (des d8, par exemple 2d8, 4d8+1, ou 1d4 pour ½ DV)"),
    ({"hp": {"hd": "lots", "value": 9, "max": 9}}, "system.hp.hd", "'lots': expected Hit Dice such as 2",
     "'lots' : attendu : des dés de vie (DV) tels que 2"),
    ({"details": {"morale": 30}}, "system.details.morale",
     "30: expected a morale score; set it on the monster sheet (2..12)",
     "30 : attendu : un score de moral ; indiquez-le sur la fiche du monstre (2..12)"),
], ids=["hd-d6", "hd-text", "morale"])
def test_a_foundry_monster_that_does_not_read_is_said_in_french(change: dict[str, Any], field: str, english: str,
                                                               french: str) -> None:
    with pytest.raises(ConfigError) as info:
        import_data("foundry-ose", get_system("ose"), foundry_goblin(**change), "goblin.json")
    assert info.value.field == field
    check_french(info.value.message, list(change.values()), english, french)


def test_a_foundry_attack_text_keeps_the_parser_sentence() -> None:
    data = foundry_goblin(attacks="2 × bit (1d3)")
    data["items"] = []
    with pytest.raises(ConfigError) as info:
        import_data("foundry-ose", get_system("ose"), data, "goblin.json")
    message = info.value.message
    assert info.value.field == "system.attacks" and isinstance(message, Said)
    assert isinstance(message.args["what"], Said)  # the stat line parser's own sentence, wrapped, not flattened
    check_french(message, "2 × bit (1d3)", "'2 × bit (1d3)': unknown attack form 'bit'; did you mean 'bite'?",
                 "'2 × bit (1d3)' : forme d'attaque inconnue 'bit' ; vouliez-vous dire 'bite' ?")


def test_the_tracker_page_shows_a_validator_error_in_french() -> None:
    from fastapi.testclient import TestClient

    from npc_tactics.gm.service.app import create_app

    with TestClient(create_app()) as client:
        made = client.post("/fights?lang=fr", json={"system": "mrq"})
        assert made.status_code == 201, made.text
        url = f"/fights/{made.json()['id']}/combatants"
        for lang, expected in (("fr", "situation inconnue 'flying' ; valides : none, swimming, climbing"),
                               ("en", "unknown condition 'flying'; valid: none, swimming, climbing")):
            r = client.post(f"{url}?lang={lang}", json={"side": 0, "fields": {"template": "orc",
                                                                               "condition": "flying"}})
            assert r.status_code == 422, r.text
            detail = r.json()["detail"][0]
            assert detail["loc"][:3] == ["body", "fields", "condition"] and expected == detail["msg"], detail


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def test_every_sentence_has_its_french_with_the_same_placeholders() -> None:
    french = catalogue()
    msgids = {str(m) for path in SOURCES for _, m, _, _ in extract_from_file(
        "python", str(ROOT / path), keywords={"Said": None, "N_": None})}
    assert len(msgids) > 130
    missing = sorted(m for m in msgids if m not in french)
    assert not missing, f"{len(missing)} sentences without French: {missing}"
    broken = sorted(m for m in msgids if _fields(french[m]) != _fields(m))
    assert not broken, f"French placeholders differ from the English ones: {broken}"


def test_the_sources_are_extracted() -> None:
    with open(ROOT / "npc_tactics/locale/babel.cfg", encoding="utf-8") as f:
        listed = set(re.findall(r"^\[python: (.+)\]$", f.read(), re.M))
    assert set(SOURCES) <= listed, f"missing from babel.cfg: {sorted(set(SOURCES) - listed)}"
