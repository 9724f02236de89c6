"""The templates of the web page's "Encounter odds" section in the page's language: ``GET /fights/templates/{system}``
(what odds.js lists) names every template ``POST /odds`` takes, each with its name in ``lang`` ("gobelin" for
``goblin``); ``POST /odds`` takes that name as well as the id (case and spaces do not count), and an unknown or
ambiguous name is a 422 naming the token, in the request's language (gettext domain ``odds``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from npc_tactics.errors import UnknownNameError
from npc_tactics.gm.encounter.odds import template_names
from npc_tactics.gm.service.odds_routes import TemplateWords, listed
from npc_tactics.gm.table.stat_words import template_text
from npc_tactics.i18n import translator
from npc_tactics.registry import get_system

SYSTEMS = ["ose", "runequest", "mrq", "dicepool"]


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> TestClient:
    from npc_tactics.gm.service.app import create_app

    folder: Path = tmp_path_factory.mktemp("bundles")
    return TestClient(create_app(folder, workers=1))


@pytest.mark.parametrize("system", SYSTEMS)
def test_the_list_is_every_template_odds_takes_with_its_name_in_the_language(client: TestClient,
                                                                            system: str) -> None:
    names = template_names(get_system(system))
    for lang in ("en", "fr"):
        r = client.get(f"/fights/templates/{system}", params={"lang": lang})
        assert r.status_code == 200, r.text
        templates = r.json()["templates"]
        assert [t["name"] for t in templates] == names  # fighter_14 too, not only the form's stat blocks
        assert all(isinstance(t["text"], str) and t["text"] for t in templates)


def test_the_labels_in_french_and_english(client: TestClient) -> None:
    # what odds.js shows (its listed() is odds_routes.listed): the French name with the id to type, or the id alone
    fr = {t["name"]: t["text"] for t in client.get("/fights/templates/ose?lang=fr").json()["templates"]}
    en = {t["name"]: t["text"] for t in client.get("/fights/templates/ose?lang=en").json()["templates"]}
    assert fr["goblin"] == "gobelin" and fr["goblin_archer"] == "archer gobelin" and fr["fighter_2"] == "guerrier 2"
    assert listed("goblin", fr["goblin"]) == "gobelin (goblin)"
    assert listed("goblin_archer", fr["goblin_archer"]) == "archer gobelin (goblin_archer)"
    assert listed("bandit", fr["bandit"]) == "bandit"
    assert listed("goblin", en["goblin"]) == "goblin"
    assert listed("goblin_archer", en["goblin_archer"]) == "goblin_archer"  # "goblin archer": the id in words
    assert listed("magic_user_1", en["magic_user_1"]) == "magic_user_1"  # "magic-user 1"
    assert listed("goblin", "Goblin chief") == "Goblin chief (goblin)"  # a distinct English name keeps its id


BODY = {"system": "ose", "party": [{"template": "fighter_2"}, {"template": "cleric_2"}],
        "foes": [{"template": "goblin", "count": 2}, {"template": "goblin_archer"}], "fights": 20, "seed": 5}


@pytest.mark.parametrize(("party", "foes", "lang"), [
    (["guerrier 2", "clerc 2"], ["gobelin", "archer gobelin"], "fr"),
    (["Guerrier 2", "CLERC  2"], ["Gobelin", "Archer Gobelin"], "fr"),  # case and spaces do not count
    (["guerrier 2 (fighter_2)", "clerc 2 (cleric_2)"], ["gobelin (goblin)", "archer gobelin"], "fr"),  # as listed
    (["fighter 2", "cleric 2"], ["goblin", "goblin archer"], "fr"),  # English words on the French page
    (["fighter 2", "Cleric_2"], ["Goblin", "goblin archer"], "en"),
])
def test_a_name_in_the_language_is_taken_for_its_id(client: TestClient, party: list[str], foes: list[str],
                                                     lang: str) -> None:
    by_id = client.post("/odds", json={**BODY, "lang": lang})
    assert by_id.status_code == 200, by_id.text
    body = {**BODY, "lang": lang, "party": [{"template": p} for p in party],
            "foes": [{"template": foes[0], "count": 2}, {"template": foes[1]}]}
    r = client.post("/odds", json=body)
    assert r.status_code == 200, r.text
    got = r.json()
    assert (got["party"], got["foes"]) == ("fighter_2, cleric_2", "goblin x2, goblin_archer")
    assert got["odds"] == by_id.json()["odds"]  # the same fights: the name stands for its id


def test_a_name_given_twice_in_two_languages_adds_up(client: TestClient) -> None:
    body = {**BODY, "lang": "fr", "foes": [{"template": "gobelin", "count": 2}, {"template": "goblin", "count": 5}]}
    r = client.post("/odds", json=body)
    assert r.status_code == 422
    assert r.json()["detail"][0]["loc"] == ["body", "foes"]
    assert r.json()["detail"][0]["msg"] == translator("fr", "odds")(
        "at most {n} combatants on a side, got {m}").format(n=6, m=7)


def test_an_unknown_name_is_named_in_the_page_s_language(client: TestClient) -> None:
    fr = client.post("/odds", json={**BODY, "lang": "fr", "foes": [{"template": "gobelin"}, {"template": "gobbo"}]})
    assert fr.status_code == 422
    [detail] = fr.json()["detail"]
    assert detail["loc"] == ["body", "foes", 1, "template"]
    words = TemplateWords.of(get_system("ose"), template_names(get_system("ose")), "fr", template_text)
    near = ", ".join(words.listed_as(n) for n in words.near("gobbo"))
    assert "gobelin (goblin)" in near
    assert detail["msg"] == translator("fr", "odds")(
        "unknown template {name}; did you mean {near}? ({n} valid templates)").format(
        name="'gobbo'", near=near, n=len(words.names))
    en = client.post("/odds", json={**BODY, "lang": "en", "foes": [{"template": "gobbo"}]})
    [detail] = en.json()["detail"]
    assert detail["msg"] == str(UnknownNameError("template", "gobbo", words.names))  # English as it always was
    assert detail["msg"].startswith("unknown template 'gobbo'; did you mean")


def test_a_short_bestiary_lists_every_name_in_french() -> None:
    rq = get_system("runequest")
    words = TemplateWords.of(rq, template_names(rq), "fr", template_text)
    msg = words.unknown("gobbo")
    assert "'gobbo'" in msg and "loup (wolf)" in msg and "broo" in msg
    assert msg.index("épéiste humaktien") < msg.index("faucon (hawk)")  # "é" among the e's


def test_an_ambiguous_name_lists_the_ids_it_may_mean() -> None:
    words = TemplateWords(("orc", "orc_chief"), {"orc": "orque", "orc_chief": "orque"},
                          {"orc": ("orc",), "orc chief": ("orc_chief",), "orque": ("orc", "orc_chief")}, "fr")
    assert words.matches("ORQUE") == ("orc", "orc_chief")
    assert words.matches("orc") == ("orc",)  # an id is never ambiguous
    msg = words.ambiguous("Orque", words.matches("Orque"))
    assert "'Orque'" in msg and "orque (orc)" in msg and "orque (orc_chief)" in msg
    assert msg == translator("fr", "odds")("ambiguous template {name}: it names {names}; write one of these").format(
        name="'Orque'", names="orque (orc), orque (orc_chief)")
