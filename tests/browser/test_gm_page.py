"""The GM web page end to end in a real headless Chromium (Debian's ``chromium``, installed by ``make test``),
driven by Playwright's Python package: ``npc-tactics serve`` started as a GM would, a situation filled in with
the forms, the suggestion read off the page, the page switched to French."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.browser.conftest import chromium_path  # noqa: F401  (tests/leaderboard/test_report_browser.py)

pytestmark = pytest.mark.integration
ROOT = Path(__file__).resolve().parents[2]
SERVE_TEST_BUNDLES = True  # conftest's server: the test bundles (tests/gm/service_bundles.py)


def open_system(page: Any, server: str, system: str) -> None:
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready='1']")
    page.wait_for_selector("body[data-loaded]")
    if page.input_value("#system") != system:
        page.evaluate("delete document.body.dataset.loaded")
        page.select_option("#system", system)
    page.wait_for_selector(f"body[data-loaded='{system}']")  # the forms show this bundle's situation


def figure(text: str) -> float:
    """A number as the page writes it: "34.1%" in English, "34,1 %" in French (narrow no-break spaces)."""
    return float(text.strip().rstrip("%").replace("\u202f", "").replace("\u00a0", "").replace(",", "."))


def shown_moves(page: Any) -> list[tuple[str, float]]:
    rows = page.query_selector_all("#moves tbody tr")
    return [(r.query_selector(".move-name").inner_text().rstrip(" ★"),
             figure(r.query_selector(".pct").inner_text())) for r in rows]


def test_fill_a_situation_ask_and_read_the_suggestion_then_french(page: Any, server: str) -> None:
    open_system(page, server, "ose")
    npc = page.locator("fieldset[data-side='0'] .combatant").first
    foe = page.locator("fieldset[data-side='1'] .combatant").first
    npc.locator("input[name='hp']").fill("2")
    npc.locator("input[name='hp']").dispatch_event("change")
    npc.locator("input[name='max_hp']").fill("3")
    npc.locator("input[name='max_hp']").dispatch_event("change")
    foe.locator("input[name='position']").fill("6")
    foe.locator("input[name='position']").dispatch_event("change")
    page.locator("label[data-key='round'] input").fill("3")
    page.locator("label[data-key='round'] input").dispatch_event("change")
    page.locator("label[data-key='phase'] select").select_option("move")
    sent = json.loads(page.text_content("#preview") or "")
    first = sent["sides"][0]["combatants"][0]
    assert (first["hp"], first["max_hp"], sent["round"], sent["phase"]) == (2, 3, 3, "move")
    assert sent["sides"][1]["combatants"][0]["position"] == 6

    page.click("#ask")
    page.wait_for_selector("#result:not([hidden])")
    moves = shown_moves(page)
    api = httpx.post(f"{server}/suggest", json={"bundle": "ose", "situation": sent}, timeout=30).json()
    assert [m for m, _ in moves] == [m.get("label", m["action"]) for m in api["moves"]]
    assert [p for _, p in moves] == pytest.approx([100 * m["probability"] for m in api["moves"]], abs=0.051)
    assert "Snikkit" in page.inner_text("#result-title") and "3" in page.inner_text("#result-title")
    widths = [float(b.get_attribute("style").split(":")[1].rstrip("%"))
              for b in page.query_selector_all("#moves .bar span")]
    assert widths == sorted(widths, reverse=True) and widths[0] > 0

    page.select_option("#lang", "fr")
    page.wait_for_selector("body[data-lang='fr']")  # the switch done: words, stat blocks, the answer asked again
    page.wait_for_function("document.querySelector('h1').textContent === 'Que doit faire ce PNJ maintenant\u202f?'")
    page.wait_for_selector("#result:not([hidden])")
    assert page.inner_text("#moves thead") .split() [1:3] == ["Coup", "Probabilité"]
    assert "round 3" in page.inner_text("#result-title")
    assert "Ajouter un combattant" in page.inner_text("#sides")
    page.select_option("#lang", "en")
    page.wait_for_selector("body[data-lang='en']")
    page.wait_for_function("document.querySelector('h1').textContent === 'What should this NPC do now?'")


@pytest.mark.parametrize("system", ["runequest", "mrq", "dicepool"])
def test_wounds_by_location_reach_the_suggestion(page: Any, server: str, system: str) -> None:
    open_system(page, server, system)
    npc = page.locator("fieldset[data-side='0'] .combatant").first
    form = httpx.get(f"{server}/bestiary/{system}").json()
    box = npc.locator("input[name='loc-left_leg']")
    box.fill("2")
    box.dispatch_event("change")
    sent = json.loads(page.text_content("#preview") or "")
    assert sent["sides"][0]["combatants"][0][form["wounds"]["key"]] == {"left_leg": 2}
    page.click("#ask")
    page.wait_for_selector("#result:not([hidden])")
    assert shown_moves(page)
    if system == "runequest":  # damage taken shows in the assumptions the loader made (max HP less wounds)
        assert "hp not given" in page.inner_text("#notes")


def test_a_rider_s_mount_is_described_under_it(page: Any, server: str) -> None:
    """MRQ: picking a mounted template shows its mount's own status and wounds (the warhorse's locations);
    what is filled in is sent as the rider's ``mount`` and reaches the loader (no "mount not given" note)."""
    open_system(page, server, "mrq")
    foe = page.locator("fieldset[data-side='1'] .combatant").first
    foe.locator("select[name='template']").select_option("mounted_lancer")
    page.click("#ask")  # left out: unhurt, and the answer says so
    page.wait_for_selector("#result:not([hidden])")
    assert "mount not given, unhurt" in page.inner_text("#notes")
    horse = page.locator("fieldset[data-side='1'] .combatant").first.locator(".mount[data-mount='warhorse']")
    assert horse.locator("input[name='mount-loc-head']").count() == 1  # the rider's own head is loc-head
    box = horse.locator("input[name='mount-loc-forequarters']")
    box.fill("3")
    box.dispatch_event("change")
    sent = json.loads(page.text_content("#preview") or "")
    assert sent["sides"][1]["combatants"][0]["mount"] == {"locations": {"forequarters": 3}}
    page.evaluate("document.querySelector('#result').hidden = true")
    page.click("#ask")
    page.wait_for_selector("#result:not([hidden])")
    assert shown_moves(page) and "mount not given" not in page.inner_text("#notes")


def test_a_bad_field_is_shown_by_name(page: Any, server: str) -> None:
    open_system(page, server, "mrq")
    page.fill("#extra", '{"colour": "green"}')
    page.dispatch_event("#extra", "input")
    page.click("#ask")
    page.wait_for_selector("#error:not([hidden])")
    assert "colour" in page.inner_text("#error")
    assert page.is_hidden("#result")


def _rate(rate: float, low: float, high: float) -> dict[str, float]:
    return {"rate": rate, "low": low, "high": high}


ANSWER_WITH_ODDS = {  # the shape of `suggest --json` with --odds (issue 11 §2)
    "system": "ose", "actor": "Snikkit", "decision": "ACT", "round": 3, "notes": [], "assumptions": [],
    "card_rule": {"text": "if the enemy is within 10 m: step back and shoot", "action": "move_away",
                  "probability": 0.8, "fires": 0.4},
    "turn": {"steps": [{"label": "step back"}, {"label": "shoot Brannoc with the short bow"}]},
    "moves": [
        {"action": "move_away", "label": "step back", "probability": 0.7, "within_best": True,
         "odds": {"rollouts": 200, "win": _rate(0.6, 0.53, 0.665), "fled": _rate(0.1, 0.07, 0.15),
                  "dead": _rate(0.3, 0.24, 0.37), "rounds": 4.25}},
        {"action": "hold", "label": "hold", "probability": 0.3, "within_best": False,
         "odds": {"rollouts": 200, "win": _rate(0.4, 0.33, 0.47), "fled": _rate(0.0, 0.0, 0.02),
                  "dead": _rate(0.6, 0.53, 0.66), "rounds": 3.5}},
    ],
}


def test_odds_intervals_card_rule_and_turn_are_shown(page: Any, server: str) -> None:
    open_system(page, server, "ose")
    page.evaluate("answer => renderAnswer(answer)", ANSWER_WITH_ODDS)
    rows = page.query_selector_all("#moves tbody tr")
    assert rows[0].query_selector(".move-name").inner_text() == "step back ★"
    assert rows[1].query_selector(".move-name").inner_text() == "hold"
    odds = rows[0].query_selector(".odds").inner_text()
    assert "win 60% [53–67]" in odds and "fled 10% [7–15]" in odds and "dead 30% [24–37]" in odds
    assert "expected rounds 4.3" in odds or "expected rounds 4.2" in odds
    assert rows[0].query_selector(".rule").inner_text().startswith("if the enemy is within 10 m")
    assert rows[1].query_selector(".rule").inner_text() == ""
    lead = page.inner_text("#card-rule")
    assert "This round: step back → shoot Brannoc with the short bow" in lead
