"""The tracker's stat lines, actor import and editing on a real server (the one ``test_tracker_api`` starts):
a ghoul and a dwarf exported from Foundry VTT's OSE system added to a fight with ``POST /fights/{id}/import``
(the ghoul's stat line on its card, the dwarf's class and level, what the file holds that the engine does not
read listed); a file of another game system, a malformed one, an unknown format and an oversized body refused
at their field; a pasted stat line with a typo refused at ``fields.stat_block`` and the combatant left as it
was, the corrected one taken."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.gm.test_tracker_api import base, post  # noqa: F401  (the server fixture)

pytestmark = pytest.mark.integration
FOUNDRY = Path(__file__).resolve().parents[1] / "rules" / "ose" / "foundry"
#: The ghoul as OSE Classic Fantasy: Monsters prints it (the shipped ``ghoul`` template's line, ``bestiary ose``).
GHOUL_LINE = ("AC 6 [13], HD 2* (9hp), Att 2 × claw (1d3 + paralysis), 1 × bite (1d3 + paralysis), THAC0 18 [+1], "
              "MV 90' (30'), SV D12 W13 P14 B15 S16 (2), ML 9, AL Chaotic, XP 25, NA 1d6 (2d8), TT B")


def actor(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FOUNDRY / f"{name}.json").read_text(encoding="utf-8"))
    return data


def fight(base: str) -> str:  # noqa: F811
    r = httpx.post(f"{base}/fights", json={"system": "ose", "seed": 3}, timeout=120)
    if r.status_code == 422 and "action catalogue" in r.text:  # the shipped OSE policy is behind the rules
        pytest.skip(f"no OSE fight can be created on this tree: {r.json()['detail'][0]['msg'][:160]}")
    assert r.status_code == 201, r.text
    fid: str = r.json()["id"]
    return fid


def refused(r: httpx.Response) -> tuple[list[Any], str]:
    assert r.status_code == 422, r.text
    detail = r.json()["detail"][0]
    return detail["loc"], detail["msg"]


def test_the_formats_come_from_the_plugins(base: str) -> None:  # noqa: F811
    got = httpx.get(f"{base}/fights/formats", timeout=30).json()["formats"]
    assert {"format": "foundry-ose", "system": "ose"}.items() <= next(
        f for f in got if f["format"] == "foundry-ose").items()


def test_a_foundry_monster_is_added_with_its_stat_line(base: str) -> None:  # noqa: F811
    fid = fight(base)
    view = post(f"{base}/fights/{fid}/import", {"format": "foundry-ose", "data": actor("ghoul"), "side": 0,
                                                "file": "ghoul.json"})
    got = view["imported"]
    assert (got["kind"], got["name"], got["index"]) == ("monster", "Ghoul", 0)
    member = view["members"][0]
    assert member["stat_line"] == GHOUL_LINE and member["entry"]["stat_block"] == GHOUL_LINE
    assert "max_hp" not in member["entry"]  # a situation's key: the fight starts from the scenario entry
    assert any("undead" in n for n in got["notes"])  # read with an assumption: said, not fatal
    # the card of the started fight shows it too
    view = post(f"{base}/fights/{fid}/combatants", {"side": 1, "template": "fighter_2"})
    view = post(f"{base}/fights/{fid}/start")
    card = next(c for c in view["combatants"] if c["name"] == "Ghoul")
    assert card["stat_line"] == GHOUL_LINE
    fighter = next(c for c in view["combatants"] if c["name"] != "Ghoul")
    assert fighter["stat_line"].startswith("fighter 2, AC ") and "THAC0 " in fighter["stat_line"]


def test_a_foundry_character_is_added_by_class_and_level(base: str) -> None:  # noqa: F811
    fid = fight(base)
    view = post(f"{base}/fights/{fid}/import", {"format": "foundry-ose", "data": actor("dwarf"), "side": 1})
    got = view["imported"]
    assert got["kind"] == "character"
    entry = view["members"][0]["entry"]
    assert (entry["class"], entry["level"], entry["hp"]) == ("dwarf", 6, 30)  # 30 of 34 hp now: kept, and said
    assert view["members"][0]["stat_line"].startswith("dwarf 6")
    assert any("30 hp" in n for n in got["notes"])
    # fields of the file the engine does not read are listed, not fatal
    assert any("Two-Handed Sword" in u for u in got["unused"]) and any("languages" in u for u in got["unused"])


@pytest.mark.parametrize(("file", "loc", "words"), [
    ("dnd5e", ["body", "data", "_stats", "systemId"], "dnd5e"),
    ("malformed", ["body", "data", "system", "hp", "hd"], "lots"),
])
def test_a_file_that_is_no_ose_actor_is_refused_at_its_field(base: str, file: str, loc: list[str],  # noqa: F811
                                                              words: str) -> None:
    fid = fight(base)
    where, msg = refused(httpx.post(f"{base}/fights/{fid}/import", json={"format": "foundry-ose",
                                                                        "data": actor(file)}, timeout=60))
    assert where == loc and words in msg
    assert httpx.get(f"{base}/fights/{fid}", timeout=30).json()["members"] == []


def test_a_bad_import_request_is_refused(base: str) -> None:  # noqa: F811
    fid = fight(base)
    url = f"{base}/fights/{fid}/import"
    where, msg = refused(httpx.post(url, json={"format": "foundry-dnd5e", "data": actor("ghoul")}, timeout=60))
    assert where == ["body", "format"] and "foundry-ose" in msg
    where, _ = refused(httpx.post(url, json={"format": "foundry-ose", "data": [1, 2]}, timeout=60))
    assert where[:2] == ["body", "data"]
    where, msg = refused(httpx.post(url, json={"format": "foundry-ose", "data": {"type": "monster"}}, timeout=60))
    assert where == ["body", "data", "system"]
    big = {"format": "foundry-ose", "data": {**actor("ghoul"), "biography": "x" * (1024 * 1024 + 10)}}
    assert httpx.post(url, json=big, timeout=60).status_code == 413


def test_a_pasted_stat_line_is_checked_again(base: str) -> None:  # noqa: F811
    fid = fight(base)
    view = post(f"{base}/fights/{fid}/combatants", {"side": 0, "template": "ghoul"})
    before = view["members"][0]
    typo = GHOUL_LINE.replace("1 × bite", "1 × bit")
    r = httpx.patch(f"{base}/fights/{fid}/combatants/0", json={"fields": {"stat_block": typo},
                                                              "remove": ["template"]}, timeout=60)
    where, msg = refused(r)
    assert where == ["body", "fields", "stat_block"] and "'bit'" in msg and "bite" in msg
    assert httpx.get(f"{base}/fights/{fid}", timeout=30).json()["members"][0] == before
    better = GHOUL_LINE.replace("ML 9", "ML 12")
    view = httpx.patch(f"{base}/fights/{fid}/combatants/0", json={"fields": {"stat_block": better},
                                                                 "remove": ["template"]}, timeout=60).json()
    member = view["members"][0]
    assert "template" not in member["entry"] and member["name"] == before["name"]
    assert member["stat_line"] == better
    where, _ = refused(httpx.patch(f"{base}/fights/{fid}/combatants/5", json={"fields": {"stat_block": better}},
                                   timeout=60))
    assert where == ["body", "combatant"]
    post(f"{base}/fights/{fid}/combatants", {"side": 1, "template": "fighter_1"})
    post(f"{base}/fights/{fid}/start")
    where, msg = refused(httpx.patch(f"{base}/fights/{fid}/combatants/0", json={"fields": {"stat_block": GHOUL_LINE}},
                                     timeout=60))
    assert "started" in msg


# ----- the pure part, without a server (runs while no OSE fight can be created) ------------------------------
def test_an_actor_becomes_a_scenario_entry_and_stat_lines_come_from_the_system() -> None:
    from npc_tactics.errors import ConfigError
    from npc_tactics.gm.table.fight_import import MAX_IMPORT_BYTES, import_data, stat_line
    from npc_tactics.registry import get_system

    got = import_data("foundry-ose", get_system("ose"), actor("ghoul"), "ghoul.json")
    assert got.combatant == {"name": "Ghoul", "stat_block": GHOUL_LINE, "hp": 9,
                             "immune": ["sleep", "hold", "charm", "poison"]}
    with pytest.raises(ConfigError) as exc:
        import_data("foundry-ose", get_system("runequest"), actor("ghoul"))
    assert exc.value.field == "format"
    with pytest.raises(ConfigError) as exc:
        import_data("foundry-ose", get_system("ose"), {**actor("ghoul"), "biography": "x" * MAX_IMPORT_BYTES})
    assert exc.value.field == "data"
    assert stat_line(get_system("ose"), {"name": "G", "template": "ghoul"}) == GHOUL_LINE
    fighter = str(stat_line(get_system("ose"), {"name": "F", "template": "fighter_2"}))
    assert fighter.startswith("fighter 2, AC 4 [15], Att 1 ×")
    assert stat_line(get_system("ose"), {"name": "E", "class": "elf", "level": 9}) == "elf 9"
    assert stat_line(get_system("ose"), {"name": "P", "stat_block": " AC 6 [13],\n HD 1 "}) == "AC 6 [13], HD 1"
