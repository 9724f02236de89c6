"""The tracker's Edit box starts from text its system's parser reads back (issue 29): for RuneQuest, MRQ and the
dice pool, every bestiary template's ``stat_block`` (the full stat block in the book layout, not the one-line
summary) sent back as the combatant's pasted block is accepted and gives the same stat line."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from npc_tactics.encounters.adapters import adapter
from npc_tactics.registry import get_system

SIDES = [{"name": "A", "control": "npc"}, {"name": "B", "control": "pc"}]


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    from npc_tactics.gm.service.app import create_app

    with TestClient(create_app()) as c:
        yield c


@pytest.mark.parametrize("system", ["runequest", "mrq", "dicepool"])
def test_every_template_edits_back_to_itself(client: TestClient, system: str) -> None:
    refused, changed = [], []
    for template in adapter(get_system(system)).templates():
        fight = client.post("/fights", json={"system": system, "seed": 1, "sides": SIDES}).json()
        url = f"/fights/{fight['id']}"
        member = client.post(f"{url}/combatants", json={"side": 0, "template": template}).json()["members"][0]
        assert "\n" in member["stat_block"], f"{template}: the Edit box gets a one-line summary"
        edited = client.patch(f"{url}/combatants/0", json={"fields": {"stat_block": member["stat_block"]},
                                                           "remove": ["template"]})
        if edited.status_code != 200:
            refused.append((template, edited.json()["detail"][0]["msg"]))
        elif edited.json()["members"][0]["stat_line"] != member["stat_line"]:
            changed.append(template)
        client.delete(url)
    assert not refused, refused[:3]
    assert not changed, changed
