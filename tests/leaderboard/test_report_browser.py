"""The HTML report opens as a file in a real headless Chromium: every plot decodes and nothing is fetched from
anywhere (the page is self-contained)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from npc_tactics.leaderboard import run_leaderboard
from tests.browser.test_gm_page import chromium_path

pytestmark = pytest.mark.integration


def test_the_html_report_opens_offline(tmp_path: Path) -> None:
    from playwright.sync_api import sync_playwright

    suite = tmp_path / "suite.yaml"
    suite.write_text(yaml.safe_dump({"fights": 2, "sections": [
        {"system": "mrq", "scenarios": ["skirmish_2v2"], "agents": ["by-the-book", "cautious"]},
        {"system": "dicepool", "scenarios": ["melee_duel"], "agents": ["by-the-book", "aggressive"]}]}))
    run_leaderboard(suite, tmp_path / "out", workers=1, progress=False)
    fetched: list[str] = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium_path(), headless=True,
                                     args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"])
        page = browser.new_page()

        def record(route: Any) -> None:
            fetched.append(route.request.url)
            route.abort()

        page.route("http*://**", record)
        page.goto((tmp_path / "out" / "report.html").as_uri())
        images = page.eval_on_selector_all("img", "imgs => imgs.map(i => [i.complete, i.naturalWidth])")
        headings = page.eval_on_selector_all("h2", "hs => hs.map(h => h.textContent)")
        tables = len(page.query_selector_all("table"))
        browser.close()
    assert fetched == []
    assert len(images) >= 7 and all(done and width > 100 for done, width in images)  # 2 x 4 plots + cross
    assert headings[0] == "Side by side" and any(h.startswith("mrq") for h in headings)
    assert tables == 1 + 2 * 4
