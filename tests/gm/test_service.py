"""The HTTP API of ``npc-tactics serve`` (issue 11 §4): the same answers as ``suggest``, only the folder's bundles,
bad input a 422 naming the field, bodies limited in size, rollouts capped, no state shared between requests."""

from __future__ import annotations

import importlib
import json
import shutil
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
import yaml
from fastapi.testclient import TestClient

from npc_tactics.gm.advice.suggest import suggest
from npc_tactics.gm.service.app import MAX_BODY_BYTES, MAX_ODDS, create_app
from npc_tactics.policy_io.onnx_agent import load_bundle_agent
from tests.gm.service_bundles import EXAMPLES, PRESETS, build_bundles

pytestmark = pytest.mark.integration
SYSTEMS = tuple(PRESETS)


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_bundles(tmp_path_factory.getbasetemp())


@pytest.fixture(scope="module")
def client(folder: Path) -> TestClient:
    return TestClient(create_app(folder))


def example(system: str) -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((EXAMPLES / f"{system}_situation.yaml").read_text(encoding="utf-8"))
    return data


def test_lists_the_folder_bundles_and_refuses_broken_ones(folder: Path, tmp_path: Path) -> None:
    mine = tmp_path / "bundles"
    shutil.copytree(folder / "ose", mine / "goblin")
    shutil.copytree(folder / "ose", mine / "broken")
    (mine / "broken" / "schema.json").write_text("{not json", encoding="utf-8")
    (mine / "notes").mkdir()  # no schema.json: not a bundle, not listed
    body = TestClient(create_app(mine)).get("/bundles").json()
    assert [b["id"] for b in body["bundles"]] == ["goblin"]
    assert body["bundles"][0]["system"] == "ose" and body["bundles"][0]["has_card"] is False
    (refused,) = body["refused"]
    assert refused["id"] == "broken" and "schema.json" in refused["reason"] and str(mine) not in refused["reason"]


def test_schema_endpoint_is_the_bundle_schema(client: TestClient, folder: Path) -> None:
    got = client.get("/bundles/mrq/schema")
    assert got.status_code == 200
    written = json.loads((folder / "mrq" / "schema.json").read_text(encoding="utf-8"))
    assert got.json()["onnx"]["sha256"] == written["onnx"]["sha256"]
    assert got.json()["actions"] == written["actions"]


@pytest.mark.parametrize("system", SYSTEMS)
def test_http_answer_equals_the_suggest_function(client: TestClient, folder: Path, system: str) -> None:
    situation = example(system)
    got = client.post("/suggest", json={"bundle": system, "situation": situation, "seed": 3})
    assert got.status_code == 200, got.text
    direct = suggest(folder / system, situation, seed=3, policy=load_bundle_agent(folder / system)).to_dict()
    body = got.json()
    assert body["bundle"] == system
    assert {k: body[k] for k in direct} == direct


@pytest.mark.parametrize("system", SYSTEMS)
def test_start_situation_is_one_suggest_accepts(client: TestClient, system: str) -> None:
    start = client.get(f"/bundles/{system}/start")
    assert start.status_code == 200
    got = client.post("/suggest", json={"bundle": system, "situation": start.json()["situation"]})
    assert got.status_code == 200, got.text
    assert got.json()["moves"] and abs(sum(m["probability"] for m in got.json()["moves"]) - 1) < 1e-3


def _broken(system: str, edit: str) -> tuple[dict[str, Any], list[Any]]:
    s = example(system)
    first = s["sides"][0]["combatants"][0]
    if edit == "hp":
        first["hp"] = "lots"
        return s, ["sides", 0, "combatants", 0, "hp"]
    if edit == "unknown_key":
        first["colour"] = "green"
        return s, ["sides", 0, "combatants", 0, "colour"]
    if edit == "acting":
        s["acting"] = "Nobody"
        return s, ["acting"]
    if edit == "round":
        s["round"] = -4
        return s, ["round"]
    raise AssertionError(edit)


@pytest.mark.parametrize("system", SYSTEMS)
@pytest.mark.parametrize("edit", ["unknown_key", "acting", "round"])
def test_bad_situation_is_422_naming_the_field(client: TestClient, system: str, edit: str) -> None:
    situation, where = _broken(system, edit)
    got = client.post("/suggest", json={"bundle": system, "situation": situation})
    assert got.status_code == 422, got.text
    (detail,) = got.json()["detail"]
    assert detail["loc"] == ["body", "situation", *where], detail
    assert detail["msg"].startswith("situation: ") and str(where[-1]) in detail["msg"]
    assert "/" not in detail["msg"].replace("w/", "")  # no server path (the bundle is named by its id)


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_bad_situation_is_told_in_the_request_s_language(client: TestClient, system: str) -> None:
    """``lang: fr``: the field's error in French after the same file and field ("round : -4 hors limites"), the
    English one unchanged without it."""
    situation, where = _broken(system, "round")
    english = client.post("/suggest", json={"bundle": system, "situation": situation}).json()["detail"][0]
    french = client.post("/suggest", json={"bundle": system, "situation": situation, "lang": "fr"}).json()
    (detail,) = french["detail"]
    assert detail["loc"] == english["loc"] == ["body", "situation", *where]
    assert english["msg"].startswith("situation: round: -4 ") and "out of range" in english["msg"]
    assert detail["msg"].startswith("situation: round\u202f: -4 hors limites"), detail["msg"]


def test_bad_hp_value_names_its_field(client: TestClient) -> None:
    situation, where = _broken("ose", "hp")
    detail = client.post("/suggest", json={"bundle": "ose", "situation": situation}).json()["detail"][0]
    assert detail["loc"] == ["body", "situation", *where]


@pytest.mark.parametrize("body, field", [
    ({"situation": {}}, "bundle"),
    ({"bundle": "ose"}, "situation"),
    ({"bundle": "ose", "situation": [1, 2]}, "situation"),
    ({"bundle": "ose", "situation": {}, "odds": -1}, "odds"),
    ({"bundle": "ose", "situation": {}, "odds": MAX_ODDS + 1}, "odds"),
    ({"bundle": "ose", "situation": {}, "lang": "de"}, "lang"),
    ({"bundle": "ose", "situation": {}, "seed": 2**31}, "seed"),
    ({"bundle": "ose", "situation": {}, "top": 0}, "top"),
    ({"bundle": "ose", "situation": {}, "opponent": "../x"}, "opponent"),
    ({"bundle": "ose", "situation": {}, "colour": 1}, "colour"),
])
def test_bad_request_fields_are_422_naming_them(client: TestClient, body: dict[str, Any], field: str) -> None:
    got = client.post("/suggest", json=body)
    assert got.status_code == 422
    assert any(d["loc"][:2] == ["body", field] for d in got.json()["detail"]), got.json()


@pytest.mark.parametrize("name", ["../ose", "/etc", "ose/../mrq", "..", ".hidden", "x" * 101])
def test_only_bundles_of_the_folder_are_reachable(client: TestClient, name: str) -> None:
    got = client.post("/suggest", json={"bundle": name, "situation": example("ose")})
    assert got.status_code == 422 and got.json()["detail"][0]["loc"] == ["body", "bundle"]
    if "/" not in name:  # a client normalises "a/../b" to "b" before sending it
        assert client.get(f"/bundles/{name}/schema").status_code in (404, 422)


@pytest.mark.parametrize("opponent", ["runs", "bundles", "ose", "tests"])
def test_opponent_is_a_scripted_agent_name_never_a_folder(client: TestClient, opponent: str) -> None:
    got = client.post("/suggest", json={"bundle": "ose", "situation": example("ose"), "opponent": opponent})
    assert got.status_code == 422 and got.json()["detail"][0]["loc"] == ["body", "opponent"]
    assert "by-the-book" in got.json()["detail"][0]["msg"]


def test_unknown_bundle_lists_the_served_ones(client: TestClient) -> None:
    got = client.post("/suggest", json={"bundle": "goblin", "situation": example("ose")})
    assert got.status_code == 422
    assert "dicepool, mrq, ose, runequest" in got.json()["detail"][0]["msg"]
    assert client.get("/bundles/goblin/schema").status_code == 404


def test_request_body_size_is_limited(client: TestClient) -> None:
    padding = {"description": "x" * MAX_BODY_BYTES}
    big = json.dumps({"bundle": "ose", "situation": {**example("ose"), **padding}}).encode()
    assert client.post("/suggest", content=big, headers={"content-type": "application/json"}).status_code == 413

    def chunks() -> Any:  # no Content-Length: counted as it streams
        for k in range(0, len(big), 4096):
            yield big[k:k + 4096]

    assert client.post("/suggest", content=chunks(), headers={"content-type": "application/json"}).status_code == 413


def test_server_cap_on_rollouts_names_odds(folder: Path) -> None:
    small = TestClient(create_app(folder, max_odds=10))
    got = small.post("/suggest", json={"bundle": "ose", "situation": example("ose"), "odds": 11})
    assert got.status_code == 422 and got.json()["detail"][0]["loc"] == ["body", "odds"]


@pytest.mark.parametrize("system", SYSTEMS)
def test_bestiary_gives_templates_and_form(client: TestClient, system: str) -> None:
    body = client.get(f"/bestiary/{system}").json()
    assert body["system"] == system and len(body["templates"]) >= 5
    assert body["wounds"]["kind"] in ("hp", "damage", "current")
    if body["wounds"]["kind"] != "hp":  # per-location wounds: a body plan of 1 to 12 locations (serpents 3, birds 6,
        # a RuneQuest scorpion man 12: runequest tables.MAX_LOCATIONS)
        assert all(1 <= len(t["locations"]) <= 12 for t in body["templates"])
    assert any(f["key"] == "round" for f in body["situation_fields"])


def test_unknown_system_is_422_naming_it(client: TestClient) -> None:
    got = client.get("/bestiary/gurps")
    assert got.status_code == 422 and got.json()["detail"][0]["loc"] == ["path", "system"]


def test_requests_share_no_engine_state(client: TestClient) -> None:
    """Interleaved requests on the same bundles give exactly the answers they give alone."""
    asks = [(s, dict(example(s), round=r)) for s in SYSTEMS for r in (1, 2, 3)]
    alone = [client.post("/suggest", json={"bundle": s, "situation": sit}).json() for s, sit in asks]
    with ThreadPoolExecutor(max_workers=4) as pool:
        together = list(pool.map(lambda a: client.post("/suggest", json={"bundle": a[0], "situation": a[1]}).json(),
                                 asks * 2))
    assert together == alone * 2


def test_card_is_404_without_one_and_served_with_one(folder: Path, tmp_path: Path) -> None:
    from npc_tactics.evaluation.arena import Arena
    from npc_tactics.policy_io.card import Card, CardRule

    mine = tmp_path / "bundles"
    shutil.copytree(folder / "ose", mine / "goblin")
    client = TestClient(create_app(mine))
    assert client.get("/bundles/goblin/card").status_code == 404
    arena = Arena.build("ose")
    names = list(arena.engine.catalogue.names)
    sha = json.loads((mine / "goblin" / "schema.json").read_text(encoding="utf-8"))["onnx"]["sha256"]
    card = Card("ose", "goblin_duel", 0, sha, [f.name for f in arena.encoder.fields], names,
                [CardRule(0, "declare", [], names.index("declare_withdraw"), "", [], 0.9, 0.5)], {},
                {"enemy_count": 1})
    card.save(mine / "goblin")
    client = TestClient(create_app(mine))
    assert client.get("/bundles").json()["bundles"][0]["has_card"] is True
    got = client.get("/bundles/goblin/card")
    assert got.status_code == 200 and got.json()["bundle"] == "goblin"
    assert got.json()["card"]["rules"][0]["action"] == names.index("declare_withdraw") or got.json()["card"]["rules"]
    assert "withdraw" in got.json()["markdown"] and got.json()["markdown"].startswith("#")
    french = client.get("/bundles/goblin/card?lang=fr").json()["markdown"]
    assert french != got.json()["markdown"] and "Fiche tactique" in french
    assert client.get("/bundles/goblin/card?lang=de").status_code == 422
    (mine / "goblin" / "card.json").write_text(json.dumps({"rules": "not a card"}), encoding="utf-8")
    assert TestClient(create_app(mine)).get("/bundles/goblin/card").status_code == 404  # never a 500


def test_openapi_documents_every_endpoint(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    for p in ("/bundles", "/bundles/{bundle_id}/schema", "/bundles/{bundle_id}/card", "/suggest",
              "/bestiary/{system}"):
        assert p in paths
    assert client.get("/docs").status_code == 200


def test_page_and_its_files_are_served_from_the_package(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and 'src="/static/app.js"' in page.text
    for name in ("app.js", "style.css"):
        assert client.get(f"/static/{name}").status_code == 200
    assert "http" not in page.text.replace("http-equiv", "")  # nothing fetched from elsewhere (no CDN)


def test_request_options_reach_suggest(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """odds, lang, top, opponent and the server's workers go to ``suggest`` (the one behind the CLI), with the
    bundle's own folder as its source (the card and trust records live there)."""
    module = importlib.import_module("npc_tactics.gm.advice.suggest")  # the package re-exports the function

    real = module.suggest
    seen: dict[str, Any] = {}

    def with_options(source: Any, situation: Any, *, seed: int = 0, policy: Any = None, odds: int = 0,
                     opponent: str = "by-the-book", lang: str = "en", top: int | None = None,
                     workers: int | None = None, think: float = 0.0, playouts: int | None = None) -> Any:
        seen.update(source=source, seed=seed, odds=odds, opponent=opponent, lang=lang, top=top, workers=workers,
                    think=think, playouts=playouts)
        return real(source, situation, seed=seed, policy=policy)

    monkeypatch.setattr(module, "suggest", with_options)
    client = TestClient(create_app(folder, workers=3))
    got = client.post("/suggest", json={"bundle": "ose", "situation": example("ose"), "odds": 7, "lang": "fr",
                                        "top": 2, "opponent": "aggressive", "seed": 5, "think": 0.25,
                                        "playouts": 12})
    assert got.status_code == 200, got.text
    assert seen == {"source": folder / "ose", "seed": 5, "odds": 7, "opponent": "aggressive", "lang": "fr",
                    "top": 2, "workers": 3, "think": 0.25, "playouts": 12}
    for bad in ({"think": -1}, {"think": 60}, {"playouts": 0}, {"think": "1"}):
        refused = client.post("/suggest", json={"bundle": "ose", "situation": example("ose"), **bad})
        assert refused.status_code == 422 and refused.json()["detail"][0]["loc"][1] in bad, refused.text


def test_the_page_s_search_answers_with_play_outs(folder: Path) -> None:
    """``think``/``playouts`` in a POST /suggest: the answer ranks by the search and says what it spent."""
    client = TestClient(create_app(folder))
    got = client.post("/suggest", json={"bundle": "ose", "situation": example("ose"), "playouts": 16, "seed": 2})
    assert got.status_code == 200, got.text
    body = got.json()
    assert body["ranked_by"] == "search" and body["search"]["playouts"] > 0
    assert body["moves"][0]["search"]["playouts"] > 0
