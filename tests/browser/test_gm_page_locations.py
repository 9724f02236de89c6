"""The hit locations beside the wound boxes of the GM question page (issue 27), in a real headless Chromium: on the
French page (``/?lang=fr``) a RuneQuest, MRQ or dice-pool combatant's boxes are labelled in French ("Bras droit"),
a wolf's (a hound's) with its own body's locations ("Patte avant droite", "Avant-train"), an MRQ rider's mount's
too; the English page says "Right arm"; the boxes keep their ``loc-<key>`` names and the situation its keys. At
390x844 and 1280x800 the French form fits the screen. Screenshots to ``$LOCATION_SHOTS`` when it is set (to look
at, not to keep in the repository)."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.browser.test_gm_page_phone import DESKTOP, PHONE, fits

pytestmark = pytest.mark.integration
SHOTS = os.environ.get("LOCATION_SHOTS")
SERVE_TEST_BUNDLES = True  # conftest's server: the test bundles (tests/gm/service_bundles.py)

HUMAN_FR = {"right_leg": "Jambe droite", "left_leg": "Jambe gauche", "abdomen": "Abdomen", "chest": "Poitrine",
            "right_arm": "Bras droit", "left_arm": "Bras gauche", "head": "Tête"}
HUMAN_EN = {"right_leg": "Right leg", "left_leg": "Left leg", "abdomen": "Abdomen", "chest": "Chest",
            "right_arm": "Right arm", "left_arm": "Left arm", "head": "Head"}
#: each system's four-legged template and its locations' labels: (template, French, English)
BEASTS: dict[str, tuple[str, dict[str, str], dict[str, str]]] = {
    "runequest": ("wolf",
                  {"right_hind_leg": "Patte arrière droite", "left_hind_leg": "Patte arrière gauche",
                   "hindquarters": "Arrière-train", "forequarters": "Avant-train",
                   "right_foreleg": "Patte avant droite", "left_foreleg": "Patte avant gauche", "head": "Tête"},
                  {"right_hind_leg": "Right hind leg", "left_hind_leg": "Left hind leg",
                   "hindquarters": "Hindquarters", "forequarters": "Forequarters",
                   "right_foreleg": "Right foreleg", "left_foreleg": "Left foreleg", "head": "Head"}),
    "mrq": ("wolf",
            {"right_hind_leg": "Patte arrière droite", "left_hind_leg": "Patte arrière gauche",
             "hindquarters": "Arrière-train", "forequarters": "Avant-train",
             "right_front_leg": "Patte avant droite", "left_front_leg": "Patte avant gauche", "head": "Tête"},
            {"right_hind_leg": "Right hind leg", "left_hind_leg": "Left hind leg",
             "hindquarters": "Hindquarters", "forequarters": "Forequarters",
             "right_front_leg": "Right foreleg", "left_front_leg": "Left foreleg", "head": "Head"}),
    # the dice pool's seven slots keep the humanoid keys; the hound's body names them
    "dicepool": ("hound",
                 {"head": "Tête", "torso": "Avant-train", "pelvis": "Arrière-train",
                  "left_arm": "Patte avant gauche", "right_arm": "Patte avant droite",
                  "left_leg": "Patte arrière gauche", "right_leg": "Patte arrière droite"},
                 {"head": "Head", "torso": "Forequarters", "pelvis": "Hindquarters",
                  "left_arm": "Left foreleg", "right_arm": "Right foreleg",
                  "left_leg": "Left hind leg", "right_leg": "Right hind leg"}),
}


@pytest.fixture
def tab(browser: Any) -> Iterator[Any]:
    page = browser.new_page(viewport=DESKTOP)
    page.set_default_timeout(30_000)
    yield page
    page.close()


def open_page(page: Any, server: str, system: str, lang: str) -> None:
    """The question page at ``/?lang=<lang>``, its forms showing ``system``'s bundle, in that language."""
    page.goto(f"{server}/?lang={lang}")
    page.wait_for_selector("body[data-ready='1']")
    page.wait_for_selector(f"body[data-lang='{lang}']")
    page.wait_for_selector("body[data-loaded]")
    if page.input_value("#system") != system:
        page.evaluate("delete document.body.dataset.loaded")
        page.select_option("#system", system)
    page.wait_for_selector(f"body[data-loaded='{system}']")
    assert page.input_value("#lang") == lang


def switch_language(page: Any, lang: str) -> None:
    page.select_option("#lang", lang)
    page.wait_for_selector(f"body[data-lang='{lang}']")


def combatant(page: Any, side: int) -> Any:
    return page.locator(f"fieldset[data-side='{side}'] .combatant").first


def pick(page: Any, side: int, template: str, box: str) -> None:
    """Pick ``template`` for the first combatant of ``side`` and wait for its wound box ``box`` (loc-<key>)."""
    combatant(page, side).locator("select[name='template']").select_option(template)
    page.wait_for_selector(f"fieldset[data-side='{side}'] .combatant >> input[name='{box}']")


def labels(box: Any, mount: bool = False) -> dict[str, str]:
    """The label beside each location box of a combatant (its mount's when ``mount``), by its input's key."""
    got: dict[str, str] = box.evaluate("""(node, mount) => {
      const out = {};
      for (const label of node.querySelectorAll('label[data-loc]')) {
        if (!mount && label.closest('.mount')) continue;  // the rider's own boxes, not its mount's
        const input = label.querySelector('input');
        const prefix = mount ? 'mount-loc-' : 'loc-';
        if (!input.name.startsWith(prefix)) throw new Error(`box ${input.name} is not ${prefix}<key>`);
        out[input.name.slice(prefix.length)] = label.querySelector('span').textContent.trim();
      }
      return out;
    }""", mount)
    return got


def expected(server: str, system: str, template: str, lang: str) -> dict[str, str]:
    form = httpx.get(f"{server}/bestiary/{system}", params={"lang": lang}, timeout=30).json()
    return next(t["location_text"] for t in form["templates"] if t["name"] == template)


def shot(page: Any, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=True)


@pytest.mark.parametrize("system", ["runequest", "mrq", "dicepool"])
def test_the_wound_boxes_are_labelled_in_the_page_s_language(tab: Any, server: str, system: str) -> None:
    beast, beast_fr, beast_en = BEASTS[system]
    open_page(tab, server, system, "fr")
    npc = combatant(tab, 0)
    own = npc.locator("select[name='template']").input_value()
    shown = labels(npc)
    assert shown == expected(server, system, own, "fr") and shown  # what the server says, one label a box
    assert "Bras droit" in shown.values() and all("_" not in text for text in shown.values()), shown
    if system != "dicepool":
        assert shown == HUMAN_FR

    first = next(iter(beast_fr))
    pick(tab, 1, beast, f"loc-{first}")
    assert labels(combatant(tab, 1)) == beast_fr
    box = combatant(tab, 1).locator(f"input[name='loc-{first}']")  # the key stays the box's name and the JSON's
    box.fill("1")
    box.dispatch_event("change")
    sent = json.loads(tab.text_content("#preview") or "")
    wounds = tab.evaluate("page.form.wounds.key")
    assert sent["sides"][1]["combatants"][0][wounds] == {first: 1}

    switch_language(tab, "en")
    assert labels(combatant(tab, 1)) == beast_en  # the same wolf, its boxes now in English
    assert labels(combatant(tab, 0)) == expected(server, system, own, "en")
    if system != "dicepool":
        assert labels(combatant(tab, 0)) == HUMAN_EN
    assert "Right arm" in labels(combatant(tab, 0)).values()


def test_a_rider_s_mount_s_boxes_are_french(tab: Any, server: str) -> None:
    """MRQ: the mount box under a lancer names its warhorse in French and its boxes by the horse's locations."""
    open_page(tab, server, "mrq", "fr")
    combatant(tab, 1).locator("select[name='template']").select_option("mounted_lancer")
    horse = tab.locator("fieldset[data-side='1'] .combatant .mount[data-mount='warhorse']").first
    horse.wait_for()
    shown = labels(horse, mount=True)
    assert shown["forequarters"] == "Avant-train" and shown["right_front_leg"] == "Patte avant droite", shown
    assert shown == expected(server, "mrq", "warhorse", "fr")
    assert labels(combatant(tab, 1))["right_arm"] == "Bras droit"  # the rider's own, apart from the horse's
    mount_title = horse.locator("span").first.text_content() or ""
    assert "warhorse" not in mount_title, mount_title  # the horse's name in French, not its id


@pytest.mark.parametrize(("size", "viewport"), [("phone", PHONE), ("desktop", DESKTOP)])
def test_the_french_labels_fit_the_screen(browser: Any, server: str, size: str, viewport: dict[str, int]) -> None:
    page = browser.new_page(viewport=viewport)
    page.set_default_timeout(30_000)
    try:
        open_page(page, server, "runequest", "fr")
        pick(page, 1, "wolf", "loc-right_hind_leg")
        assert labels(combatant(page, 1))["right_hind_leg"] == "Patte arrière droite"
        fits(page, viewport["width"])  # no sideways scroll, no box out of the screen, no text cut off
        for label in page.query_selector_all("label[data-loc] span"):  # each label shown whole
            box = label.bounding_box()
            assert box is not None and box["width"] > 0 and box["x"] >= 0
            assert box["x"] + box["width"] <= viewport["width"] + 0.5, label.text_content()
        shot(page, f"locations_fr_{size}_{viewport['width']}x{viewport['height']}")
    finally:
        page.close()
