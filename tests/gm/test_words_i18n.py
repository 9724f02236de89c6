"""The gettext machinery: languages, domains, committed .mo files equal to their .po, every extracted string
translated into French with the same placeholders (but for the few listed as pending, each still missing).

:func:`po_translations` reads a .po catalogue itself, so the words tests (``tests/conformance/
test_event_catalogue.py``) check the source of the translations, not its compiled copy."""

from __future__ import annotations

import gettext
import string
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from npc_tactics.errors import UserError
from npc_tactics.i18n import LANGS, LOCALE_DIR, check_lang, translations, translator

ROOT = Path(__file__).resolve().parents[2]
KEYWORDS = {"_": None, "N_": None, "say": None, "Said": None, "SaidN": (1, 2), "ngettext": (1, 2)}
#: English messages whose French is written (with the change that added them) but not merged into the .po yet:
#: they may be missing from the French catalogue, and each must still be missing (drop it once merged). A
#: plural is its (singular, plural) pair.
PENDING_FR: frozenset[str | tuple[str, ...]] = frozenset()


def _po(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / "npc_tactics.po"


class PoTranslations(gettext.NullTranslations):
    """The translations of one .po file, read as text (fuzzy and untranslated entries left out, so they fall
    through to the fallback)."""

    def __init__(self, po: Path) -> None:
        super().__init__()
        with open(po, "rb") as f:
            catalog = read_po(f)
        self._plural = gettext.c2py(catalog.plural_expr)
        self._messages: dict[str, str | tuple[str, ...]] = {}
        for m in catalog:
            text = m.string
            if not m.id or m.fuzzy or not text:
                continue
            if isinstance(m.id, str):
                self._messages[m.id] = str(text)
            elif not isinstance(text, str) and all(text):
                self._messages[m.id[0]] = tuple(text)

    def gettext(self, message: str) -> str:
        found = self._messages.get(message)
        return found if isinstance(found, str) else super().gettext(message)  # the fallback's, else the source

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        found = self._messages.get(msgid1)
        if isinstance(found, tuple):
            return found[min(self._plural(n), len(found) - 1)]
        return super().ngettext(msgid1, msgid2, n)


def po_translations(lang: str, domain: str = "npc_tactics") -> PoTranslations:
    """The ``lang`` catalogue of ``domain`` read from its .po (add a fallback to see what it lacks)."""
    return PoTranslations(LOCALE_DIR / lang / "LC_MESSAGES" / f"{domain}.po")


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def _extracted() -> set[str | tuple[str, ...]]:
    """Every message of the npc_tactics domain, extracted the way `make catalogues` does (babel.cfg)."""
    from babel.messages.frontend import parse_mapping_cfg

    with open(LOCALE_DIR / "babel.cfg", encoding="utf-8") as f:
        method_map, options_map = parse_mapping_cfg(f)
    ids: set[str | tuple[str, ...]] = set()
    for _, _, message, _, _ in extract_from_dir(str(ROOT), method_map, options_map, keywords=KEYWORDS):
        ids.add(message if isinstance(message, str) else tuple(message))
    return ids


def test_english_is_the_source_and_french_translates() -> None:
    assert translator("en")("parry with {weapon}") == "parry with {weapon}"
    assert translator("fr")("parry with {weapon}") == "parer avec {weapon}"
    assert translations("fr").ngettext("move {n} die to DEFENSE", "move {n} dice to DEFENSE", 3) == \
        "passer {n} dés en DÉFENSE"
    assert translations("fr").ngettext("move {n} die to DEFENSE", "move {n} dice to DEFENSE", 1) == \
        "passer {n} dé en DÉFENSE"


def test_unknown_language_is_a_user_error_listing_the_valid_ones() -> None:
    with pytest.raises(UserError, match="valid languages: en, fr"):
        translator("de")
    with pytest.raises(UserError):
        check_lang("FR")
    assert check_lang("fr") == "fr"


def test_domains_of_other_parts_fall_back_to_the_source_text() -> None:
    assert translator("fr", domain="card")("Before combat") in ("Before combat", "Avant le combat")
    with pytest.raises(ValueError, match="unknown gettext domain"):
        translator("fr", domain="nope")


PO_FILES = sorted(LOCALE_DIR.glob("*/LC_MESSAGES/*.po"))


def test_both_languages_have_the_npc_tactics_catalogue() -> None:
    assert {_po(lang) for lang in LANGS} <= set(PO_FILES)


@pytest.mark.parametrize("po", PO_FILES, ids=[f"{p.parents[1].name}-{p.stem}" for p in PO_FILES])
def test_committed_mo_holds_exactly_its_po(po: Path) -> None:
    """A .po edited without recompiling (or a stale .mo) fails here, for every domain and language.

    Compared by content, not bytes, so a .mo from GNU msgfmt passes as well as one from Babel: every translated
    entry of the .po is in the .mo with that translation, and the .mo has nothing else but the header and
    untranslated entries compiled to their English source."""
    with open(po, "rb") as f:
        catalog = read_po(f)
    with open(po.with_suffix(".mo"), "rb") as f:
        compiled = {k: v for k, v in gettext.GNUTranslations(f)._catalog.items() if k != ""}  # type: ignore[attr-defined]
    expected: dict[object, str] = {}
    sources: dict[object, tuple[str, ...]] = {}
    for m in catalog:
        if not m.id or m.fuzzy:
            continue
        text = m.string
        if isinstance(m.id, str):
            sources[m.id] = (m.id,)
            if text:
                expected[m.id] = str(text)
        elif text is not None and not isinstance(text, str):
            for i, form in enumerate(text):
                sources[(m.id[0], i)] = tuple(m.id)
                if all(text):
                    expected[(m.id[0], i)] = form
    stale = {k: (compiled.get(k), v) for k, v in expected.items() if compiled.get(k) != v}
    assert not stale, f"{po.name}: the .mo is not the compiled .po (run `make catalogues`): {list(stale.items())[:5]}"
    unknown = {k: v for k, v in compiled.items() if k not in expected and v not in sources.get(k, ())}
    assert not unknown, f"{po.with_suffix('.mo').name} holds entries its .po does not: {list(unknown.items())[:5]}"


def test_a_stale_mo_is_caught(tmp_path: Path) -> None:
    """The check above can fail: a .po changed after compiling is reported."""
    po = tmp_path / "x.po"
    po.write_text('msgid ""\nmsgstr "Content-Type: text/plain; charset=utf-8\\n"\n\nmsgid "dodge"\nmsgstr "esquiver"\n',
                  encoding="utf-8")
    with open(po, "rb") as f:
        catalog = read_po(f)
    with open(po.with_suffix(".mo"), "wb") as f:
        write_mo(f, catalog)
    test_committed_mo_holds_exactly_its_po(po)
    po.write_text(po.read_text(encoding="utf-8").replace("esquiver", "esquive"), encoding="utf-8")
    with pytest.raises(AssertionError, match="not the compiled"):
        test_committed_mo_holds_exactly_its_po(po)


def test_every_extracted_string_has_a_french_translation_with_the_same_placeholders() -> None:
    with open(_po("fr"), "rb") as f:
        catalog = read_po(f)
    translated = {}
    for m in catalog:
        if m.id:
            key = m.id if isinstance(m.id, str) else tuple(m.id)
            translated[key] = m.string
    missing, broken = [], []
    for msgid in sorted(_extracted(), key=str):
        msgstr = translated.get(msgid)
        if not msgstr or (isinstance(msgstr, tuple) and not all(msgstr)):
            missing.append(msgid)
            continue
        english = _fields(msgid if isinstance(msgid, str) else msgid[-1])
        forms = [msgstr] if isinstance(msgstr, str) else list(msgstr)
        if any(_fields(form) != english for form in forms):
            broken.append((msgid, msgstr))
    pending = [m for m in missing if m in PENDING_FR]
    missing = [m for m in missing if m not in PENDING_FR]
    assert not missing, f"{len(missing)} strings without French (run `make catalogues`, then translate): {missing}"
    assert not broken, f"French placeholders differ from the English ones: {broken}"
    merged = sorted(PENDING_FR - set(pending), key=str)
    assert not merged, f"PENDING_FR entries translated now, or no longer used: drop them from PENDING_FR: {merged}"


def test_the_po_reader_translates_singulars_and_plurals_and_falls_back() -> None:
    french = po_translations("fr")
    assert french.gettext("parry with {weapon}") == "parer avec {weapon}"
    assert french.ngettext("move {n} die to DEFENSE", "move {n} dice to DEFENSE", 1) == "passer {n} dé en DÉFENSE"
    assert french.ngettext("move {n} die to DEFENSE", "move {n} dice to DEFENSE", 2) == "passer {n} dés en DÉFENSE"
    assert french.gettext("no such message, surely") == "no such message, surely"
    assert french.ngettext("no {n} such", "no {n} suches", 2) == "no {n} suches"


def test_the_catalogues_are_shipped_as_package_data() -> None:
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert "locale/*/LC_MESSAGES/*.mo" in text
