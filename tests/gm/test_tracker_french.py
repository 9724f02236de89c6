"""The tracker in French, every word a GM reads (issue 29, "Languages"): a whole OSE fight of 5 goblins (one a
pasted stat line) against 4 adventurers (one by class and level, its class and level then edited) driven through
the JSON API with ``lang=fr``, the advisor asked at every NPC decision and the PCs' dice typed; every string of
every answer that the page shows (the page's own words from ``GET /i18n/fr`` too) is collected and none may hold
an English word of the stoplist that suggest's French test uses (``tests/gm/test_french_everywhere.py``).

The stat lines are shown in the French edition's notation (CA, DV, TAC0, JS; the classes guerrier, clerc,
magicien...), while the entry and ``stat_block`` keep the English line the parser reads."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.gm.test_french_everywhere import english_left

pytestmark = pytest.mark.integration
#: A goblin as the OSE book prints it (OSE Classic Fantasy: Monsters, "Goblin").
GOBLIN_LINE = ("AC 6 [13], HD 1-1 (3hp), Att 1 × weapon (1d6), THAC0 19 [0], MV 60' (20'), SV D14 W15 P16 B17 "
               "S18 (NH), ML 7, AL Chaotic, XP 5")
#: Keys of the answers whose strings a GM reads on the page (ids, catalogue names and entries are not shown).
SHOWN = {"control_text", "round_text", "kind_text", "where", "label", "text", "title", "notes", "status_text",
         "details", "resources", "stat_line", "what", "do_text", "odds_text", "msg", "side_name", "name"}


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    from npc_tactics.gm.service.app import create_app

    with TestClient(create_app()) as c:
        yield c


def shown(answer: Any, key: str | None = None) -> Iterator[str]:
    """Every string of ``answer`` under a key of :data:`SHOWN` (lists and nested objects followed)."""
    if isinstance(answer, dict):
        for k, v in answer.items():
            if k not in ("entry", "stat_block", "action", "id"):
                yield from shown(v, k)
    elif isinstance(answer, list):
        for v in answer:
            yield from shown(v, key)
    elif isinstance(answer, str) and key in SHOWN:
        yield answer


def ok(r: Any, status: int = 200) -> dict[str, Any]:
    assert r.status_code == status, r.text
    out: dict[str, Any] = r.json()
    return out


def test_a_whole_ose_fight_in_french_has_no_english_left(client: TestClient) -> None:
    said: list[str] = []
    fight = ok(client.post("/fights?lang=fr", json={
        "system": "ose", "seed": 3, "dice": "pcs",
        "sides": [{"name": "Gobelins", "control": "npc"}, {"name": "Groupe", "control": "pc"}]}), 201)
    fid = fight["id"]
    url = f"/fights/{fid}"
    for k in range(4):
        fight = ok(client.post(f"{url}/combatants?lang=fr", json={"side": 0, "template": "goblin",
                                                                  "name": f"Gob {k + 1}"}))
    fight = ok(client.post(f"{url}/combatants?lang=fr", json={"side": 0, "name": "Krag",
                                                              "fields": {"stat_block": GOBLIN_LINE}}))
    for template, name in (("fighter_2", "Aldric"), ("cleric_2", "Berthe"), ("thief_2", "Corentin")):
        fight = ok(client.post(f"{url}/combatants?lang=fr", json={"side": 1, "template": template, "name": name}))
    fight = ok(client.post(f"{url}/combatants?lang=fr", json={"side": 1, "name": "Orrin",
                                                              "fields": {"class": "magic-user", "level": 1}}))
    members = {m["name"]: m for m in fight["members"]}
    assert members["Krag"]["stat_line"].startswith("CA 6 [13], DV 1-1 (3 pv), Att 1 × arme (1d6), TAC0 19 [0]")
    assert members["Krag"]["stat_block"] == GOBLIN_LINE and members["Krag"]["entry"]["stat_block"] == GOBLIN_LINE
    assert members["Aldric"]["stat_line"].startswith("guerrier 2, CA ") and "TAC0" in members["Aldric"]["stat_line"]
    assert members["Aldric"]["stat_block"].startswith("fighter 2, AC ")
    assert members["Orrin"]["what"] == "magicien 1"

    # the class and level edited before the start; mistakes at their field, in French
    orrin = members["Orrin"]["index"]
    bad = client.patch(f"{url}/combatants/{orrin}?lang=fr", json={"fields": {"class": "wizard"}})
    assert bad.status_code == 422 and bad.json()["detail"][0]["loc"] == ["body", "fields", "class"]
    assert bad.json()["detail"][0]["msg"].startswith("classe inconnue 'wizard'")
    too_high = client.patch(f"{url}/combatants/{orrin}?lang=fr", json={"fields": {"class": "elf", "level": 11}})
    assert too_high.status_code == 422 and too_high.json()["detail"][0]["loc"] == ["body", "fields", "level"]
    assert too_high.json()["detail"][0]["msg"] == "la classe elfe s'arrête au niveau 10, pas 11"
    said += [d["msg"] for r in (bad, too_high) for d in r.json()["detail"]]
    fight = ok(client.patch(f"{url}/combatants/{orrin}?lang=fr", json={"fields": {"class": "halfling", "level": 2}}))
    assert fight["members"][orrin]["what"] == "petite-gens 2"
    assert fight["members"][orrin]["stat_line"] == "petite-gens 2"  # no shipped halfling_2: class and level
    said += list(shown(fight))

    classes = ok(client.get("/fights/templates/ose?lang=fr"))["classes"]
    assert {c["text"] for c in classes} == {"guerrier", "clerc", "magicien", "voleur", "nain", "elfe", "petite-gens"}
    said += [c["text"] for c in classes]

    # an unnamed character is named by its class in French, and named anew when its class changes
    fight = ok(client.post(f"{url}/combatants?lang=fr", json={"side": 1, "template": "fighter_1"}))
    extra = len(fight["members"]) - 1
    assert fight["members"][extra]["name"] == "Guerrier 1 A"
    fight = ok(client.patch(f"{url}/combatants/{extra}?lang=fr", json={
        "fields": {"class": "cleric", "level": 1}, "remove": ["template", "stat_block"]}))
    assert fight["members"][extra]["name"] == "Clerc 1 A"
    fight = ok(client.delete(f"{url}/combatants/{extra}?lang=fr"))

    fight = ok(client.post(f"{url}/start?lang=fr"))
    for _ in range(1500):
        said += list(shown(fight))
        if fight["over"]:
            break
        if fight["die"] is not None:
            fight = ok(client.post(f"{url}/die?lang=fr", json={"face": 1 + fight["steps"] % fight["die"]["sides"]}))
        elif fight["decision"]["who"] == "npc":
            advice = ok(client.post(f"{url}/advise?lang=fr", json={"odds": 2}))
            said += list(shown(advice))
            fight = ok(client.post(f"{url}/step?lang=fr", json={"action": advice["do"]["action"], "by": "advisor"}))
        else:
            fight = ok(client.post(f"{url}/step?lang=fr", json={"action": fight["decision"]["moves"][0]["action"]}))
    assert fight["over"], "the fight did not end"
    # the initiative lines name the sides as the GM named them, never "camp 0"
    log = [line["text"] for line in fight["log"]]
    assert any(re.fullmatch(r"Initiative \(\d–\d\) : (Gobelins|Groupe) en premier\.", t) for t in log), log[:20]
    assert {"initiative (Gobelins)", "initiative (Groupe)"} <= {m[0] for t in log
                                                              for m in [re.search(r"initiative \(\w+\)", t)] if m}
    assert not [t for t in log if re.search(r"\bcamp \d", t)]
    said += list(shown(fight))
    said += list(ok(client.get("/i18n/fr"))["messages"].values())

    names = {w.lower() for n in ("Gob", "Krag", "Aldric", "Berthe", "Corentin", "Orrin", "Gobelins", "Groupe")
             for w in re.findall(r"[A-Za-z][\w']+", n)}
    left = sorted({line for line in said if english_left(line, names)})
    assert not left, f"{len(left)} French strings with English left, e.g. {left[:8]}"
    assert any(line.startswith("CA ") for line in said) and not any(re.search(r"\bTHAC0\b|\bAC \d", s)
                                                                      for s in said)
