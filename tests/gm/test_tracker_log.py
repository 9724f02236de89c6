"""The fight's log exported as text (issue 29: "export the fight log"): ``GET /fights/{id}/log`` gives what the
page shows under "Fight log", headed by the system, the sides with who played them and their combatants, the
seed and the dice, as a file to keep, in the language asked; in French no English is left."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.gm.test_french_everywhere import english_left


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    from npc_tactics.gm.service.app import create_app

    with TestClient(create_app()) as c:
        yield c


def ok(r: Any) -> dict[str, Any]:
    assert r.status_code in (200, 201), r.text
    body: dict[str, Any] = r.json()
    return body


def played_fight(client: TestClient) -> str:
    """An OSE fight of two goblins against a fighter, played to its end by the advisor and the GM's first move."""
    url = "/fights/" + ok(client.post("/fights", json={
        "system": "ose", "seed": 4, "sides": [{"name": "Gobelins", "control": "npc"},
                                             {"name": "Groupe", "control": "pc"}]}))["id"]
    ok(client.post(f"{url}/combatants", json={"side": 0, "template": "goblin", "name": "Grik"}))
    ok(client.post(f"{url}/combatants", json={"side": 0, "template": "goblin", "name": "Snag"}))
    ok(client.post(f"{url}/combatants", json={"side": 1, "template": "fighter_2", "name": "Aldric"}))
    fight = ok(client.post(f"{url}/start"))
    for _ in range(400):
        if fight["over"]:
            break
        if fight["decision"]["who"] == "npc":
            fight = ok(client.post(f"{url}/step", json={"advice": True, "odds": 0}))
        else:
            fight = ok(client.post(f"{url}/step", json={"action": fight["decision"]["moves"][0]["action"]}))
    assert fight["over"]
    return url


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_log_is_a_text_file_in_the_language_asked(client: TestClient, lang: str) -> None:
    url = played_fight(client)
    r = client.get(f"{url}/log?lang={lang}")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/plain")
    assert 'filename="fight-ose-round-' in r.headers["content-disposition"] and f"-{lang}.txt" in \
        r.headers["content-disposition"]
    text = r.text
    head = text.split("\n")[:4]
    assert "Old-School Essentials" in head[0] and "Gobelins" in head[1] and "Grik, Snag" in head[1]
    assert "Groupe" in head[2] and "Aldric" in head[2] and "4" in head[3]
    view = ok(client.get(f"{url}?lang={lang}"))
    shown = [line["text"] for line in view["log"]]
    assert all(line in text for line in shown)  # every line the page shows, in order
    assert [t for t in text.split("\n") if t.strip() in shown] and text.rstrip().endswith(view["outcome"]["text"])
    if lang == "fr":
        names = {"grik", "snag", "aldric", "gobelins", "groupe"}
        left = [t for t in text.split("\n") if english_left(t, names)]
        assert not left, left[:5]
        assert "\u202f:" in head[0]  # French typography
    client.delete(url)


def test_an_unknown_fight_has_no_log(client: TestClient) -> None:
    assert client.get("/fights/zz-nosuchfight0000/log").status_code in (404, 422)
