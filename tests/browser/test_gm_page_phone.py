"""The GM question page on a phone (issue 29) in a real headless Chromium: at 390x844, in English and in French,
the advisor's answer (the ranked moves with their odds, the search line, the tactics card) and the encounter odds
fit the screen: no sideways scroll, nothing cut off, the top move and its odds inside the viewport. At 1280x800
the moves are still a table, one row a move. Screenshots to ``$PHONE_SHOTS`` when it is set (to look at, not to
keep in the repository)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import pytest

from tests.browser.test_gm_page import ANSWER_WITH_ODDS, chromium_path, open_system, shown_moves
from tests.browser.tracker_helpers import word
from tests.gm.service_bundles import build_bundles
from tests.serve_helpers import served

pytestmark = pytest.mark.integration
SHOTS = os.environ.get("PHONE_SHOTS")
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}

# Every visible element's box sticking out of the viewport on the right or the left (what a sideways scroll or
# an `overflow: hidden` would hide), and every element whose own text is wider than its box (cut off).
OFFENDERS = """() => {
  const out = [], width = document.documentElement.clientWidth;
  for (const node of document.querySelectorAll('body *')) {
    const r = node.getBoundingClientRect();
    if (!r.width || !r.height || getComputedStyle(node).visibility === 'hidden') continue;
    const name = `${node.tagName}#${node.id}.${node.className}`, style = getComputedStyle(node);
    if (r.left < -0.5 || r.right > width + 0.5) out.push(`${name} ${r.left}..${r.right}`);
    if (['hidden', 'clip'].includes(style.overflowX) && node.scrollWidth > node.clientWidth + 1) {
      out.push(`${name} cut: ${node.scrollWidth} > ${node.clientWidth}`);
    }
  }
  return out;
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with served("--bundles", str(build_bundles(tmp_path_factory.getbasetemp())), timeout=60) as base:
        yield base


@pytest.fixture(scope="module")
def shipped() -> Iterator[str]:
    with served(timeout=60) as base:  # the generalists shipped with the package, their tactics cards with them
        yield base


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=chromium_path(), headless=True,
                                      args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"])
        yield chromium
        chromium.close()


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    tab = browser.new_page(viewport=PHONE)
    tab.set_default_timeout(30_000)
    yield tab
    tab.close()


def shot(page: Any, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"phone_{name}.png"), full_page=True)


def in_language(page: Any, lang: str) -> None:
    """Switch the page's language as a GM does (the Language menu) and wait for its heading to change."""
    if page.input_value("#lang") != lang:
        page.select_option("#lang", lang)
    heading = word("What should this NPC do now?", lang)
    page.wait_for_function("h => document.querySelector('h1').textContent === h", arg=heading)


def ask(page: Any, *, rollouts: int, think: float = 0) -> None:
    page.fill("#odds", str(rollouts))
    page.fill("#think", str(think))
    page.evaluate("document.querySelector('#result').hidden = true")
    page.click("#ask")
    page.wait_for_selector("#result:not([hidden])")


def fits(page: Any, width: int) -> None:
    scroll = page.evaluate("document.documentElement.scrollWidth")
    assert scroll <= width, f"the page scrolls sideways: scrollWidth {scroll} > {width}"
    assert page.evaluate(OFFENDERS) == []


def inside(page: Any, selector: str, width: int) -> None:
    """The element is shown, entirely between 0 and ``width`` px, and its text is not cut off."""
    node = page.locator(selector)
    assert node.is_visible(), selector
    box = node.bounding_box()
    assert box is not None and box["width"] > 0, selector
    assert box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5, (selector, box)
    assert node.evaluate("n => n.scrollWidth <= n.clientWidth + 1"), f"{selector}: its text is cut off"


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("system", ["ose", "runequest"])
def test_the_answer_fits_a_phone(phone: Any, server: str, system: str, lang: str) -> None:
    open_system(phone, server, system)
    in_language(phone, lang)
    ask(phone, rollouts=4)
    moves = shown_moves(phone)
    assert moves and moves[0][1] > 0
    odds = phone.inner_text("#moves tbody tr.best .odds")
    assert word("win", lang) in odds and "%" in odds
    fits(phone, PHONE["width"])
    for part in (".move-name", ".pct", ".bar", ".odds"):  # the top move, its probability and its odds
        inside(phone, f"#moves tbody tr.best {part}", PHONE["width"])
    # the column names are still there for each figure, in the page's language
    labels = phone.locator("#moves tbody tr.best td.odds").evaluate("n => getComputedStyle(n, '::before').content")
    assert word("Odds", lang) in labels
    shot(phone, f"{system}_{lang}")


@pytest.mark.parametrize(("system", "lang"), [("ose", "fr"), ("runequest", "en")])
def test_the_shipped_advisor_s_card_and_rules_fit_a_phone(browser: Any, shipped: str, system: str,
                                                          lang: str) -> None:
    """The generalists shipped with the package have a tactics card: its rule shows beside the moves, the search
    line under them, and the card itself, opened, wraps its lines instead of running off the screen."""
    tab = browser.new_page(viewport=PHONE)
    tab.set_default_timeout(30_000)
    try:
        open_system(tab, shipped, system)
        in_language(tab, lang)
        ask(tab, rollouts=2, think=0.2)  # a short search: its line shows under the moves
        assert word("Searched", lang) in tab.inner_text("#card-rule")
        assert tab.is_visible("#card-box")
        tab.click("#card-box summary")
        tab.wait_for_function("document.querySelector('#card').textContent.trim().length > 0")
        fits(tab, PHONE["width"])
        for part in (".move-name", ".pct", ".odds"):
            inside(tab, f"#moves tbody tr.best {part}", PHONE["width"])
        if tab.inner_text("#moves tbody tr.best .rule").strip():
            inside(tab, "#moves tbody tr.best .rule", PHONE["width"])
        inside(tab, "#card", PHONE["width"])
        inside(tab, "#card-rule", PHONE["width"])
        shot(tab, f"shipped_{system}_{lang}")
    finally:
        tab.close()


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_long_answer_with_search_card_rule_and_turn_fits_a_phone(phone: Any, server: str, lang: str) -> None:
    """The widest answer the page shows: odds with their intervals, a search line per move, a card rule, a
    round of two steps, and a long unbroken move name."""
    open_system(phone, server, "ose")
    in_language(phone, lang)
    shown = cast(list[dict[str, Any]], ANSWER_WITH_ODDS["moves"])
    moves = [{**m, "search": {"value": 0.4 - i, "playouts": 600}} for i, m in enumerate(shown)]
    moves[1]["label"] = "shoot_Brannoc_with_the_short_bow_from_behind_the_tree"  # no space to break at
    answer = {**ANSWER_WITH_ODDS, "search": {"playouts": 1200}, "moves": moves}
    phone.evaluate("answer => renderAnswer(answer)", answer)
    fits(phone, PHONE["width"])
    for part in (".move-name", ".pct", ".odds", ".rule"):
        inside(phone, f"#moves tbody tr.best {part}", PHONE["width"])
    inside(phone, "#moves tbody tr:nth-child(2) .move-name", PHONE["width"])
    inside(phone, "#card-rule", PHONE["width"])
    assert word("play-outs", lang) in phone.inner_text("#moves tbody tr.best .odds")
    shot(phone, f"long_{lang}")


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_encounter_odds_fit_a_phone(phone: Any, server: str, lang: str) -> None:
    open_system(phone, server, "ose")
    phone.wait_for_selector("body[data-odds-ready='1']")
    in_language(phone, lang)
    phone.fill("#odds-party", "fighter_2, cleric_2")
    phone.fill("#odds-foes", "goblin x4, goblin_archer x2")
    phone.fill("#odds-fights", "20")
    phone.click("#odds-ask")
    phone.wait_for_selector("#odds-result:not([hidden])")
    fits(phone, PHONE["width"])
    for key in ("win", "rout", "pc_death", "rounds"):
        inside(phone, f"#odds-table tr[data-key='{key}'] th", PHONE["width"])
        inside(phone, f"#odds-table tr[data-key='{key}'] td", PHONE["width"])
    inside(phone, "#odds-party", PHONE["width"])
    assert word("Party wins", lang) in phone.inner_text("#odds-table")
    phone.locator("#odds-box").scroll_into_view_if_needed()
    shot(phone, f"odds_{lang}")


def test_on_a_desktop_the_moves_are_still_a_table(browser: Any, server: str) -> None:
    tab = browser.new_page(viewport=DESKTOP)
    tab.set_default_timeout(30_000)
    try:
        open_system(tab, server, "ose")
        ask(tab, rollouts=4)
        fits(tab, DESKTOP["width"])
        assert tab.is_visible("#moves thead")
        assert tab.locator("#moves tbody tr.best").evaluate("n => getComputedStyle(n).display") == "table-row"
        cells = [tab.locator(f"#moves tbody tr.best td:nth-child({k})").bounding_box() for k in (2, 3, 4)]
        assert all(b is not None for b in cells)
        tops = [b["y"] for b in cells if b]
        lefts = [b["x"] for b in cells if b]
        assert max(tops) - min(tops) < 2 and lefts == sorted(lefts)  # one row, the columns left to right
        assert tab.locator("#moves tbody tr.best td.odds").evaluate(
            "n => getComputedStyle(n, '::before').content") in ("none", "normal")  # no labels in the cells
        shot(tab, "desktop_en")
    finally:
        tab.close()
