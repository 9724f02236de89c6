"""The tracker page's order list and side names (issue 29) in a real headless Chromium (Debian's ``chromium``)
driven by Playwright: the GM names the sides and says who plays each; the order list shows each combatant of
the round with its side and number, exactly the rows the server read off the engine (the page sorts nothing),
the current actor marked; a side renamed during the fight is kept when the fight is kept in the browser and
loaded back; at 390 px wide there is no horizontal scroll. Screenshots to ``$TRACKER_SHOTS`` when set."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.browser.tracker_helpers import no_sideways_scroll, roster, shot, word

pytestmark = pytest.mark.integration


def fight_id(page: Any) -> str:
    return str(page.evaluate("T.id"))


def order_rows(page: Any) -> list[dict[str, Any]]:
    return list(page.eval_on_selector_all("#order-list li", "ls => ls.map(l => ({index: Number(l.dataset.index), "
                                          "text: l.innerText, acting: l.classList.contains('acting')}))"))


def check_order(page: Any, server: str, lang: str) -> dict[str, Any]:
    """The list on the page is the server's order, row for row, with the acting combatant marked."""
    page.wait_for_function("!document.body.dataset.busy && document.querySelectorAll('#order-list li').length > 0")
    v = httpx.get(f"{server}/fights/{fight_id(page)}", params={"lang": lang}, timeout=60).json()
    rows = order_rows(page)
    assert [r["index"] for r in rows] == [r["index"] for r in v["order"]["rows"]]
    for shown, served_row in zip(rows, v["order"]["rows"], strict=True):
        assert served_row["name"] in shown["text"] and served_row["side_name"] in shown["text"]
        assert served_row["text"] in shown["text"]
        assert shown["acting"] == served_row["acting"]
    if v["decision"] is not None:
        assert [r["index"] for r in rows if r["acting"]] == [v["decision"]["actor"]] * sum(
            r["index"] == v["decision"]["actor"] for r in rows)
    assert page.inner_text("#order-title") == v["order"]["title"]
    return v


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_order_list_and_the_side_names_kept_after_save_and_load(browser: Any, server: str, lang: str) -> None:
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.set_default_timeout(60_000)
    page.goto(f"{server}/tracker?lang={lang}")
    page.wait_for_selector("body[data-ready='1']")
    page.fill("#side0", "Adventurers")
    page.select_option("#control0", "pc")
    page.fill("#side1", "Goblins")
    page.select_option("#control1", "npc")
    page.click("#create")
    page.wait_for_selector("#add-form:not([hidden])")
    for k, (side, template) in enumerate(((0, "fighter_2"), (0, "cleric_2"), (1, "goblin"), (1, "goblin"))):
        page.select_option("#add-side", str(side))
        page.fill("#search", template)
        page.click("#add")
        roster(page, k + 1)
    assert "Adventurers" in page.inner_text("#roster") and "Goblins" in page.inner_text("#roster")
    page.click("#start")
    page.wait_for_selector("#fight:not([hidden])")
    v = check_order(page, server, lang)
    assert [(s["name"], s["control"]) for s in v["sides"]] == [("Adventurers", "pc"), ("Goblins", "npc")]
    assert word("Order this round", lang) == page.inner_text("#order-title")
    cards = page.inner_text("#cards")
    assert "Adventurers" in cards and "Goblins" in cards
    no_sideways_scroll(page, 390)
    shot(page, f"tracker-order-{lang}-390")

    # a few steps on: the list follows the engine
    for _ in range(4):
        state = page.evaluate("document.body.dataset.state")
        steps = page.evaluate("document.body.dataset.steps")
        if state == "over":
            break
        if state == "die":
            page.fill("#die", "3")
            page.press("#die", "Enter")
        elif state == "npc":
            page.wait_for_selector(f"#decide[data-advised='{steps}'] button.primary")
            page.click("#decide button.primary")
        else:
            page.wait_for_selector(f"#decide[data-advised='{steps}'] .moves button")
            page.click("#decide .moves button")
        page.wait_for_function(f"document.body.dataset.steps !== '{steps}'")
        check_order(page, server, lang)

    # rename the goblins during the fight, keep the fight in this browser, reload, load it back
    page.click("#sides-edit summary")
    page.fill("#side-name-1", "Goblins of the Hill")
    page.click("#sides-save")
    page.wait_for_function("document.querySelector('#order-list').innerText.includes('Goblins of the Hill')")
    assert "Goblins of the Hill" in page.inner_text("#cards")
    no_sideways_scroll(page, 390)
    shot(page, f"tracker-order-{lang}-390-renamed")
    before = order_rows(page)
    page.click("#keep")
    page.wait_for_selector("body[data-kept]")
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    page.click("#restore")
    page.wait_for_selector("#fight:not([hidden])")
    v = check_order(page, server, lang)
    assert [(s["name"], s["control"]) for s in v["sides"]] == [("Adventurers", "pc"), ("Goblins of the Hill", "npc")]
    assert order_rows(page) == before
    assert "Goblins of the Hill" in page.inner_text("#cards")
    no_sideways_scroll(page, 390)
    page.close()
