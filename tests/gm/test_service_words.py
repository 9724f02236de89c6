"""The web page's words (gettext domain ``web``): every word the page shows is in the catalogue list, translated
in French, and the committed .mo is the compiled .po (a fresh clone needs no build step)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from npc_tactics.gm.service.web_strings import WEB_STRINGS
from npc_tactics.i18n import translator
from npc_tactics.registry import available_systems

WEB = Path(__file__).resolve().parents[2] / "npc_tactics" / "gm" / "service" / "web"
LOCALE = Path(__file__).resolve().parents[2] / "npc_tactics" / "locale" / "fr" / "LC_MESSAGES"


def page_words() -> set[str]:
    words = set(re.findall(r'data-i18n="([^"]+)"', (WEB / "index.html").read_text(encoding="utf-8")))
    for script in sorted(WEB.glob("*.js")):  # app.js and odds.js
        words |= set(re.findall(r'\bt\("([^"]+)"\)', script.read_text(encoding="utf-8")))
    for info in available_systems().values():
        form = info.load("form").FORM
        for f in form["situation_fields"] + form["combatant_fields"]:
            words |= {f["label"]} | {item["label"] for item in f.get("fields", ())}  # a list's record inputs too
    return words | {"win", "fled", "dead"}  # odds keys, shown through t(k)


def test_every_page_word_is_listed() -> None:
    assert page_words() - set(WEB_STRINGS) == set()


@pytest.mark.parametrize("msgid", WEB_STRINGS)
def test_every_listed_word_has_french(msgid: str) -> None:
    assert msgid in page_words(), f"{msgid!r} is listed but the page never shows it"
    fr = translator("fr", domain="web")(msgid)
    same_in_french = {"Distance", "Situation", "Round", "Position (m)", "round"}
    assert fr != msgid or msgid in same_in_french


def test_the_web_catalogue_is_complete() -> None:
    """No untranslated or fuzzy entry. That web.mo holds exactly web.po is checked by content for every domain in
    test_words_i18n (bytes differ between Babel versions: the .mo header names the compiler)."""
    with (LOCALE / "web.po").open("rb") as f:
        catalog = read_po(f, locale="fr", domain="web")
    assert not [m.id for m in catalog if m.id and (not m.string or m.fuzzy)], "untranslated or fuzzy entries"


def test_english_is_the_source_text() -> None:
    _ = translator("en", domain="web")
    assert all(_(m) == m for m in WEB_STRINGS)


def tracker_words() -> set[str]:
    """The tracker page's words: ``data-tr`` attributes of tracker.html and ``tr("...")`` calls of tracker.js."""
    words = set(re.findall(r'data-tr="([^"]+)"', (WEB / "tracker.html").read_text(encoding="utf-8")))
    words |= set(re.findall(r'\btr\("([^"]+)"', (WEB / "tracker.js").read_text(encoding="utf-8")))
    return words


def test_every_tracker_word_is_listed_and_has_french() -> None:
    from npc_tactics.gm.service.web_strings import TRACKER_STRINGS

    assert tracker_words() - set(TRACKER_STRINGS) == set()
    fr = translator("fr", domain="web")
    same = {"Round", "Position", "Distance", "OK", "PV", "HP"}
    untranslated = [m for m in TRACKER_STRINGS if fr(m) == m and m not in same]
    assert not untranslated, f"tracker words with no French: {untranslated[:10]}"
