"""Names on the tracker (issue 29): the log calls the sides by the names the GM gave them (not "side 0"), the
default name of a combatant and the bestiary's template names are said in the page's language where the
catalogue has the word, and a character still called by its default name is named anew when its class or level
changes."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from npc_tactics.gm.words.creatures import creature_words
from npc_tactics.gm.words.narrate import narrate_event, roll_why, teller
from npc_tactics.registry import get_system
from npc_tactics.rules.base import Event

pytestmark = pytest.mark.integration
GOBLIN_LINE = ("AC 6 [13], HD 1-1 (3hp), Att 1 × weapon (1d6), THAC0 19 [0], MV 60' (20'), SV D14 W15 P16 B17 "
               "S18 (NH), ML 7, AL Chaotic, XP 5")


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    from npc_tactics.gm.service.app import create_app

    with TestClient(create_app()) as c:
        yield c


def ok(r: Any, status: int = 200) -> dict[str, Any]:
    assert r.status_code == status, r.text
    out: dict[str, Any] = r.json()
    return out


def _fight(client: TestClient, lang: str) -> tuple[str, dict[str, Any]]:
    fight = ok(client.post(f"/fights?lang={lang}", json={
        "system": "ose", "seed": 3, "sides": [{"name": "Gobelins", "control": "npc"},
                                              {"name": "Groupe", "control": "pc"}]}), 201)
    return f"/fights/{fight['id']}", fight


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_log_names_the_sides_in_the_initiative_lines(client: TestClient, lang: str) -> None:
    url, _ = _fight(client, lang)
    for side, template in ((0, "goblin"), (0, "goblin"), (1, "fighter_2")):
        ok(client.post(f"{url}/combatants?lang={lang}", json={"side": side, "template": template}))
    fight = ok(client.post(f"{url}/start?lang={lang}"))
    log = [line["text"] for line in fight["log"]]
    rolls = [t for t in log if re.search(r"initiative \((Gobelins|Groupe)\)", t)]
    assert len(rolls) == 2, log
    first = "first" if lang == "en" else "en premier"
    said = [t for t in log if t.startswith("Initiative (")]
    assert len(said) == 1 and re.fullmatch(rf"Initiative \(\d–\d\) ?: (Gobelins|Groupe) {first}\.", said[0]), said
    assert not [t for t in log if re.search(r"\b(side|camp) \d", t)], log


def test_a_telling_without_side_names_numbers_the_sides() -> None:
    event = Event("initiative", round=1, data={"result": "side_1", "rolls": [2, 5]})
    assert narrate_event(get_system("ose"), event, teller([], "en"))[0] == "Initiative (2–5): side 1 first."
    assert narrate_event(get_system("ose"), event, teller([], "fr"))[0] == "Initiative (2–5) : camp 1 en premier."
    assert narrate_event(get_system("ose"), event, teller([], "fr", ["Gobelins", "Groupe"]))[0] == \
        "Initiative (2–5) : Groupe en premier."
    assert roll_why("initiative side 0", teller([], "en")) == "initiative (side 0)"
    assert roll_why("initiative side 0", teller([], "fr", ["Gobelins", "Groupe"])) == "initiative (Gobelins)"


def test_the_bestiary_names_templates_in_the_page_language_and_keeps_the_id(client: TestClient) -> None:
    templates = {t["name"]: t for t in ok(client.get("/fights/templates/ose?lang=fr"))["templates"]}
    assert templates["fighter_2"]["text"] == "guerrier 2" and templates["magic_user_3"]["text"] == "magicien 3"
    french = creature_words(get_system("ose"), "fr")
    assert templates["black_bear"]["text"] == french["black_bear"].name != "black bear"
    assert templates["black_bear"]["description"] == french["black_bear"].description
    english = {t["name"]: t for t in ok(client.get("/fights/templates/ose?lang=en"))["templates"]}
    assert english["fighter_2"]["text"] == "fighter 2" and english["black_bear"]["text"] == "black bear"
    assert english["black_bear"]["description"] != french["black_bear"].description


def test_a_creature_name_comes_from_its_own_system_bestiary(monkeypatch: pytest.MonkeyPatch) -> None:
    """A creature is named by its system's French bestiary (``bandit`` of MRQ is not OSE's), never by a homonym
    elsewhere in the catalogue (``medium`` the magic-user is not ``medium`` the range); a name missing from the
    file falls back to the English word (a shipped one missing fails tests/test_creature_words.py)."""
    from npc_tactics.gm.table import stat_words
    from npc_tactics.gm.words.creatures import CreatureWords

    ose = get_system("ose")
    assert stat_words.template_text(ose, "medium", "fr") == creature_words(ose, "fr")["medium"].name
    books = {(get_system("ose"), "fr"): {"black_bear": CreatureWords("ours noir", "")}}
    monkeypatch.setattr(stat_words, "creature_words", lambda system, lang: books.get((system, lang), {}))
    assert stat_words.template_text(get_system("ose"), "black_bear", "fr") == "ours noir"
    assert stat_words.template_text(get_system("mrq"), "black_bear", "fr") == "black bear"
    assert stat_words.default_stem(get_system("ose"), {"template": "black_bear"}, "fr") == "Ours noir"
    assert stat_words.template_description(get_system("ose"), "black_bear", "a bear", "fr") == "a bear"


def test_default_names_in_french_and_renamed_with_their_class(client: TestClient) -> None:
    url, _ = _fight(client, "fr")
    ok(client.post(f"{url}/combatants?lang=fr", json={"side": 0, "template": "goblin"}))
    ok(client.post(f"{url}/combatants?lang=fr", json={"side": 0, "fields": {"stat_block": GOBLIN_LINE}}))
    ok(client.post(f"{url}/combatants?lang=fr", json={"side": 1, "template": "fighter_2"}))
    ok(client.post(f"{url}/combatants?lang=fr", json={"side": 1, "fields": {"class": "elf", "level": 2}}))
    fight = ok(client.post(f"{url}/combatants?lang=fr", json={"side": 1, "name": "Orrin",
                                                             "fields": {"class": "thief", "level": 1}}))
    names = [m["name"] for m in fight["members"]]
    assert names == ["Gobelin A", "Monstre A", "Guerrier 2 A", "Elfe 2 A", "Orrin"]

    classed = {"fields": {"class": "magic-user", "level": 3}, "remove": ["template", "stat_block"]}
    fight = ok(client.patch(f"{url}/combatants/2?lang=fr", json=classed))
    assert fight["members"][2]["name"] == "Magicien 3 A"
    fight = ok(client.patch(f"{url}/combatants/3?lang=fr", json=classed))  # the letter A is free of the other
    assert fight["members"][3]["name"] == "Magicien 3 B"
    fight = ok(client.patch(f"{url}/combatants/3?lang=fr", json={"fields": {"level": 4}}))
    assert fight["members"][3]["name"] == "Magicien 4 A"
    fight = ok(client.patch(f"{url}/combatants/4?lang=fr", json=classed))  # a name the GM gave stays
    assert fight["members"][4]["name"] == "Orrin"
    fight = ok(client.patch(f"{url}/combatants/2?lang=fr", json={"fields": {"class": "dwarf", "name": "Brok"}}))
    assert fight["members"][2]["name"] == "Brok"
    fight = ok(client.patch(f"{url}/combatants/3?lang=en", json={"fields": {"class": "cleric", "level": 1}}))
    assert fight["members"][3]["name"] == "Cleric 1 A"  # named anew in the language of the page asking
