"""A whole fight of RuneQuest, Mongoose RuneQuest and the dice pool run through the combat tracker page to its end
(issue 29), in a real headless Chromium (Debian's ``chromium``) driven by Playwright, as the OSE fight of
``test_tracker_page.py`` is: the sides named, two against two, one NPC from the bestiary's search box and one
pasted as a stat block in that system's book layout, one PC from the search box and one from a party saved in the
browser, the PCs' dice typed by the GM, the players' moves chosen by the GM, the advisor's "Do:" one click for the
NPCs, one undo, the fight kept in the browser, the page reloaded and the fight loaded back: the same log. Each
system at 1280x800 in English and at 390x844 in French (no horizontal scroll). Screenshots go to
``$TRACKER_SHOTS`` when it is set (to look at, not to commit)."""

from __future__ import annotations

import itertools
import json
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from tests.browser.tracker_helpers import (
    Clicks,
    keep_reload_restore,
    no_sideways_scroll,
    roster,
    run_to_end,
    shot,
    word,
)

pytestmark = pytest.mark.integration

#: A trollkin as the RuneQuest bestiary prints it (``npc-tactics bestiary runequest --json``, ``stat_block``).
TROLLKIN = """Description: trollkin with club, small shield and sling
STR 9  CON 9  SIZ 7  DEX 12  INT 10  POW 8  CHA 6
Move 8  Hit Points 8  ENC 3
Skills: Dodge 30%
Location   D20    AP/HP
Right Leg  01-04  1/3
Left Leg   05-08  1/3
Abdomen    09-11  1/3
Chest      12     1/4
Right Arm  13-15  1/2
Left Arm   16-18  1/2
Head       19-20  1/3
Weapon           %    Damage       SR  HP
Club             40   1D6          7   8
Small Shield     35   1D3          8   8
Sling            40   1D8          3   2
Ready: Club, Small Shield"""

#: An orc in the Mongoose RuneQuest layout (``npc-tactics bestiary mrq --json``, ``stat_block``).
ORC = """Orc
STR 12  CON 12  SIZ 11  INT 9  POW 9  DEX 12
Combat Actions 2  Strike Rank +10  Damage Modifier +0  Movement 4m
D20 Hit Location AP/HP
1-3 Right Leg 2/5
4-6 Left Leg 2/5
7-9 Abdomen 2/6
10-12 Chest 2/7
13-15 Right Arm 2/4
16-18 Left Arm 2/4
19-20 Head 2/5
Weapons
Type Weapon skill Damage AP/HP
Scimitar 45% 1D8
Target shield 45% 1D6
Skills: Acrobatics 30%, Athletics 24%, Resilience 21%, Brute Force 23%, Riding 21%"""

#: A trained fighter's sheet in the dice pool's layout (``npc-tactics bestiary dicepool --json``, ``stat_block``).
FIGHTER_SHEET = """Trained fighter
Initiative 9, Coordination 5, Strength 2, Defense 4
Skills: brawl 5, sword 7
Weapons: sword
Locations: head 4, torso 10, pelvis 7, left arm 6, right arm 6, left leg 7, right leg 7"""


def faces(by_sides: dict[int, tuple[int, ...]], other: tuple[int, ...]) -> Callable[[int], int]:
    """The faces the players type, in turn per die size (never one face forever: two PCs tied on a tie-break die
    would tie again)."""
    turns = {sides: itertools.cycle(seq) for sides, seq in by_sides.items()}
    rest = itertools.cycle(other)

    def face(sides: int) -> int:
        return min(sides, next(turns[sides] if sides in turns else rest))

    return face


@dataclass(frozen=True)
class Plan:
    system: str
    sides: tuple[str, str]
    npc: str  # picked with the search box
    pasted: str  # the stat block pasted
    pasted_name: str
    pcs: tuple[str, str]  # picked with the search box
    prefers: tuple[str, ...]  # the players' moves, first found first (catalogue names)
    faces: Callable[[], Callable[[int], int]]
    distance: str = ""  # metres between the sides; empty: the system's default


PLANS = {
    "runequest": Plan("runequest", ("Uz raiders", "Sartar heroes"), "trollkin", TROLLKIN, "Pasted trollkin",
                      ("humakti_swordsman", "orlanthi_warrior"), ("attack:0:", "close:", "parry:0", "dodge"),
                      lambda: faces({100: (5, 35), 20: (15, 12)}, (6, 4)), "2"),
    "mrq": Plan("mrq", ("Orc band", "Mercenaries"), "orc", ORC, "Pasted orc", ("swordsman", "sword_and_shield"),
                ("attack:", "maximise_damage", "defend"), lambda: faces({100: (5, 30), 20: (15, 12)}, (6, 4))),
    "dicepool": Plan("dicepool", ("Watch", "Rebels"), "veteran", FIGHTER_SHEET, "Pasted fighter",
                     ("militia", "ordinary_fighter"), ("strike:", "split:0", "run"), lambda: faces({}, (5, 4)), "2"),
}


def set_up(page: Any, c: Clicks, plan: Plan) -> None:
    c.select("#system", plan.system)
    c.fill("#side0", plan.sides[0])
    c.fill("#side1", plan.sides[1])
    c.select("#dice", "pcs")
    if plan.distance:
        c.fill("#distance", plan.distance)
    party = {"name": "Last session", "system": plan.system,
             "members": [{"name": "Regular", "template": plan.pcs[1], "fields": {}}]}
    page.evaluate("p => localStorage.setItem('npc-tactics-parties', JSON.stringify([p]))", party)
    c.click("#create")
    page.wait_for_selector("#add-form:not([hidden])")
    c.fill("#search", plan.npc)
    c.click("#add")  # side 0 is selected: the NPCs
    roster(page, 1)
    c.click("#add-form summary")
    c.fill("#stat-block", plan.pasted)
    c.fill("#add-name", plan.pasted_name)
    c.click("#add")
    roster(page, 2)
    c.select("#add-side", "1")
    c.fill("#search", plan.pcs[0])
    c.click("#add")
    roster(page, 3)
    # the second PC from the party the GM saved in this browser last session (saving through the page is
    # tests/browser/test_tracker_party_page.py): the third way in
    c.select("#party", "Last session")
    c.click("#party-add")
    roster(page, 4)
    text = page.inner_text("#roster")
    assert "Regular" in text
    assert plan.pasted_name in text and plan.sides[0] in text and plan.sides[1] in text
    c.click("#start")
    page.wait_for_selector("#fight:not([hidden])")


@pytest.fixture(scope="module")
def timings() -> Iterator[dict[str, float]]:
    out: dict[str, float] = {}
    yield out
    print("tracker-systems-seconds", json.dumps(out))


@pytest.mark.parametrize(("width", "height", "lang"), [(1280, 800, "en"), (390, 844, "fr")])
@pytest.mark.parametrize("system", sorted(PLANS))
def test_a_fight_of_each_system_from_setup_to_its_end(browser: Any, server: str, timings: dict[str, float],
                                                     system: str, width: int, height: int, lang: str) -> None:
    plan = PLANS[system]
    page = browser.new_page(viewport={"width": width, "height": height})
    page.set_default_timeout(120_000)
    started = time.monotonic()
    page.goto(f"{server}/tracker?lang={lang}")
    page.wait_for_selector("body[data-ready='1']")
    assert page.inner_text("h1") == word("Combat tracker", lang)
    c = Clicks(page)
    set_up(page, c, plan)
    setup_clicks = c.n
    no_sideways_scroll(page, width)
    shot(page, f"tracker-{system}-{lang}-{width}-start")
    cards = page.query_selector_all("#cards .card")
    assert len(cards) == 4
    assert plan.pasted_name in page.inner_text("#cards")
    assert plan.sides[0] in page.inner_text("#order") or plan.sides[0] in page.inner_text("#cards")
    seen = run_to_end(page, c, width, lang, prefers=plan.prefers, face=plan.faces(), tag=f"{system}-", limit=900)
    shot(page, f"tracker-{system}-{lang}-{width}-end")
    no_sideways_scroll(page, width)
    assert seen["npc"] > 0 and seen["pc"] > 0 and seen["die"] > 0 and seen["undo"] == 1, seen
    assert page.is_visible("#outcome") and page.inner_text("#outcome")
    print("tracker-measure", json.dumps({"system": system, "width": width, "lang": lang, "setup_actions": setup_clicks,
                                         "total_actions": c.n, "s": round(time.monotonic() - started, 1), **seen}))

    keep_reload_restore(page)  # kept in the browser, the page reloaded, the fight loaded back: the same fight
    timings[f"{system}-{lang}-{width}"] = round(time.monotonic() - started, 1)
    page.close()
