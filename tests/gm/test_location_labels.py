"""The label beside each hit-location box of the GM page (issue 27): ``GET /bestiary/{system}?lang=`` gives every
template's ``location_text`` in the page's language, for every location of every shipped body plan of every
system ("Right arm" / "Bras droit", a wolf's "Patte avant droite", the dice pool's hound's "Avant-train"), and an
unknown location written readably, never an empty label."""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from npc_tactics.gm.service.forms import bestiary_form, location_text
from npc_tactics.gm.words.vocab import LOCATION_LABELS, location_label
from npc_tactics.i18n import LOCALE_DIR, translator

SYSTEMS = ("ose", "runequest", "mrq", "dicepool")
#: the French of these bare names is the English word itself
SAME_IN_FRENCH = {"Abdomen", "Thorax"}


def _forms(lang: str) -> dict[str, dict[str, object]]:
    return {s: bestiary_form(s, lang) for s in SYSTEMS}


@pytest.fixture(scope="module")
def french() -> dict[str, dict[str, object]]:
    return _forms("fr")


@pytest.fixture(scope="module")
def english() -> dict[str, dict[str, object]]:
    return _forms("en")


def _template(form: dict[str, object], name: str) -> dict[str, object]:
    found = [t for t in form["templates"] if t["name"] == name]  # type: ignore[attr-defined]
    assert found, name
    return found[0]  # type: ignore[no-any-return]


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_location_of_every_template_has_a_french_label(french: dict[str, dict[str, object]],
                                                               english: dict[str, dict[str, object]],
                                                               system: str) -> None:
    fr_form, en_form = french[system], english[system]
    assert fr_form["templates"], system
    keys = set()
    for fr, en in zip(fr_form["templates"], en_form["templates"], strict=True):  # type: ignore[call-overload]
        labels, words = fr["location_text"], en["location_text"]
        assert list(labels) == list(fr["locations"]) == list(words), fr["name"]  # one label a box, in order
        for loc in fr["locations"]:
            keys.add(loc)
            said, english_said = labels[loc], words[loc]
            assert said and said != loc and "_" not in said, (system, fr["name"], loc, said)
            assert said[0].isupper() and english_said[0].isupper(), (fr["name"], loc)
            assert said != english_said or said in SAME_IN_FRENCH, (system, fr["name"], loc, said)
    if fr_form["wounds"]["kind"] == "hp":  # type: ignore[index]
        assert not keys  # OSE: one hit-point pool, no location boxes
    else:
        assert keys


def test_the_bare_names_are_the_catalogue_s() -> None:
    """Every key a shipped RuneQuest or MRQ body plan uses has its bare name in the table (not the readable
    fallback), and every name of the table its French in the ``npc_tactics`` catalogue (.po and compiled .mo)."""
    from npc_tactics.systems.mrq.rules.tables import LOCATION_NAMES
    from npc_tactics.systems.runequest.rules.tables import HIT_LOCATIONS

    used = {row.name for rows in HIT_LOCATIONS.values() for row in rows}
    used |= {name for names in LOCATION_NAMES.values() for name in names}
    used |= {"head", "torso", "pelvis", "left_arm", "right_arm", "left_leg", "right_leg"}  # the dice pool's slots
    assert used <= set(LOCATION_LABELS), sorted(used - set(LOCATION_LABELS))
    with open(Path(LOCALE_DIR) / "fr" / "LC_MESSAGES" / "npc_tactics.po", "rb") as f:
        po = {m.id: m.string for m in read_po(f) if m.id and not m.fuzzy}
    _ = translator("fr")
    for key, msgid in LOCATION_LABELS.items():
        assert po.get(msgid), f"{msgid!r} ({key}) has no French in npc_tactics.po"
        assert location_label(key, _) == po[msgid]  # the compiled catalogue says the same


def test_labels_in_each_language(french: dict[str, dict[str, object]],
                                 english: dict[str, dict[str, object]]) -> None:
    expected = [  # (system, template, key, English, French)
        ("runequest", "broo", "right_arm", "Right arm", "Bras droit"),
        ("runequest", "wolf", "right_foreleg", "Right foreleg", "Patte avant droite"),
        ("runequest", "wolf", "hindquarters", "Hindquarters", "Arrière-train"),
        ("runequest", "python", "tail", "Tail", "Queue"),
        ("runequest", "hawk", "right_wing", "Right wing", "Aile droite"),
        ("mrq", "wolf", "right_front_leg", "Right foreleg", "Patte avant droite"),
        ("mrq", "wolf", "forequarters", "Forequarters", "Avant-train"),
        ("mrq", "warhorse", "left_hind_leg", "Left hind leg", "Patte arrière gauche"),
        ("dicepool", "hound", "torso", "Forequarters", "Avant-train"),  # its own words for the "torso" slot
        ("dicepool", "winged_beast", "left_arm", "Left wing", "Aile gauche"),
        ("dicepool", "hound", "head", "Head", "Tête"),
    ]
    for system, name, key, en, fr in expected:
        assert _template(english[system], name)["location_text"][key] == en  # type: ignore[index]
        assert _template(french[system], name)["location_text"][key] == fr  # type: ignore[index]


def test_an_unknown_location_is_written_readably() -> None:
    fr = translator("fr")
    assert location_label("right_front_claw", fr) == "Right front claw"
    assert location_label("left_tentacle", translator("en")) == "Left tentacle"
    assert location_label("", fr) and location_label(None, fr)  # never an empty label
    got = location_text({"locations": ["head", "third_eye"]}, "fr")
    assert got == {"head": "Tête", "third_eye": "Third eye"}
    # a system's own words for a slot win; a slot they leave out falls back to the table, then to the key
    own = {"locations": ["torso", "pelvis", "gizzard"], "location_labels": {"fr": {"torso": "avant-train"}}}
    assert location_text(own, "fr") == {"torso": "Avant-train", "pelvis": "Bassin", "gizzard": "Gizzard"}
    assert location_text({"locations": []}, "en") == {} and location_text({}, "en") == {}
