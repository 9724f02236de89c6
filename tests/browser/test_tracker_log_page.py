"""The tracker page exports the fight's log as a text file in the page's language (issue 29): the download is the
log the page shows, headed by the system and the sides."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.tracker_helpers import roster, word

pytestmark = pytest.mark.integration


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_log_downloads_as_the_page_shows_it(browser: Any, server: str, lang: str) -> None:
    page = browser.new_page(viewport={"width": 390, "height": 844}, accept_downloads=True)
    page.set_default_timeout(60_000)
    page.goto(f"{server}/tracker?lang={lang}")
    page.wait_for_selector("body[data-ready='1']")
    page.fill("#side0", "Gobelins")
    page.click("#create")
    page.wait_for_selector("#add-form:not([hidden])")
    page.fill("#search", "goblin")
    page.click("#add")
    roster(page, 1)
    page.select_option("#add-side", "1")
    page.fill("#search", "fighter_1")
    page.click("#add")
    roster(page, 2)
    page.click("#start")
    page.wait_for_selector("#fight:not([hidden])")
    page.wait_for_function("document.querySelectorAll('#log li').length > 0")
    shown = page.eval_on_selector_all("#log li", "ls => ls.map(l => l.textContent)")
    with page.expect_download() as got:
        page.click("#export-log")
    download = got.value
    assert download.suggested_filename.startswith("fight-ose-round-") and download.suggested_filename.endswith(
        f"-{lang}.txt")
    text = open(download.path(), encoding="utf-8").read()
    first = text.split("\n")[0]
    assert first.startswith(word("Fight log", lang)) and "Old-School Essentials" in first
    assert "Gobelins" in text.split("\n")[1]
    assert all(line in text for line in shown)
    page.close()
