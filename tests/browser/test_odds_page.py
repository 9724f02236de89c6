"""The "Encounter odds" section of the GM web page in a real headless Chromium: ``npc-tactics serve`` started as
a GM would (the shipped generalists; the odds need no policy bundle), a party and foes typed in, the figures read
off the page and checked against ``POST /odds`` with the same body, a bad template named, the page in French: the
templates listed by their French names with the id to type ("gobelin (goblin)"), a party and foes typed in French
("gobelin x2"), an unknown name named in French. Screenshots to ``$ODDS_SHOTS`` when it is set (to look at, not to
keep in the repository)."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import httpx
import pytest

pytestmark = pytest.mark.integration  # conftest's server: the shipped generalists (the odds need no bundle)
ROOT = Path(__file__).resolve().parents[2]
SHOTS = os.environ.get("ODDS_SHOTS")
NNBSP = "\u202f"  # French: the narrow no-break space before '%' and ':'


def open_odds(page: Any, server: str, system: str) -> None:
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready='1'][data-odds-ready='1']")
    if page.input_value("#odds-system") != system:
        page.select_option("#odds-system", system)
    page.wait_for_selector(f"body[data-odds-system='{system}']")


def shown(page: Any) -> dict[str, str]:
    rows = page.query_selector_all("#odds-table tbody tr")
    return {r.get_attribute("data-key"): r.query_selector("td").inner_text() for r in rows}


def pct(entry: dict[str, float], lang: str = "en") -> str:
    sign = NNBSP + "%" if lang == "fr" else "%"
    return f"{100 * entry['rate']:.0f}{sign} [{100 * entry['low']:.0f}–{100 * entry['high']:.0f}]"


def listed_ids(text: str, names: set[str]) -> list[str]:
    """The ids of the template list as the page writes it: "gobelin (goblin)" is goblin, "bandit" is bandit."""
    out = []
    for entry in text.split(", "):
        m = re.fullmatch(r".* \((\w+)\)", entry)
        out.append(m[1] if m and m[1] in names else entry)
    return out


def test_type_a_party_and_foes_and_read_the_odds_then_french(page: Any, server: str) -> None:
    open_odds(page, server, "ose")
    assert "goblin_archer" in page.inner_text("#odds-templates")
    page.fill("#odds-party", "fighter_2, cleric_2")
    page.fill("#odds-foes", "goblin x4, goblin_archer x2")
    page.fill("#odds-fights", "120")
    page.fill("#odds-seed", "3")
    page.click("#odds-ask")
    page.wait_for_selector("#odds-result:not([hidden])")
    body = {"system": "ose", "party": [{"template": "fighter_2", "count": 1}, {"template": "cleric_2", "count": 1}],
            "foes": [{"template": "goblin", "count": 4}, {"template": "goblin_archer", "count": 2}],
            "fights": 120, "seed": 3}
    api = httpx.post(f"{server}/odds", json=body, timeout=60).json()["odds"]
    figures = shown(page)
    assert figures["win"] == pct(api["win"])
    assert figures["rout"] == pct(api["rout"])
    assert figures["pc_death"] == pct(api["pc_death"])
    assert figures["rounds"] == f"{api['rounds']:.1f} [{api['rounds_low']:.1f}–{api['rounds_high']:.1f}]"
    assert page.inner_text("#odds-fights-done") == "120"

    page.select_option("#lang", "fr")
    page.wait_for_selector("body[data-lang='fr']")
    page.wait_for_function("document.querySelector('#odds-box h2').textContent === 'Chances de la rencontre'")
    assert "Victoire du groupe" in page.inner_text("#odds-table")
    assert "Au moins un PJ meurt" in page.inner_text("#odds-table")
    page.select_option("#lang", "en")
    page.wait_for_selector("body[data-lang='en']")
    page.wait_for_function("document.querySelector('#odds-box h2').textContent === 'Encounter odds'")


def test_an_unknown_template_is_named_with_the_choices(page: Any, server: str) -> None:
    open_odds(page, server, "runequest")
    assert "broo" in page.inner_text("#odds-templates")
    page.fill("#odds-party", "humakti_swordsman")
    page.fill("#odds-foes", "broo x2, gobbo")
    page.fill("#odds-fights", "20")
    page.click("#odds-ask")
    page.wait_for_selector("#odds-error:not([hidden])")
    error = page.inner_text("#odds-error")
    assert error.startswith("foes.1.template: unknown template 'gobbo'") and "broo" in error
    assert page.is_hidden("#odds-result")


def test_the_french_page_lists_french_names_and_takes_them(page: Any, server: str) -> None:
    page.goto(server + "/?lang=fr")
    page.wait_for_selector("body[data-ready='1'][data-odds-ready='1'][data-lang='fr']")
    if page.input_value("#odds-system") != "ose":
        page.select_option("#odds-system", "ose")
    page.wait_for_selector("body[data-odds-system='ose'][data-odds-lang='fr']")
    text = page.inner_text("#odds-templates").replace("\u00a0", " ")  # "gobelin (goblin)" kept on one line
    shown_fr = text.split(", ")
    for entry in ("gobelin (goblin)", "archer gobelin (goblin_archer)", "guerrier 2 (fighter_2)", "bandit"):
        assert entry in shown_fr, (entry, text[:400])
    assert "goblin" not in shown_fr and "goblin_archer" not in shown_fr  # no bare English id beside its French
    # every template POST /odds takes, once, in French alphabetical order ("clerc 2" before "clerc 10")
    served = httpx.get(f"{server}/fights/templates/ose", params={"lang": "fr"}, timeout=30).json()["templates"]
    names = {t["name"] for t in served}
    assert sorted(listed_ids(text, names)) == sorted(names)
    assert shown_fr.index("clerc 2 (cleric_2)") < shown_fr.index("clerc 10 (cleric_10)")
    assert shown_fr.index("abeille tueuse (killer_bee)") < shown_fr.index("gobelin (goblin)")

    page.fill("#odds-party", "guerrier 2, Clerc 2")
    page.fill("#odds-foes", "gobelin x2, archer gobelin")
    page.fill("#odds-fights", "60")
    page.fill("#odds-seed", "3")
    page.click("#odds-ask")
    page.wait_for_selector("#odds-result:not([hidden])")
    assert page.is_hidden("#odds-error")
    body = {"system": "ose", "party": [{"template": "fighter_2"}, {"template": "cleric_2"}],
            "foes": [{"template": "goblin", "count": 2}, {"template": "goblin_archer"}], "fights": 60, "seed": 3}
    api = httpx.post(f"{server}/odds", json=body, timeout=60).json()["odds"]
    figures = shown(page)
    assert figures["win"] == pct(api["win"], "fr") and figures["pc_death"] == pct(api["pc_death"], "fr")
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.locator("#odds-box").screenshot(path=str(Path(SHOTS) / "odds_fr.png"))

    page.fill("#odds-foes", "gobelin x2, gobbo")
    page.click("#odds-ask")
    page.wait_for_selector("#odds-error:not([hidden])")
    error = page.inner_text("#odds-error")
    said = httpx.post(f"{server}/odds", json={**body, "lang": "fr", "foes": [{"template": "gobelin", "count": 2},
                                                                            {"template": "gobbo"}]}, timeout=60)
    assert said.status_code == 422
    assert error == f"foes.1.template{NNBSP}: {said.json()['detail'][0]['msg']}"  # the server's French words
    assert "'gobbo'" in error and "gobelin (goblin)" in error  # the token, and the name it may have meant
    assert page.is_hidden("#odds-result")

    page.select_option("#lang", "en")  # the list follows the language, in the same switch as the page's words
    page.wait_for_selector("body[data-lang='en']")
    assert page.get_attribute("body", "data-odds-lang") == "en"
    shown_en = page.inner_text("#odds-templates").replace("\u00a0", " ").split(", ")
    assert "goblin" in shown_en and "goblin_archer" in shown_en and "fighter_2" in shown_en
    assert not any("gobelin" in entry for entry in shown_en)


def test_the_page_reads_a_count_as_the_command_line_does(page: Any, server: str) -> None:
    """`xN` is a word of its own (or `×N`, `*N`), so a name that ends in x keeps it: the page and `odds --foes`
    (gm/encounter/spec.py) read the same text the same way."""
    from npc_tactics.gm.encounter.spec import _ITEM

    open_odds(page, server, "ose")
    for text in ("lynx 2", "lynx x2", "goblin x4", "gobelin X3", "archer gobelin ×2", "orc*5", "guerrier 2",
                 "goblinx4"):
        got = page.evaluate("(t) => parseGroup(t)", text)
        m = _ITEM.fullmatch(text)
        assert m is not None
        assert got == [{"template": m["name"], "count": int(m["count"] or 1)}], text
