"""Events declared per system: every shipped scenario of every system (and the fake's) is played for several
seeds by random legal agents, under the default rules options and under other ones, and

* every event emitted is of a kind the system declares (``systems/<name>/events.py``), with its required fields,
  no undeclared field and values of the declared types;
* every declared kind is told in English and in French: it has a sentence (``SystemWords.sentences``) that
  tells each variant seen (and each example below) without the raw fallback, every message it shows has a
  French translation and every data word it looks up is in its vocabulary table (but for the known gaps
  listed below); or it is declared silent;
* a declared kind these fights never produce is declared ``rare`` (and one they produce is not), and has an
  example below, so a declaration cannot outlive its engine.
"""

from __future__ import annotations

import gettext
from collections.abc import Iterator, Mapping
from functools import cache
from typing import Any

import numpy as np
import pytest

from npc_tactics.dice import RngRoller
from npc_tactics.gm.words.narrate import Teller, narrate_event, sentences_of
from npc_tactics.i18n import LOCALE_DIR
from npc_tactics.registry import get_system
from npc_tactics.rules.base import Event
from tests.conformance.helpers import CASES, SYSTEMS, other_options, play_logged, setup, with_options
from tests.fakesys import registered

SEEDS = range(6)
NAMES = ("Grak", "Brannoc", "Snikkit", "Axeman", "Guard", "Wolf", "Rider", "Horse")

#: Events the fights above never produce (rare kinds, and rare variants of common ones), as their engine
#: writes them; each is checked against its declaration and told in both languages.
EXAMPLES: list[tuple[str, Event]] = [
    ("ose", Event("hold", 1, 0, 1, {"result": "unaffected"})),
    ("ose", Event("immune", 1, 0, 1, {"attack": "melee", "result": "no_damage"})),
    ("ose", Event("set_vs_charge", 1, 1, 0, {"result": "set"})),
    ("ose", Event("status", 2, 0, None, {"status": "surrendered", "cause": "morale", "result": "surrendered"})),
    ("runequest", Event("bleeding", 3, None, 1, {"amount": 1, "result": "lost_hp"})),
    ("mrq", Event("knockback", 1, 0, 1, {"result": "braced", "metres": 0})),
    ("mrq", Event("bash", 1, 0, 1, {"result": "unaffected"})),
    ("mrq", Event("dismounted", 2, 0, 1, {"result": "prone"})),
    ("fake", Event("morale", 2, 1, None, {"passed": True})),
    ("fake", Event("morale", 2, 1, None, {"passed": False})),
]
#: Known gaps in the words (each needs a message the French catalogue does not hold yet): data words with no entry
#: in their vocabulary table, shown as the engine's id with spaces in both languages, and examples still told as
#: a raw dump. Each entry must still be a gap: drop it once fixed.
UNKNOWN_WORDS = {"ose": {"individual"},  # initiative: individual, told "individual acts first"
                 "runequest": {"no_magic_points", "out_of_range", "recovering_weapon"}}  # spell, attack_lost
GAPS: list[tuple[str, Event]] = [
    ("runequest", Event("bleeding", 3, None, 1, {"result": "bled_out"})),  # the sentence reads "amount"
]


@pytest.fixture(autouse=True)
def _fake_registered() -> Iterator[None]:
    with registered():
        yield


@cache
def _fights(system: str) -> tuple[Event, ...]:
    """Every event of the random-legal fights of ``system``: each scenario, each seed, default and other options."""
    events: list[Event] = []
    for name, scenario in CASES:
        if name != system:
            continue
        engine, scen = setup(system, scenario)
        for variant in (scen, with_options(scen, other_options(engine.spec))):
            for seed in SEEDS:
                _, log, _ = play_logged(engine, variant, RngRoller(np.random.default_rng(seed)), seed + 100)
                events.extend(log)
    return tuple(events)


def _variants(events: tuple[Event, ...]) -> list[Event]:
    """One event per variant: kind, which of actor and target are set, the data keys and their words."""
    seen: dict[tuple[Any, ...], Event] = {}
    for e in events:
        words = tuple(sorted((k, v) for k, v in e.data.items() if isinstance(v, str | bool) or v is None))
        seen.setdefault((e.kind, e.actor is None, e.target is None, tuple(sorted(e.data)), words), e)
    return list(seen.values())


class _Untranslated(gettext.NullTranslations):
    """The last fallback of the French catalogue: records each message the catalogue has no translation for."""

    def __init__(self) -> None:
        super().__init__()
        self.missing: set[str] = set()

    def gettext(self, message: str) -> str:
        self.missing.add(message)
        return message

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        self.missing.add(msgid1)
        return msgid1 if n == 1 else msgid2


class _CheckingTeller(Teller):
    """A :class:`Teller` that records the data words missing from the vocabulary table they are looked up in."""

    __slots__ = ("unknown",)
    unknown: set[str]

    def __init__(self, translations: gettext.NullTranslations) -> None:
        Teller.__init__(self, translations.gettext, translations.ngettext, NAMES)
        object.__setattr__(self, "unknown", set())

    def term(self, table: Mapping[str, str], key: object) -> str:
        if table.get(str(key) if key is not None else "") is None:
            self.unknown.add(str(key))
        return Teller.term(self, table, key)


def _tellers() -> tuple[_CheckingTeller, _CheckingTeller, _Untranslated]:
    english = _CheckingTeller(gettext.NullTranslations())
    french = gettext.translation("npc_tactics", str(LOCALE_DIR), languages=["fr"])  # a copy: safe to extend
    missing = _Untranslated()
    french.add_fallback(missing)
    return english, _CheckingTeller(french), missing


def _examples(system: str) -> list[Event]:
    return [e for s, e in EXAMPLES if s == system]


@pytest.mark.parametrize("system", SYSTEMS)
def test_engines_emit_only_declared_kinds_and_fields(system: str) -> None:
    catalogue = get_system(system).event_catalogue()
    problems = sorted({p for e in _fights(system) for p in catalogue.problems(e.kind, e.data)})
    assert not problems, f"{system}: {len(problems)} problems, e.g. {problems[:10]}"


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_declared_kind_is_told_in_english_and_french(system: str) -> None:
    catalogue = get_system(system).event_catalogue()
    sentences = sentences_of(system)
    untold = [k.name for k in catalogue if not k.silent and k.name not in sentences]
    assert not untold, f"{system} kinds with no sentence (give one, or declare them silent with a reason): {untold}"
    english, french, missing = _tellers()
    raw: list[str] = []
    for e in _variants(_fights(system)) + _examples(system):
        if catalogue[e.kind].silent:
            continue
        for t in (english, french):
            text, is_raw = narrate_event(system, e, t)
            if is_raw or "{" in text or "_" in text:
                raw.append(text)
    assert not raw, f"{system}: told as a raw dump, or with a placeholder or an id left: {raw[:5]}"
    assert not missing.missing, f"{system}: messages with no French translation: {sorted(missing.missing)[:10]}"
    unknown = english.unknown | french.unknown
    known = UNKNOWN_WORDS.get(system, set())
    assert not unknown - known, f"{system}: data words missing from their vocabulary table: {sorted(unknown - known)}"
    assert not known - unknown, f"{system}: in a table now, drop them from UNKNOWN_WORDS: {sorted(known - unknown)}"


@pytest.mark.xfail(strict=True, reason="a known gap of the words (GAPS): drop it from GAPS once it is told")
@pytest.mark.parametrize(("system", "event"), GAPS, ids=[f"{s}-{e.kind}-{i}" for i, (s, e) in enumerate(GAPS)])
def test_known_gaps_are_still_told_raw(system: str, event: Event) -> None:
    assert not any(narrate_event(system, event, t)[1] for t in _tellers()[:2])


@pytest.mark.parametrize("system", SYSTEMS)
def test_kinds_the_fights_never_produce_are_declared_rare(system: str) -> None:
    catalogue = get_system(system).event_catalogue()
    emitted = {e.kind for e in _fights(system)}
    never = set(catalogue.names) - emitted
    assert never <= catalogue.rare, f"{system}: never emitted, declare them rare: {sorted(never - catalogue.rare)}"
    assert not catalogue.rare & emitted, f"{system}: declared rare but emitted: {sorted(catalogue.rare & emitted)}"
    no_example = catalogue.rare - {e.kind for e in _examples(system)}
    assert not no_example, f"{system}: rare kinds without an example in EXAMPLES: {sorted(no_example)}"


@pytest.mark.parametrize(("system", "event"), EXAMPLES + GAPS,
                         ids=[f"{s}-{e.kind}-{i}" for i, (s, e) in enumerate(EXAMPLES + GAPS)])
def test_examples_match_their_declaration(system: str, event: Event) -> None:
    assert not get_system(system).event_catalogue().problems(event.kind, event.data)


@pytest.mark.parametrize("system", SYSTEMS)
def test_echoes_are_declared_kinds(system: str) -> None:
    echoes = get_system(system).system_words().echoes
    assert echoes <= set(get_system(system).event_catalogue().names)


def test_an_undeclared_kind_is_told_raw_without_crashing() -> None:
    system = SYSTEMS[0]
    text, raw = narrate_event(system, Event("no_such_kind", 1, 0, 1, {"x": 1}), _tellers()[0])
    assert raw and "no_such_kind" in text and "x=1" in text
