"""The "Encounter odds" section of the GM web page in a real headless Chromium: ``npc-tactics serve`` started as
a GM would (the shipped generalists; the odds need no policy bundle), a party and foes typed in, the figures read
off the page and checked against ``POST /odds`` with the same body, a bad template named, the page in French."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.browser.test_gm_page import chromium_path
from tests.serve_helpers import served

pytestmark = pytest.mark.integration
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with served(timeout=60) as base:  # the shipped generalists; the odds need no bundle of their own
        yield base

@pytest.fixture(scope="module")
def page(server: str) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium_path(), headless=True,
                                     args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"])
        tab = browser.new_page()
        tab.set_default_timeout(30_000)
        yield tab
        browser.close()


def open_odds(page: Any, server: str, system: str) -> None:
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready='1'][data-odds-ready='1']")
    if page.input_value("#odds-system") != system:
        page.select_option("#odds-system", system)
    page.wait_for_selector(f"body[data-odds-system='{system}']")


def shown(page: Any) -> dict[str, str]:
    rows = page.query_selector_all("#odds-table tbody tr")
    return {r.get_attribute("data-key"): r.query_selector("td").inner_text() for r in rows}


def pct(entry: dict[str, float]) -> str:
    return f"{100 * entry['rate']:.0f}% [{100 * entry['low']:.0f}–{100 * entry['high']:.0f}]"


def test_type_a_party_and_foes_and_read_the_odds_then_french(page: Any, server: str) -> None:
    open_odds(page, server, "ose")
    assert "goblin_archer" in page.inner_text("#odds-templates")
    page.fill("#odds-party", "fighter_2, cleric_2")
    page.fill("#odds-foes", "goblin x4, goblin_archer x2")
    page.fill("#odds-fights", "120")
    page.fill("#odds-seed", "3")
    page.click("#odds-ask")
    page.wait_for_selector("#odds-result:not([hidden])")
    body = {"system": "ose", "party": [{"template": "fighter_2", "count": 1}, {"template": "cleric_2", "count": 1}],
            "foes": [{"template": "goblin", "count": 4}, {"template": "goblin_archer", "count": 2}],
            "fights": 120, "seed": 3}
    api = httpx.post(f"{server}/odds", json=body, timeout=60).json()["odds"]
    figures = shown(page)
    assert figures["win"] == pct(api["win"])
    assert figures["rout"] == pct(api["rout"])
    assert figures["pc_death"] == pct(api["pc_death"])
    assert figures["rounds"] == f"{api['rounds']:.1f} [{api['rounds_low']:.1f}–{api['rounds_high']:.1f}]"
    assert page.inner_text("#odds-fights-done") == "120"

    page.select_option("#lang", "fr")
    page.wait_for_selector("body[data-lang='fr']")
    page.wait_for_function("document.querySelector('#odds-box h2').textContent === 'Chances de la rencontre'")
    assert "Victoire du groupe" in page.inner_text("#odds-table")
    assert "Au moins un PJ meurt" in page.inner_text("#odds-table")
    page.select_option("#lang", "en")
    page.wait_for_selector("body[data-lang='en']")
    page.wait_for_function("document.querySelector('#odds-box h2').textContent === 'Encounter odds'")


def test_an_unknown_template_is_named_with_the_choices(page: Any, server: str) -> None:
    open_odds(page, server, "runequest")
    assert "broo" in page.inner_text("#odds-templates")
    page.fill("#odds-party", "humakti_swordsman")
    page.fill("#odds-foes", "broo x2, gobbo")
    page.fill("#odds-fights", "20")
    page.click("#odds-ask")
    page.wait_for_selector("#odds-error:not([hidden])")
    error = page.inner_text("#odds-error")
    assert error.startswith("foes.1.template: unknown template 'gobbo'") and "broo" in error
    assert page.is_hidden("#odds-result")
