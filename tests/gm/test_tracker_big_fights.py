"""Five NPCs against four PCs of every system through the tracker's JSON API to the end of the fight (issue 29:
"a four-against-five fight of any system from start to end"), the advisor playing every NPC move (a few plays
per move), the GM the PCs' first legal move; the page runs the same requests (tests/browser/ runs each system
two against two through the page itself)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

pytestmark = pytest.mark.integration

#: Five NPCs and four PCs per system, from the shipped bestiaries (the search box's names).
PLANS = {
    "ose": (["goblin", "goblin", "goblin", "hobgoblin", "goblin_archer"],
            ["fighter_2", "cleric_2", "magic_user_2", "thief_2"]),
    "runequest": (["trollkin", "trollkin", "trollkin", "dark_troll", "broo"],
                  ["humakti_swordsman", "orlanthi_warrior", "humakti_swordsman", "orlanthi_warrior"]),
    "mrq": (["orc", "orc", "orc", "broo", "dark_troll"], ["swordsman", "sword_and_shield", "archer", "swordsman"]),
    "dicepool": (["militia", "militia", "militia", "veteran", "bandit"],
                 ["ordinary_fighter", "militia", "duelist", "archer"]),
}


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    from npc_tactics.gm.service.app import create_app

    with TestClient(create_app()) as c:
        yield c


@pytest.mark.parametrize("system", sorted(PLANS))
def test_five_against_four_to_the_end(client: TestClient, system: str) -> None:
    npcs, pcs = PLANS[system]
    made = client.post("/fights?lang=fr", json={"system": system, "seed": 7, "sides": [
        {"name": "PNJ", "control": "npc"}, {"name": "PJ", "control": "pc"}]})
    assert made.status_code == 201, made.text
    url = f"/fights/{made.json()['id']}"
    for side, templates in ((0, npcs), (1, pcs)):
        for template in templates:
            added = client.post(f"{url}/combatants", json={"side": side, "template": template})
            assert added.status_code == 200, added.text
    fight = client.post(f"{url}/start?lang=fr").json()
    assert len(fight["combatants"]) == 9
    advised = 0
    for _ in range(3000):
        if fight["over"]:
            break
        if fight["decision"]["who"] == "npc":
            r = client.post(f"{url}/step?lang=fr", json={"advice": True, "odds": 2})
            advised += 1
        else:
            r = client.post(f"{url}/step?lang=fr", json={"action": fight["decision"]["moves"][0]["action"]})
        assert r.status_code == 200, r.text
        fight = r.json()
    assert fight["over"] and advised > 0
    assert fight["outcome"]["text"].startswith("Fin du combat après")
    client.delete(url)
