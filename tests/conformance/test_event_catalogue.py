"""Events declared per system: every shipped scenario of every system (and the fake's) is played for several
seeds by random legal agents, under the default rules options and under other ones, and

* every event emitted is of a kind the system declares (``systems/<name>/events.py``), with its required fields,
  no undeclared field and values of the declared types;
* every declared kind is told in English and in French: it has a sentence (``SystemWords.sentences``) that
  tells each variant seen (and each example below) without the raw fallback, every message it shows has a
  French translation in the French ``.po`` catalogue and every data word it looks up is in its vocabulary
  table; or it is declared silent;
* every move these fights offer (each legal catalogue entry at each decision, and every entry at the first
  one) is named in English and in French: no message without its French, no data word (weapon, location,
  spell, effect) missing from its vocabulary table, no id or placeholder left in the name;
* a declared kind these fights never produce is declared ``rare`` (and one they produce is not), and has an
  example (below, or in the ``EXAMPLES`` its system's events module ships beside ``EVENTS``, as the fake's
  does), so a declaration cannot outlive its engine.

The French is read from the ``.po`` (the source the lead merges new translations into), so a message added in
English fails here until its French is in the catalogue; the few written but not merged yet are
``tests/gm/test_words_i18n.py``'s ``PENDING_FR``, each of which must still be missing.
"""

from __future__ import annotations

import gettext
import importlib
import sys
from collections.abc import Callable, Iterator, Mapping
from functools import cache
from typing import Any

import numpy as np
import pytest

from npc_tactics.dice import RngRoller
from npc_tactics.gm.words import vocab
from npc_tactics.gm.words.naming import Words
from npc_tactics.gm.words.narrate import Teller, narrate_event, sentences_of
from npc_tactics.registry import get_system
from npc_tactics.rules.base import Event
from tests.conformance.helpers import CASES, SYSTEMS, other_options, play_logged, random_play, setup, with_options
from tests.fakesys import registered
from tests.gm.test_words_i18n import PENDING_FR, po_translations

SEEDS = range(6)
NAMES = ("Grak", "Brannoc", "Snikkit", "Axeman", "Guard", "Wolf", "Rider", "Horse")

#: Events the fights above never produce (rare kinds, and rare variants of common ones), as their engine
#: writes them; each is checked against its declaration and told in both languages. A system may instead ship
#: its own beside its declaration: ``EXAMPLES`` (a sequence of events) in the module of its ``events`` hook.
EXAMPLES: list[tuple[str, Event]] = [
    ("ose", Event("hold", 1, 0, 1, {"result": "unaffected"})),
    ("ose", Event("immune", 1, 0, 1, {"attack": "melee", "result": "no_damage"})),
    ("ose", Event("set_vs_charge", 1, 1, 0, {"result": "set"})),
    ("ose", Event("status", 2, 0, None, {"status": "surrendered", "cause": "morale", "result": "surrendered"})),
    ("runequest", Event("bleeding", 3, None, 1, {"amount": 1, "result": "lost_hp"})),
    ("runequest", Event("bleeding", 3, None, 1, {"result": "bled_out"})),
    ("mrq", Event("knockback", 1, 0, 1, {"result": "braced", "metres": 0})),
    ("mrq", Event("bash", 1, 0, 1, {"result": "unaffected"})),
    ("mrq", Event("dismounted", 2, 0, 1, {"result": "prone"})),
]
MOVE_SEEDS = range(3)


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
    """The fallback of the French catalogue: records each message the .po has no translation for."""

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


def _french() -> tuple[gettext.NullTranslations, _Untranslated]:
    """The French catalogue read from its .po, and the record of what it lacks."""
    french, missing = po_translations("fr"), _Untranslated()
    french.add_fallback(missing)
    return french, missing


def _tellers() -> tuple[_CheckingTeller, _CheckingTeller, _Untranslated]:
    english = _CheckingTeller(gettext.NullTranslations())
    french, missing = _french()
    return english, _CheckingTeller(french), missing


def _not_pending(messages: set[str]) -> list[str]:
    """The untranslated messages that are not waiting for a merge (``PENDING_FR``); plurals by singular."""
    pending = {m if isinstance(m, str) else m[0] for m in PENDING_FR}
    return sorted(messages - pending)


def _shipped_examples(system: str) -> list[Event]:
    """The ``EXAMPLES`` of the module that holds the system's event declaration (none if it has none)."""
    module = importlib.import_module(get_system(system).events.partition(":")[0])
    return list(getattr(module, "EXAMPLES", ()))


def _examples(system: str) -> list[Event]:
    return [e for s, e in EXAMPLES if s == system] + _shipped_examples(system)


@pytest.mark.parametrize("system", SYSTEMS)
def test_engines_emit_only_declared_kinds_and_fields(system: str) -> None:
    catalogue = get_system(system).event_catalogue()
    problems = sorted({p for e in _fights(system) for p in catalogue.problems(e.kind, e.data)})
    assert not problems, f"{system}: {len(problems)} problems, e.g. {problems[:10]}"


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_declared_kind_is_told_in_english_and_french(system: str) -> None:
    catalogue = get_system(system).event_catalogue()
    sentences = sentences_of(get_system(system))
    untold = [k.name for k in catalogue if not k.silent and k.name not in sentences]
    assert not untold, f"{system} kinds with no sentence (give one, or declare them silent with a reason): {untold}"
    english, french, missing = _tellers()
    raw: list[str] = []
    for e in _variants(_fights(system)) + _examples(system):
        if catalogue[e.kind].silent:
            continue
        for t in (english, french):
            text, is_raw = narrate_event(get_system(system), e, t)
            if is_raw or "{" in text or "_" in text:
                raw.append(text)
    assert not raw, f"{system}: told as a raw dump, or with a placeholder or an id left: {raw[:5]}"
    untranslated = _not_pending(missing.missing)
    assert not untranslated, f"{system}: messages with no French translation in the .po: {untranslated[:10]}"
    unknown = sorted(english.unknown | french.unknown)
    assert not unknown, f"{system}: data words missing from their vocabulary table: {unknown}"


def _recording_word(unknown: set[str]) -> Callable[..., str]:
    """:func:`vocab.word` that also records each key missing from the table it is looked up in."""
    real = vocab.word

    def word(table: Mapping[str, str], key: object, _: Callable[[str], str]) -> str:
        if table.get(str(key) if key is not None else "") is None:
            unknown.add(str(key))
        return real(table, key, _)

    return word


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_move_is_named_in_english_and_french(system: str, monkeypatch: pytest.MonkeyPatch) -> None:
    label = get_system(system).system_words().label
    unknown: set[str] = set()
    real, recording = vocab.word, _recording_word(unknown)
    for module in list(sys.modules.values()):  # every namer that imported vocab.word by name, and vocab
        if getattr(module, "word", None) is real:
            monkeypatch.setattr(module, "word", recording)
    english = gettext.NullTranslations()
    french, missing = _french()
    bad: dict[str, str] = {}
    named = 0
    for name, scenario in CASES:
        if name != system:
            continue
        engine, scen = setup(system, scenario)
        for variant in (scen, with_options(scen, other_options(engine.spec))):
            for seed in MOVE_SEEDS:
                roller = RngRoller(np.random.default_rng(seed))
                state, _ = engine.new_combat(variant, roller)
                rng = np.random.default_rng(seed + 100)
                for k, (st, decision, mask) in enumerate(random_play(engine, state, rng, roller)):
                    actions = range(len(engine.catalogue)) if k == 0 else np.flatnonzero(mask)
                    for action in actions:
                        spec = engine.catalogue[int(action)]
                        for tr in (english, french):
                            text = str(label(spec, Words(tr.gettext, tr.ngettext, st, decision)))
                            named += 1
                            if not text or "{" in text or "_" in text:
                                bad.setdefault(spec.name, text)
    assert named, f"{system}: no move named"
    assert not bad, f"{system}: moves named with an id or a placeholder left: {sorted(bad.items())[:5]}"
    untranslated = _not_pending(missing.missing)
    assert not untranslated, f"{system}: move words with no French translation in the .po: {untranslated[:10]}"
    assert not unknown, f"{system}: move words missing from their vocabulary table: {sorted(unknown)}"


def test_a_move_word_missing_from_its_table_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check above can fail: a weapon of the shipped dice-pool fighters taken out of the table is reported."""
    monkeypatch.delitem(vocab.WEAPONS, "sword")
    with pytest.raises(AssertionError, match=r"missing from their vocabulary table: \['sword'\]"):
        test_every_move_is_named_in_english_and_french("dicepool", monkeypatch)


@pytest.mark.parametrize("system", SYSTEMS)
def test_kinds_the_fights_never_produce_are_declared_rare(system: str) -> None:
    catalogue = get_system(system).event_catalogue()
    emitted = {e.kind for e in _fights(system)}
    never = set(catalogue.names) - emitted
    assert never <= catalogue.rare, f"{system}: never emitted, declare them rare: {sorted(never - catalogue.rare)}"
    assert not catalogue.rare & emitted, f"{system}: declared rare but emitted: {sorted(catalogue.rare & emitted)}"
    no_example = catalogue.rare - {e.kind for e in _examples(system)}
    assert not no_example, f"{system}: rare kinds without an example in EXAMPLES: {sorted(no_example)}"


@pytest.mark.parametrize(("system", "event"), EXAMPLES,
                         ids=[f"{s}-{e.kind}-{i}" for i, (s, e) in enumerate(EXAMPLES)])
def test_examples_match_their_declaration(system: str, event: Event) -> None:
    assert not get_system(system).event_catalogue().problems(event.kind, event.data)


@pytest.mark.parametrize("system", SYSTEMS)
def test_examples_a_system_ships_match_their_declaration(system: str) -> None:
    catalogue = get_system(system).event_catalogue()
    problems = [p for e in _shipped_examples(system) for p in catalogue.problems(e.kind, e.data)]
    assert not problems, f"{system}: its EXAMPLES do not match their declaration: {problems[:5]}"


@pytest.mark.parametrize("system", SYSTEMS)
def test_echoes_are_declared_kinds(system: str) -> None:
    echoes = get_system(system).system_words().echoes
    assert echoes <= set(get_system(system).event_catalogue().names)


def test_an_undeclared_kind_is_told_raw_without_crashing() -> None:
    system = SYSTEMS[0]
    text, raw = narrate_event(get_system(system), Event("no_such_kind", 1, 0, 1, {"x": 1}), _tellers()[0])
    assert raw and "no_such_kind" in text and "x=1" in text
