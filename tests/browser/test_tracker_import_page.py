"""The tracker page's stat lines and actor files in headless Chromium (Playwright), at 390x844 in English and
French: a ghoul exported from Foundry VTT's OSE system chosen in the drop zone shows its stat line in the roster
and on its card, what the file holds that the engine does not read is listed as a note, a file of another game
system is an error at the drop zone (in French, stat lines in the French edition's notation while the Edit box
holds the English one the parser reads), and a stat line pasted with a typo is refused at its field, in the page's
language, then taken once corrected. PC moves only: the advisor is never asked. Screenshots go to
``$TRACKER_SHOTS`` when it is set."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from npc_tactics.gm.table.stat_words import stat_line_in
from tests.browser.tracker_helpers import no_sideways_scroll, shot, word
from tests.gm.test_tracker_import import GHOUL_LINE

pytestmark = pytest.mark.integration
FOUNDRY = Path(__file__).resolve().parents[1] / "rules" / "ose" / "foundry"
WIDTH = 390


def ose_fights(server: str) -> None:
    r = httpx.post(f"{server}/fights", json={"system": "ose"}, timeout=120)
    if r.status_code == 422 and "action catalogue" in r.text:  # the shipped OSE policy is behind the rules
        pytest.skip(f"no OSE fight can be created on this tree: {r.json()['detail'][0]['msg'][:160]}")
    assert r.status_code == 201, r.text
    httpx.delete(f"{server}/fights/{r.json()['id']}", timeout=30)


def members(page: Any, n: int) -> None:
    page.wait_for_function(f"document.querySelectorAll('#roster li').length === {n}")


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_drop_an_actor_file_and_edit_a_stat_line(browser: Any, server: str, lang: str) -> None:
    ose_fights(server)
    page = browser.new_page(viewport={"width": WIDTH, "height": 844})
    page.set_default_timeout(60_000)
    page.goto(f"{server}/tracker?lang={lang}")
    page.wait_for_selector("body[data-ready='1']")
    page.select_option("#system", "ose")
    page.click("#create")
    page.wait_for_selector("#add-form:not([hidden])")
    assert page.inner_text("#drop label span") == word("Drop an actor file here (Foundry VTT, JSON), or choose it",
                                                       lang)
    assert page.inner_text("#add") == word("Add", lang)
    # a file of another game system: an error at the drop zone, nothing added
    page.set_input_files("#import-file", str(FOUNDRY / "dnd5e.json"))
    page.wait_for_selector("#import-error:not([hidden])")
    assert "systemId" in page.inner_text("#import-error") and "dnd5e" in page.inner_text("#import-error")
    assert page.query_selector_all("#roster li") == []
    # the ghoul: its stat line in the roster, and the notes of what was not read
    page.set_input_files("#import-file", str(FOUNDRY / "ghoul.json"))
    members(page, 1)
    assert page.is_hidden("#import-error")
    assert page.inner_text("#roster li .statline") == stat_line_in(GHOUL_LINE, lang)  # French: CA, DV, TAC0...
    page.wait_for_selector("#import-notes:not([hidden])")
    assert word("Imported", lang) in page.inner_text("#import-notes")
    assert "undead" in page.inner_text("#import-notes")
    no_sideways_scroll(page, WIDTH)
    shot(page, f"import-ghoul-{lang}")
    # a goblin from the bestiary, its stat line pasted back with a typo: refused at the field
    page.fill("#search", "goblin")
    page.click("#add")
    members(page, 2)
    goblin = page.locator("#roster li").nth(1)
    shown = goblin.locator(".statline").inner_text()
    assert shown.startswith(str(stat_line_in("AC 6 [13], HD 1-1", lang)))
    goblin.locator("button.edit-line").click()
    area = page.locator("#roster li textarea.stat-edit")
    line = area.input_value()  # the box holds the game's English notation, the one the parser reads
    assert stat_line_in(line, lang) == shown and line.startswith("AC 6 [13], HD 1-1")
    area.fill(line.replace("Att 1 × weapon", "Att 1 × wepon"))
    page.locator("#roster li form.edit button[type=submit]").click()
    page.wait_for_selector("#roster li .field-error:not([hidden])")
    error = page.inner_text("#roster li .field-error")
    colon = "\u202f: " if lang == "fr" else ": "  # the field in the page's words, French typography
    assert error.startswith(f"{word('This stat line was refused', lang)}{colon}{word('the stat block', lang)}{colon}")
    assert "'wepon'" in error
    assert page.get_attribute("#roster li textarea.stat-edit", "aria-invalid") == "true"
    no_sideways_scroll(page, WIDTH)
    shot(page, f"edit-error-{lang}")
    # corrected: taken, the roster shows the new line
    area.fill(line.replace("ML 7", "ML 9"))
    page.locator("#roster li form.edit button[type=submit]").click()
    page.wait_for_function("document.querySelectorAll('#roster li .statline').length === 2")
    assert page.locator("#roster li").nth(1).locator(".statline").inner_text() == \
        stat_line_in(line.replace("ML 7", "ML 9"), lang)
    # a PC, its file dropped on the box (a drop event carrying the file), then the fight
    page.select_option("#add-side", "1")
    text = (FOUNDRY / "elf.json").read_text(encoding="utf-8")
    carried = page.evaluate_handle("""(text) => { const d = new DataTransfer();
        d.items.add(new File([text], "elf.json", { type: "application/json" })); return d; }""", text)
    page.dispatch_event("#drop", "drop", {"dataTransfer": carried})
    members(page, 3)
    elf = page.locator("#roster li").nth(2)
    assert elf.locator(".statline").inner_text() == stat_line_in("elf 9", lang) and "Elowen" in elf.inner_text()
    assert "Hold Person" in page.inner_text("#import-notes")  # a spell the engine does not model: a note
    page.click("#start")
    page.wait_for_selector("#fight:not([hidden])")
    ghoul = page.locator("#cards .card", has_text="Ghoul")
    assert ghoul.locator(".statline").inner_text() == stat_line_in(GHOUL_LINE, lang)
    no_sideways_scroll(page, WIDTH)
    shot(page, f"cards-{lang}")
    page.close()
