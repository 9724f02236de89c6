"""A saved party on the tracker page (issue 29: combatants added "from a saved party"): the GM builds a side once
(a bestiary creature, a pasted stat block, a class and level, with their own names), saves it in the browser,
and adds it to a later fight in one click, after a reload, on either side, with the same stat lines; a second
copy is refused by name at the add box; forgotten, it is gone. At 390x844 in French and 1280x800 in English,
no sideways scroll, no serious axe-core violation. Screenshots go to ``$TRACKER_SHOTS``."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.tracker_helpers import axe_script, no_sideways_scroll, roster, shot, word

pytestmark = pytest.mark.integration

#: A goblin as the OSE book prints it (OSE Classic Fantasy: Monsters, "Goblin").
GOBLIN_LINE = ("AC 6 [13], HD 1-1 (3hp), Att 1 × weapon (1d6), THAC0 19 [0], MV 60' (20'), "
               "SV D14 W15 P16 B17 S18 (NH), ML 7 (9 with leader), AL Chaotic, XP 5")


def _new_fight(page: Any) -> None:
    page.click("#create")
    page.wait_for_selector("#add-form:not([hidden])")


def _lines(page: Any) -> list[str]:
    return [t.strip() for t in page.eval_on_selector_all("#roster li", "ls => ls.map(l => l.innerText)")]


@pytest.mark.parametrize(("width", "height", "lang"), [(390, 844, "fr"), (1280, 800, "en")])
def test_a_party_saved_in_the_browser_joins_a_later_fight(browser: Any, server: str, width: int,
                                                           height: int, lang: str) -> None:
    page = browser.new_page(viewport={"width": width, "height": height})
    page.set_default_timeout(60_000)
    page.goto(f"{server}/tracker?lang={lang}")
    page.wait_for_selector("body[data-ready='1']")
    page.fill("#side1", "Heroes")
    _new_fight(page)
    assert page.is_disabled("#party-add") and page.is_disabled("#party-forget")
    page.select_option("#add-side", "1")
    page.click("#party-save")  # an empty side: said, nothing kept
    assert page.inner_text("#party-note") == word("This side has no combatant yet", lang)

    page.fill("#search", "fighter_2")
    page.fill("#add-name", "Brannoc")
    page.click("#add")
    roster(page, 1)
    page.click("summary")
    page.fill("#fields", '{"class": "magic-user", "level": 1}')
    page.fill("#add-name", "Orrin")
    page.click("#add")
    roster(page, 2)
    page.fill("#stat-block", GOBLIN_LINE)
    page.fill("#add-name", "Gob the tame")
    page.click("#add")
    roster(page, 3)
    built = _lines(page)
    page.click("#party-save")
    assert page.inner_text("#party-note").endswith("Heroes (3)")
    no_sideways_scroll(page, width)
    shot(page, f"tracker-{lang}-{width}-party-saved")

    page.reload()  # kept in the browser: a new page, a new fight
    page.wait_for_selector("body[data-ready='1']")
    _new_fight(page)
    options = page.eval_on_selector_all("#party option", "os => os.map(o => o.textContent)")
    assert options == ["Heroes (3)"]
    page.fill("#search", "goblin")
    page.click("#add")
    roster(page, 1)
    page.select_option("#add-side", "1")
    page.click("#party-add")
    roster(page, 4)
    again = _lines(page)[1:]
    side = page.eval_on_selector("#add-side option[value='1']", "o => o.textContent")
    assert [t.replace(f" · {side}", "") for t in again] == [t.replace(" · Heroes", "") for t in built]
    page.click("#party-add")  # the same names again: refused at the add box, by name
    page.wait_for_selector("#add-error:not([hidden])")
    assert "Brannoc" in page.inner_text("#add-error")
    assert page.is_hidden("#party-note")  # no "Party added" beside the refusal
    no_sideways_scroll(page, width)
    shot(page, f"tracker-{lang}-{width}-party-added")
    if width == 390:  # the party row and its note pass axe-core (serious and critical)
        page.add_script_tag(path=str(axe_script()))
        result = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
        assert [v["id"] for v in result["violations"] if v["impact"] in ("serious", "critical")] == []
    page.click("#start")  # the party fights
    page.wait_for_selector("#fight:not([hidden])")

    page.click("#new")
    _new_fight(page)
    page.click("#party-forget")
    assert page.eval_on_selector_all("#party option", "os => os.map(o => o.value)") == [""]
    assert page.is_disabled("#party-add")
    page.close()
