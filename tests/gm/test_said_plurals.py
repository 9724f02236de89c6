"""A :class:`~npc_tactics.i18n.Said` sentence that counts agrees with its number in the reader's language
(:class:`~npc_tactics.i18n.SaidN`, said through ``ngettext``): MRQ's note of the Reactions a situation left out
("its 1 Reaction left", French "il lui reste 1 Réaction" where it read "ses 1 Réactions") and the tracker's
"no combatant 3; there is 1", each at 0, 1 and 2 through the code that writes it, in English and in French.

French is read from a catalogue compiled here from the .po as it stands, so these tests check the translations
written and do not wait for `make catalogues` (``tests/gm/test_words_i18n.py`` checks the committed .mo). The
extraction with the Makefile's own keywords finds each sentence as a singular/plural pair."""

from __future__ import annotations

import pickle
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from babel.messages.extract import extract_from_file
from babel.messages.frontend import parse_keywords
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from fastapi.testclient import TestClient

from npc_tactics import i18n
from npc_tactics.dice import RngRoller
from npc_tactics.i18n import said_in, translations
from npc_tactics.systems.mrq.rules.engine import MRQEngine
from npc_tactics.systems.mrq.rules.situation import load_situation

ROOT = Path(__file__).resolve().parents[2]
PO = ROOT / "npc_tactics" / "locale" / "fr" / "LC_MESSAGES" / "npc_tactics.po"

REACTIONS = ("{name}: reactions not given, its {n} Reaction left this round",
             "{name}: reactions not given, all {n} left this round")
NO_COMBATANT = ("no combatant {index}; there is {n}", "no combatant {index}; there are {n}")


@pytest.fixture
def french(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The ``npc_tactics`` French catalogue compiled from its .po into a temporary locale folder, read by
    :func:`npc_tactics.i18n.translations` for the test (its cache cleared before and after)."""
    folder = tmp_path / "locale" / "fr" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    with open(PO, "rb") as f:
        catalog = read_po(f)
    with open(folder / "npc_tactics.mo", "wb") as f:
        write_mo(f, catalog)
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path / "locale")
    translations.cache_clear()
    yield
    translations.cache_clear()


# --- MRQ: the Reactions a situation leaves out ------------------------------------------------------------------

#: A broo chief with no shield (a shield adds a Reaction) and its own Reactions a round.
CHIEF = """Broo chief
STR 15  CON 15  SIZ 14  INT 12  POW 11  DEX 12
Combat Actions 2  Reactions {reactions}  Strike Rank +12  Damage Modifier +1D4
D20 Hit Location AP/HP
1-3 Right Leg 3/6
4-6 Left Leg 3/6
7-9 Abdomen 3/7
10-12 Chest 3/8
13-15 Right Arm 3/5
16-18 Left Arm 3/5
19-20 Head 3/6
Weapons
Type Weapon skill Damage AP/HP
Battleaxe 65% 1D6+1
Head butt 45% 1D6
"""


def _reactions_note(reactions: int) -> str:
    """The note MRQ's situation loader writes for a chief whose ``reactions`` left this round are not given."""
    notes: list[str] = []
    data: dict[str, Any] = {"acting": "Guard", "round": 2, "distance": "close", "sides": [
        {"combatants": [{"template": "knight", "name": "Guard", "reactions": 1}]},
        {"combatants": [{"name": "Chief", "stat_block": CHIEF.format(reactions=reactions)}]}]}
    state = load_situation(MRQEngine(), data, RngRoller(np.random.default_rng(0)), notes)
    assert state.combatants[1].reactions == reactions
    (note,) = [n for n in notes if n.startswith("Chief: reactions")]
    return note


@pytest.mark.parametrize(("n", "english", "french_text"), [
    (0, "Chief: reactions not given, all 0 left this round",
     "Chief : reactions non indiqué, il lui reste 0 Réaction ce round"),
    (1, "Chief: reactions not given, its 1 Reaction left this round",
     "Chief : reactions non indiqué, il lui reste 1 Réaction ce round"),
    (2, "Chief: reactions not given, all 2 left this round",
     "Chief : reactions non indiqué, ses 2 Réactions restent ce round"),
])
def test_mrq_says_the_reactions_left_in_agreement(french: None, n: int, english: str, french_text: str) -> None:
    note = _reactions_note(n)
    assert note == english and said_in(note, "en") == english  # what every str reader sees is English
    assert said_in(note, "fr") == french_text  # suggest's assumptions, in the GM's language
    sent = pickle.loads(pickle.dumps(note))  # to a worker process and back: still counted
    assert sent == english and said_in(sent, "fr") == french_text


# --- the tracker: a combatant that is not there -----------------------------------------------------------------

@pytest.fixture
def client(french: None) -> Iterator[TestClient]:
    from npc_tactics.gm.service.app import create_app

    with TestClient(create_app()) as c:
        yield c


def _refusal(client: TestClient, members: int, lang: str) -> list[str]:
    """The 422 messages of removing and of changing combatant 3 of an MRQ fight of ``members`` combatants."""
    made = client.post(f"/fights?lang={lang}", json={"system": "mrq"})
    assert made.status_code == 201, made.text
    url = f"/fights/{made.json()['id']}/combatants"
    for _ in range(members):
        r = client.post(url, json={"side": 0, "template": "knight"})
        assert r.status_code == 200, r.text
    out = []
    removed = client.delete(f"{url}/3?lang={lang}")
    changed = client.patch(f"{url}/3?lang={lang}", json={"fields": {"skill": 50}})
    for r in (removed, changed):
        assert r.status_code == 422, r.text
        out.append(r.json()["detail"][0]["msg"])
    return out


@pytest.mark.parametrize(("n", "english", "french_text"), [
    (0, "no combatant 3; there are 0", "pas de combattant 3 ; il y en a 0"),
    (1, "no combatant 3; there is 1", "pas de combattant 3 ; il y en a 1"),
    (2, "no combatant 3; there are 2", "pas de combattant 3 ; il y en a 2"),
])
def test_the_tracker_counts_its_combatants_in_agreement(client: TestClient, n: int, english: str,
                                                        french_text: str) -> None:
    assert _refusal(client, n, "en") == [english, english]
    assert _refusal(client, n, "fr") == [french_text, french_text]


# --- SaidN itself, and the extraction ----------------------------------------------------------------------------

def test_a_counted_sentence_nests_a_said_and_names_its_count(french: None) -> None:
    from npc_tactics.i18n import Said, SaidN  # here: the sentences above fail, not the module, where SaidN is not

    said = SaidN(*NO_COMBATANT, n=1, index=Said("{name}", name="x"))
    assert isinstance(said, str) and isinstance(said, Said) and said == "no combatant x; there is 1"
    assert said.msgid == NO_COMBATANT[0] and said.plural == NO_COMBATANT[1] and said.n == 1
    assert said.say("fr") == "pas de combattant x ; il y en a 1"


def _makefile_keywords() -> dict[str, Any]:
    """The keywords of the Makefile's ``pybabel extract`` (``make catalogues``), as Babel parses them."""
    text = (ROOT / "Makefile").read_text(encoding="utf-8")
    command = re.search(r"pybabel extract (.*?)-o ", text, re.S)
    assert command is not None
    return dict(parse_keywords(re.findall(r"-k (\S+)", command.group(1))))


@pytest.mark.parametrize(("path", "pair"), [
    ("npc_tactics/systems/mrq/rules/situation.py", REACTIONS),
    ("npc_tactics/gm/table/tracker.py", NO_COMBATANT),
])
def test_the_extraction_finds_each_pair_and_french_has_both_forms(path: str, pair: tuple[str, str]) -> None:
    assert f"[python: {path}]" in (ROOT / "npc_tactics" / "locale" / "babel.cfg").read_text(encoding="utf-8")
    found = {m for _, m, _, _ in extract_from_file("python", str(ROOT / path), keywords=_makefile_keywords())}
    assert pair in found and pair[0] not in found and pair[1] not in found
    with open(PO, "rb") as f:
        entry = read_po(f)[pair[0]]
    assert entry is not None and tuple(entry.id) == pair
    assert isinstance(entry.string, tuple | list) and len(entry.string) == 2 and all(entry.string)
