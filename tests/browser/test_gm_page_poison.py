"""RuneQuest poison doses on the GM question page (issue 27), in a real headless Chromium against the shipped
generalists: a row of inputs per dose (potency, rounds to go, pre-filled with a fresh sting's 3), added and
removed with buttons, sent as the combatant's ``poison_doses``, answered by the advisor, and a bad potency told at
its field in the page's language. On a phone the doses fit the screen. Screenshots to ``$POISON_SHOTS`` when it
is set (to look at, not to keep in the repository)."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.browser.test_gm_page_locations import open_page
from tests.browser.test_gm_page_phone import PHONE, fits

pytestmark = pytest.mark.integration
SHOTS = os.environ.get("POISON_SHOTS")


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    page = browser.new_page(viewport=PHONE)
    page.set_default_timeout(30_000)
    yield page
    page.close()


def doses(page: Any, side: int = 0) -> Any:
    return page.locator(f"fieldset[data-side='{side}'] .combatant").first.locator(".records[data-key='poison_doses']")


def sent_doses(page: Any, side: int = 0) -> Any:
    return json.loads(page.text_content("#preview") or "")["sides"][side]["combatants"][0].get("poison_doses")


def type_in(box: Any, value: str) -> None:
    box.fill(value)
    box.dispatch_event("change")


def ask(page: Any) -> None:
    page.evaluate("document.querySelector('#result').hidden = true; document.querySelector('#error').hidden = true")
    page.click("#ask")
    page.wait_for_selector("#result:not([hidden]), #error:not([hidden])")


def shot(page: Any, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=True)


def test_a_gm_adds_a_dose_asks_and_takes_it_away(phone: Any, server: str) -> None:
    open_page(phone, server, "runequest", "fr")
    box = doses(phone)
    assert box.locator("span").first.text_content() == "Doses de poison\u202f: "
    assert sent_doses(phone) is None and box.locator(".record").count() == 0

    box.locator("button.add-record").click()  # "Ajouter": a fresh sting, 3 rounds to go, potency to type
    row = doses(phone).locator(".record").first
    assert row.locator("input[name='poison_doses-rounds']").input_value() == "3"
    assert row.locator("input[name='poison_doses-potency']").input_value() == ""
    assert [s.strip() for s in row.locator("label span").all_text_contents()] == ["Puissance", "Délai (rounds)"]
    assert sent_doses(phone) == [{"rounds": 3}]
    type_in(row.locator("input[name='poison_doses-potency']"), "12")
    type_in(row.locator("input[name='poison_doses-rounds']"), "1")
    doses(phone).locator("button.add-record").click()
    type_in(doses(phone).locator(".record").nth(1).locator("input[name='poison_doses-potency']"), "7")
    assert sent_doses(phone) == [{"potency": 12, "rounds": 1}, {"rounds": 3, "potency": 7}]

    ask(phone)
    assert phone.is_hidden("#error") and phone.locator("#moves tbody tr").count() > 0
    situation = json.loads(phone.text_content("#preview") or "")
    api = httpx.post(f"{server}/suggest", json={"bundle": phone.input_value("#bundle"), "situation": situation,
                                                "lang": "fr"}, timeout=60).json()
    assert "poison : puissance 12, à la fin du round 2" in api["situation_text"].replace("\u202f", " ")
    fits(phone, PHONE["width"])
    shot(phone, "poison_fr_phone")

    # a potency out of range: the server's words at the field, in French
    type_in(doses(phone).locator(".record").first.locator("input[name='poison_doses-potency']"), "150")
    ask(phone)
    error = phone.inner_text("#error")
    assert "poison_doses[0].potency" in error and error.count("potency") == 1, error  # the field, said once
    assert "hors limites" in error and "1..99" in error, error
    shot(phone, "poison_fr_phone_error")

    doses(phone).locator(".record").first.locator("button").click()  # "Retirer"
    assert sent_doses(phone) == [{"rounds": 3, "potency": 7}]
    doses(phone).locator(".record").first.locator("button").click()
    assert sent_doses(phone) is None  # the key is left out, not sent as an empty list


def test_the_doses_stop_at_the_declared_most(phone: Any, server: str) -> None:
    form = httpx.get(f"{server}/bestiary/runequest", timeout=30).json()
    most = next(f for f in form["combatant_fields"] if f["key"] == "poison_doses")["max"]
    open_page(phone, server, "runequest", "en")
    for _ in range(most):
        doses(phone).locator("button.add-record").click()
    assert doses(phone).locator(".record").count() == most
    assert doses(phone).locator("button.add-record").count() == 0  # no button past the loader's limit
    assert doses(phone).locator("span").first.text_content() == "Poison doses: "
    fits(phone, PHONE["width"])
