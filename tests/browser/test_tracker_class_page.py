"""A character's class and level edited on the tracker page before the fight starts, in French (issue 29): the
roster and the stat line in the French edition's words (``magicien 1``, ``CA``, ``TAC0``), the Edit form's class
drop-down in French, a level past the class's maximum refused under the level box in French (no serious axe-core
violation on the open form), then a good class and level taken; at 390x844 and 1280x800 with no sideways scroll.
Screenshots go to ``$TRACKER_SHOTS``."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.tracker_helpers import axe_script, no_sideways_scroll, roster, shot, word

pytestmark = pytest.mark.integration


@pytest.mark.parametrize(("width", "height"), [(390, 844), (1280, 800)])
def test_class_and_level_edited_at_their_fields_in_french(browser: Any, server: str, width: int,
                                                          height: int) -> None:
    page = browser.new_page(viewport={"width": width, "height": height})
    page.set_default_timeout(60_000)
    page.goto(f"{server}/tracker?lang=fr")
    page.wait_for_selector("body[data-ready='1']")
    page.click("#create")
    page.wait_for_selector("#add-form:not([hidden])")
    page.fill("#search", "goblin")
    page.fill("#count", "2")
    page.click("#add")
    roster(page, 2)
    page.select_option("#add-side", "1")
    page.fill("#search", "fighter_2")
    page.click("#add")
    roster(page, 3)
    page.click("summary")
    page.fill("#fields", '{"class": "magic-user", "level": 1}')
    page.fill("#add-name", "Orrin")
    page.click("#add")
    roster(page, 4)
    text = page.inner_text("#roster")
    assert "Orrin (magicien 1)" in text and "guerrier 2, CA " in text and "TAC0" in text
    assert "THAC0" not in text and "AC " not in text.replace("CA ", "")

    page.click(f"button[aria-label='{word('Edit', 'fr')} Orrin']")
    page.wait_for_selector("#edit-3-class")
    options = page.eval_on_selector_all("#edit-3-class option", "os => os.map(o => o.textContent)")
    assert set(options) == {"guerrier", "clerc", "magicien", "voleur", "nain", "elfe", "petite-gens"}
    page.select_option("#edit-3-class", "elf")
    page.fill("#edit-3-level", "11")
    page.click("#roster form.edit button[type='submit']")
    page.wait_for_selector("#edit-3-level-error:not([hidden])")
    assert page.inner_text("#edit-3-level-error") == "la classe elfe s'arrête au niveau 10, pas 11"
    assert page.get_attribute("#edit-3-level", "aria-invalid") == "true"
    assert page.is_hidden("#edit-3-class-error")
    no_sideways_scroll(page, width)
    shot(page, f"tracker-fr-{width}-class-error")
    if width == 390:  # the open form and its error pass axe-core (serious and critical)
        page.add_script_tag(path=str(axe_script()))
        result = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
        assert [v["id"] for v in result["violations"] if v["impact"] in ("serious", "critical")] == []

    page.select_option("#edit-3-class", "halfling")
    page.fill("#edit-3-level", "2")
    page.click("#roster form.edit button[type='submit']")
    page.wait_for_selector("#roster li[data-index='3'] .statline")
    item = page.inner_text("#roster li[data-index='3']")
    assert "Orrin (petite-gens 2)" in item
    no_sideways_scroll(page, width)
    shot(page, f"tracker-fr-{width}-class-edited")

    page.click("#start")
    page.wait_for_selector("#fight:not([hidden])")
    page.wait_for_function("document.body.dataset.state !== 'setup' && !document.body.dataset.busy")
    cards = page.inner_text("#cards")
    assert "petite-gens 2" in cards and "guerrier 2, CA " in cards and "THAC0" not in cards
    no_sideways_scroll(page, width)
    shot(page, f"tracker-fr-{width}-fight")
    page.close()
