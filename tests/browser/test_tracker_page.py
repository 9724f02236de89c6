"""The combat tracker page end to end in a real headless Chromium (Debian's ``chromium``) driven by Playwright:
``npc-tactics serve`` with no flag (the shipped generalists), an OSE fight of 5 goblins against 4 adventurers
set up with the search box, one combatant pasted as a stat block and one by class and level, started, run to
its end with the advisor's "Do:" button for the NPCs, the players' moves for the PCs and typed dice for the
opening, one undo, kept in the browser and reloaded; at 1280x800 and 390x844 (no horizontal scroll), in English
and French. Screenshots go to ``$TRACKER_SHOTS`` when it is set (to look at, not to commit)."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from tests.browser.tracker_helpers import (
    SHOTS,
    Clicks,
    axe_script,
    keep_reload_restore,
    no_sideways_scroll,
    roster,
    run_to_end,
    shot,
    word,
)

pytestmark = pytest.mark.integration  # conftest's server: the shipped generalists (no flag)
#: A goblin as the OSE book prints it, pasted instead of picked (OSE Classic Fantasy: Monsters, "Goblin").
GOBLIN_LINE = ("AC 6 [13], HD 1-1 (3hp), Att 1 × weapon (1d6), THAC0 19 [0], MV 60' (20'), SV D14 W15 P16 B17 "
               "S18 (NH), ML 7, AL Chaotic, XP 5")


def set_up(page: Any, c: Clicks) -> None:
    c.fill("#side0", "Goblins")
    c.fill("#side1", "Party")
    c.select("#dice", "pcs")
    c.click("#create")
    page.wait_for_selector("#add-form:not([hidden])")
    c.fill("#search", "goblin")
    c.fill("#count", "4")
    c.click("#add")  # side 0 is selected: the goblins
    roster(page, 4)
    c.click("summary")
    c.fill("#stat-block", GOBLIN_LINE)
    c.fill("#add-name", "Pasted goblin")
    c.click("#add")
    roster(page, 5)
    c.select("#add-side", "1")
    for k, template in enumerate(("fighter_2", "cleric_2", "thief_2")):
        c.fill("#search", template)
        c.click("#add")
        roster(page, 6 + k)
    c.fill("#fields", '{"class": "magic-user", "level": 1}')
    c.fill("#add-name", "Orrin")
    c.click("#add")
    roster(page, 9)
    assert "Orrin" in page.inner_text("#roster") and "Pasted goblin" in page.inner_text("#roster")
    c.click("#start")
    page.wait_for_selector("#fight:not([hidden])")


@pytest.mark.parametrize(("width", "height", "lang"), [(1280, 800, "en"), (390, 844, "fr")])
def test_an_ose_fight_from_setup_to_its_end(browser: Any, server: str, width: int, height: int, lang: str) -> None:
    page = browser.new_page(viewport={"width": width, "height": height})
    page.set_default_timeout(60_000)
    page.goto(f"{server}/tracker?lang={lang}")
    page.wait_for_selector("body[data-ready='1']")
    assert page.inner_text("h1") == word("Combat tracker", lang)
    no_sideways_scroll(page, width)
    c = Clicks(page)
    started = time.monotonic()
    set_up(page, c)
    setup_clicks, setup_s = c.n, time.monotonic() - started
    no_sideways_scroll(page, width)
    shot(page, f"tracker-{lang}-{width}-start")
    cards = page.query_selector_all("#cards .card")
    assert len(cards) == 9
    assert "/" in cards[0].inner_text()  # hit points with their maximum
    seen = run_to_end(page, c, width, lang)
    total_s = time.monotonic() - started
    shot(page, f"tracker-{lang}-{width}-end")
    no_sideways_scroll(page, width)
    assert seen["npc"] > 0 and seen["pc"] > 0 and seen["undo"] == 1
    assert page.is_visible("#outcome")
    log = page.inner_text("#log")
    assert ("Round 1" in log) or ("Round 1" in log.replace("round", "Round"))
    report = {"width": width, "lang": lang, "setup_actions": setup_clicks, "setup_s": round(setup_s, 1),
              "total_actions": c.n, "total_s": round(total_s, 1), **seen}
    print("tracker-measure", json.dumps(report))
    if SHOTS:
        (Path(SHOTS) / f"measure-{lang}-{width}.json").write_text(json.dumps(report), encoding="utf-8")

    keep_reload_restore(page)  # kept in the browser, the page reloaded, the fight loaded back: the same fight
    page.close()


def test_a_bad_stat_block_is_refused_at_its_field(browser: Any, server: str) -> None:
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(f"{server}/tracker")
    page.wait_for_selector("body[data-ready='1']")
    page.click("#create")
    page.wait_for_selector("#add-form:not([hidden])")
    page.click("summary")
    page.fill("#stat-block", "AC 6 [13], HD banana")
    page.click("#add")
    page.wait_for_selector("#add-error:not([hidden])")
    text = page.inner_text("#add-error")
    assert text.startswith("the stat block: ") and "Att" in text  # the field in the page's words, then the book's
    assert page.query_selector_all("#roster li") == []
    page.close()


def test_the_main_flow_by_keyboard_alone(browser: Any, server: str) -> None:
    """Set up, start and play a few steps with the keyboard: the page puts the focus where the GM acts next
    (the search box, the "Do:" button, the first move, the die box)."""
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.set_default_timeout(60_000)
    page.goto(f"{server}/tracker")
    page.wait_for_selector("body[data-ready='1']")
    page.focus("#create")
    page.keyboard.press("Enter")
    page.wait_for_function("document.activeElement && document.activeElement.id === 'search'")
    page.keyboard.type("goblin")
    page.keyboard.press("Enter")  # the add form submits
    roster(page, 1)
    page.focus("#add-side")
    page.keyboard.press("ArrowDown")  # the PC side
    page.focus("#search")
    page.keyboard.type("fighter_2")
    page.keyboard.press("Enter")
    roster(page, 2)
    page.focus("#start")
    page.keyboard.press("Enter")
    page.wait_for_selector("#fight:not([hidden])")
    for _ in range(6):
        page.wait_for_function("!document.body.dataset.busy && (document.body.dataset.state === 'over' || "
                               "document.body.dataset.state === 'die' || "
                               "document.querySelector('#decide').dataset.advised === document.body.dataset.steps)")
        state = page.evaluate("document.body.dataset.state")
        if state == "over":
            break
        steps = page.evaluate("document.body.dataset.steps")
        focused = page.evaluate("document.activeElement.id || document.activeElement.tagName")
        assert focused in ("die", "BUTTON"), focused
        if state == "die":
            page.keyboard.type("2")
        page.keyboard.press("Enter")
        page.wait_for_function(f"document.body.dataset.steps !== '{steps}' || document.body.dataset.state === 'die'")
    assert int(page.evaluate("document.body.dataset.steps")) >= 3
    page.close()


def test_no_serious_accessibility_violation(browser: Any, server: str) -> None:
    """axe-core in the same browser, on the set-up screen and on a fight waiting for the advisor's move."""
    script = axe_script()
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.set_default_timeout(60_000)
    page.goto(f"{server}/tracker")
    page.wait_for_selector("body[data-ready='1']")
    page.click("#create")
    page.wait_for_selector("#add-form:not([hidden])")
    found = []
    for when in ("setup", "fight"):
        if when == "fight":
            for side, template in ((0, "goblin"), (1, "fighter_2")):
                page.select_option("#add-side", str(side))
                page.fill("#search", template)
                page.click("#add")
                roster(page, side + 1)
            page.click("#start")
            page.wait_for_selector("#fight:not([hidden])")
            page.wait_for_function("document.querySelector('#decide').dataset.advised === document.body.dataset.steps")
        page.add_script_tag(path=str(script))
        result = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
        found += [(when, v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3]) for v in result["violations"]
                  if v["impact"] in ("serious", "critical")]
    assert found == []
    page.close()
