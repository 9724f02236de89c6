"""French counts agree with their number in what a GM reads outside the narration (``test_french_plurals.py`` is
the narration's): 0 and 1 take the singular ("1 combat", "0 partie jouée"), 2 and more the plural, in the odds
and the encounter builder, the web page and the tracker's advisor, ``play``, ``suggest``'s table and the tactics
card, each through the code that writes it and the real catalogues; English says "1 fight" where it said
"1 fights". The odds' and the builder's French write the decimal comma ("menace 2,986", "en 0,8 s"), their English
and their JSON the point. A scan of the compiled French catalogues keeps a new sentence from bringing a
"1 combats" back."""

from __future__ import annotations

import gettext
import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from npc_tactics.agents.search import Ranked
from npc_tactics.gm.advice.odds import MoveOdds, Rate
from npc_tactics.gm.advice.result import RankedMove, SearchSummary, Suggestion
from npc_tactics.gm.advice.suggest import shipped_bundle, suggest
from npc_tactics.gm.advice.trust import Trust
from npc_tactics.gm.advice.turn import TurnPlan, TurnStep
from npc_tactics.gm.advice.unusual import rests_on
from npc_tactics.gm.words.encounter_text import format_build, format_odds
from npc_tactics.i18n import DOMAINS, LOCALE_DIR, translator
from npc_tactics.registry import get_system

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "npc_tactics" / "gm" / "service" / "web"
#: French of a count of 0, 1 and 2 (the singular for 0 and 1)
FORMS = ((0, False), (1, False), (2, True))


# --- odds and the encounter builder (gettext domain "odds") -----------------------------------------------------

@pytest.fixture(scope="module")
def odds_result() -> dict[str, Any]:
    from npc_tactics.gm.encounter.odds import odds_of

    return odds_of(get_system("ose"), party="fighter_2, cleric_2", foes="goblin x2", fights=1, seed=0, workers=1)


@pytest.fixture(scope="module")
def build_result() -> dict[str, Any]:
    """One template in the pool and one foe at most: a single group, enumerated and measured."""
    from npc_tactics.gm.encounter.builder import build_encounter
    from npc_tactics.gm.encounter.spec import parse_target

    return build_encounter(get_system("ose"), "fighter_2, cleric_2", parse_target("win=0.5"), pool="goblin",
                           max_foes=1, budget=100, top=1, workers=1, seed=0)


def _with_fights(result: dict[str, Any], n: int) -> dict[str, Any]:
    return {**result, "odds": {**result["odds"], "fights": n}}


@pytest.mark.parametrize(("n", "many"), FORMS)
def test_the_odds_count_their_fights_in_french(odds_result: dict[str, Any], n: int, many: bool) -> None:
    first = format_odds(_with_fights(odds_result, n), "fr").splitlines()[1]
    assert first.startswith(f"{n} combats en " if many else f"{n} combat en "), first


def test_the_odds_say_one_fight_in_english_and_two_fights_as_before(odds_result: dict[str, Any]) -> None:
    assert format_odds(odds_result, "en").splitlines()[1].startswith("1 fight in ")
    assert re.match(r"2 fights in \d+\.\d s \(party: by-the-book, foes: by-the-book\)$",
                    format_odds(_with_fights(odds_result, 2), "en").splitlines()[1])


def test_the_odds_write_french_decimals_and_percentages(odds_result: dict[str, Any]) -> None:
    result = {**odds_result, "seconds": 1.25,
              "odds": {**odds_result["odds"], "rounds": 3.44, "rounds_low": 2.96, "rounds_high": 3.92,
                       "win": {"rate": 0.341, "low": 0.28, "high": 0.41, "count": 1}}}
    fr, en = format_odds(result, "fr"), format_odds(result, "en")
    assert " en 1,2 s (" in fr and "rounds\u202f: 3,4 [3,0–3,9]" in fr
    assert "victoire du groupe\u202f: 34\u202f% [28–41]" in fr and "au moins un PJ meurt\u202f: " in fr
    assert " in 1.2 s (" in en and "rounds: 3.4 [3.0–3.9]" in en and "party wins: 34% [28–41]" in en


def test_the_builder_writes_the_threat_with_a_decimal_comma_in_french_only(build_result: dict[str, Any]) -> None:
    threat = build_result["party_threat"]
    assert isinstance(threat, float) and threat != int(threat)  # a decimal to write (2.986 for this party)
    fr, en = format_build(build_result, "fr"), format_build(build_result, "en")
    assert f"(menace {str(threat).replace('.', ',')})" in fr and f"(threat {threat})" in en
    assert re.search(r"\(menace \d+,\d+, distance \d,\d{3}, ", fr), fr
    assert re.search(r"\(threat \d+\.\d+, distance \d\.\d{3}, ", en), en
    assert re.search(r", en \d+,\d s$", fr.splitlines()[1]) and re.search(r", in \d+\.\d s$", en.splitlines()[1])
    assert "." not in fr.splitlines()[1] + fr.splitlines()[2].split("  (", 1)[1]
    data = json.loads(json.dumps(build_result))  # what --json prints: numbers, untouched
    assert data["party_threat"] == threat and isinstance(data["proposals"][0]["distance"], float)


def test_the_builder_counts_its_groups_and_fights(build_result: dict[str, Any]) -> None:
    assert (build_result["groups_enumerated"], build_result["groups_measured"]) == (1, 1)
    fr, en = format_build(build_result, "fr"), format_build(build_result, "en")
    assert fr.splitlines()[1].startswith("100 combats, 1 sur 1 groupe mesuré, en ")
    assert en.splitlines()[1].startswith("100 fights, 1 of 1 group measured, in ")
    two = format_build({**build_result, "groups_enumerated": 2, "groups_measured": 0}, "fr").splitlines()[1]
    assert "0 sur 2 groupes mesurés" in two
    assert "0 of 2 groups measured" in format_build({**build_result, "groups_enumerated": 2, "groups_measured": 0},
                                                    "en")
    big = format_build({**build_result, "fights": 20000}, "fr").splitlines()[1]
    assert big.startswith("20\u202f000 combats, ")  # grouped as every French count
    proposal = build_result["proposals"][0]
    for n, many in FORMS:
        changed = {**build_result, "proposals": [{**proposal, "odds": {**proposal["odds"], "fights": n}}]}
        line = format_build(changed, "fr").splitlines()[2]
        assert line.endswith(f", {n} combats)" if many else f", {n} combat)"), line
    one = {**build_result, "proposals": [{**proposal, "odds": {**proposal["odds"], "fights": 1}}]}
    assert format_build(one, "en").splitlines()[2].endswith(", 1 fight)")


# --- the web page (domain "web": words the page joins to its numbers) ------------------------------------------

def test_the_web_catalogue_has_each_counted_word_in_both_forms() -> None:
    fr = translator("fr", "web")
    assert (fr("fight"), fr("fights"), fr("play-out"), fr("play-outs")) == \
        ("combat", "combats", "partie jouée", "parties jouées")
    assert 'plural(odds.fights) ? t("fights") : t("fight")' in (WEB / "odds.js").read_text(encoding="utf-8")
    assert 'plural(n) ? t("play-outs") : t("play-out")' in (WEB / "app.js").read_text(encoding="utf-8")
    assert 'data-i18n="fights"' not in (WEB / "index.html").read_text(encoding="utf-8")  # set with its count


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_page_chooses_the_plural_as_gettext_does() -> None:
    script = (WEB / "words.js").read_text(encoding="utf-8") + """
const out = {};
for (const lang of ["en", "fr"]) { Words.lang = lang; out[lang] = [0, 1, 2, 1200].map(plural); }
console.log(JSON.stringify(out));
"""
    got = json.loads(subprocess.run(["node", "-e", script], capture_output=True, text=True, check=True,
                                    timeout=60).stdout)
    assert got == {"en": [True, False, True, True], "fr": [False, False, True, True]}


# --- the tracker's advisor (domain "web") -----------------------------------------------------------------------

def _tracker_notes(odds: int, lang: str, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The advisor's notes at the goblins' first decision, every candidate's ``odds`` rollouts alike (tied)."""
    from npc_tactics.gm.table import fight_advice
    from npc_tactics.gm.table.tracker import Fight, SideSpec
    from npc_tactics.rollouts.run import Rollout

    def alike(job: Any, moves: list[int], count: int, **_: Any) -> dict[int, list[Rollout]]:
        return {m: [Rollout(m, k, k, "win", "alive", 3, 6) for k in range(count)] for m in moves}

    monkeypatch.setattr(fight_advice, "run_rollouts", alike)
    fight = Fight("ose", sides=[SideSpec("Goblins", "npc"), SideSpec("Party", "pc")], seed=7, dice="auto")
    for _ in range(3):
        fight.add(0, "goblin")
    fight.add(1, "fighter_2")
    fight.start()
    while fight.who_decides() != "npc":
        fight.play(fight.legal()[0])
    return list(fight.advise(odds=odds, lang=lang)["notes"])


@pytest.mark.parametrize(("n", "words", "rests"), [
    (1, "avec 1 partie par action,", "le classement repose plus sur 1 partie jouée par coup que"),
    (2, "avec 2 parties par action,", "le classement repose plus sur les 2 parties jouées par coup que")])
def test_the_advisor_counts_its_plays_per_move(monkeypatch: pytest.MonkeyPatch, n: int, words: str,
                                               rests: str) -> None:
    notes = _tracker_notes(n, "fr", monkeypatch)
    assert any(note.startswith(words) for note in notes), notes
    # said when the fight is unlike training (this early round is, for the shipped goblins)
    assert all(note.startswith(rests) for note in notes if note.startswith("le classement repose")), notes


def test_the_advisor_says_one_play_in_english(monkeypatch: pytest.MonkeyPatch) -> None:
    notes = _tracker_notes(1, "en", monkeypatch)
    assert any(note.startswith("with 1 play per move the odds cannot tell") for note in notes), notes
    assert all(note == "the ranking rests on the 1 play per move more than on the policy"
               for note in notes if note.startswith("the ranking rests on")), notes


# --- npc-tactics play (domain "play") --------------------------------------------------------------------------

class _OverrulingSearch:
    """Stands for the decision-time search: plays the policy's least likely legal move, "searched" with the whole
    budget, so each NPC decision with a choice says the search overruled the policy."""

    def __init__(self, arena: Any, policy: Any, *, seed: int, think: float = 0.0,
                 playouts: int | None = None) -> None:
        self.arena, self.policy, self.think, self.budget = arena, policy, think, playouts
        self.timings: list[float] = []

    def choose(self, state: Any, decision: Any) -> tuple[int, int]:
        mask = self.arena.engine.legal_mask(state, decision)
        probs = np.asarray(self.policy.action_probabilities(self.arena.encoder.encode(state, decision), mask))
        legal = [int(a) for a in np.flatnonzero(mask)]
        return min(legal, key=lambda a: (float(probs[a]), a)), int(self.budget or 0)


def _play(n: int, lang: str, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    from npc_tactics.gm.table import play as play_mod

    monkeypatch.setattr(play_mod, "NpcSearch", _OverrulingSearch)
    lines: list[str] = []
    play_mod.play("ose", "goblin_duel", shipped_bundle("ose"), lang=lang, seed=1, playouts=n, ask=lambda _p: "1",
                  say=lines.append)
    return [line.replace("\u202f", " ") for line in lines]  # French typography's narrow spaces read as spaces


@pytest.mark.parametrize(("n", "words"), [(1, "1 partie jouée"), (2, "2 parties jouées")])
def test_play_counts_the_play_outs_of_its_search(monkeypatch: pytest.MonkeyPatch, n: int, words: str) -> None:
    lines = _play(n, "fr", monkeypatch)
    assert f"Recherche : {words} par décision de PNJ (votre camp y joue selon les règles)." in lines
    assert any(line.startswith(f"  recherche sur {words} : ") for line in lines), lines


def test_play_says_one_play_out_in_english(monkeypatch: pytest.MonkeyPatch) -> None:
    lines = _play(1, "en", monkeypatch)
    assert "Search: 1 play-out per NPC decision (in them, your side plays by the book)." in lines
    assert any(line.startswith("  searched 1 play-out: ") for line in lines), lines


# --- suggest (domain "npc_tactics") -----------------------------------------------------------------------------

@pytest.mark.parametrize(("n", "many"), [(1, False), (2, True)])
def test_suggest_counts_its_rollouts_per_move(n: int, many: bool) -> None:
    got = suggest(shipped_bundle("ose"), ROOT / "examples" / "ose_situation.yaml", odds=n, lang="fr", top=1,
                  workers=1, turn=False)
    text = got.format()
    assert (f"  {n} simulations par coup (" if many else f"  {n} simulation par coup (") in text, text
    assert re.search(r"note : 1 sur \d+ coups légaux affichés \(--top\)", text), text
    english = suggest(shipped_bundle("ose"), ROOT / "examples" / "ose_situation.yaml", odds=n, top=1, workers=1,
                      turn=False).format()
    assert (f"  {n} rollouts per move (" if many else f"  {n} rollout per move (") in english


def _rate(count: int, n: int) -> Rate:
    return Rate(count, n, 0.0, 1.0)


def _tied(n: int) -> MoveOdds:
    return MoveOdds(n, _rate(0, n), _rate(0, n), _rate(0, n), _rate(n, n), 3.0, (2.0, 4.0), within_best=False)


@pytest.mark.parametrize(("n", "many"), FORMS)
def test_suggest_s_table_counts_play_outs_and_rollouts(n: int, many: bool) -> None:
    s = "s" if many else ""
    search = SearchSummary(playouts=n, seconds=0.25, think=None, budget=n, policy_move=0, opponent="by-the-book")
    assert search.text("Snikkit", [], "fr").startswith(f"recherche : {n} partie{s} jouée{s} en 0,2 s (")
    moves = [RankedMove(a, f"m{a}", 0.5, f"coup {a}", _tied(max(n, 1)), Ranked(a, 0.5, n)) for a in (0, 1)]
    got = Suggestion("ose", "Snikkit", "ACT", 3, moves, odds=n, opponent="by-the-book", lang="fr")
    if n:
        assert f"valeur 0,50 ({n} partie{s} jouée{s})" in got.format()
        assert got.odds_verdict() == f"les chances ne départagent pas ces coups ({n} simulation{s} chacun)"
    assert rests_on("fr", rollouts=n, fallback=True).startswith(
        f"les coups sont donc classés par {n} partie{s} jouée{s} jusqu'au bout par coup (")
    trust = Trust("bundle", evaluation=[{"opponent": "by-the-book", "episodes": n, "win_rate": 0.5}], search=n)
    lines = trust.lines(translator("fr"), "fr")
    assert f"une recherche de {n} partie{s} jouée{s} par décision" in " ".join(lines) or not n
    assert f"50\u202f% de victoires contre « selon les règles » ({n} combat{s})" in " ".join(lines)


def test_suggest_s_table_says_one_in_english() -> None:
    search = SearchSummary(playouts=1, seconds=0.25, think=None, budget=1, policy_move=0, opponent="by-the-book")
    assert search.text("Snikkit", [], "en").startswith("searched 1 play-out in 0.2 s (")
    moves = [RankedMove(a, f"m{a}", 0.5, f"move {a}", _tied(1), Ranked(a, 0.5, 1)) for a in (0, 1)]
    got = Suggestion("ose", "Snikkit", "ACT", 3, moves, odds=1, opponent="by-the-book")
    assert "value 0.50 (1 play-out)" in got.format() and "  1 rollout per move (" in got.format()
    assert got.odds_verdict() == "the odds cannot tell these moves apart (1 rollout each)"
    trust = Trust("bundle", evaluation=[{"opponent": "by-the-book", "episodes": 1, "win_rate": 0.5}], search=1)
    assert "50% wins vs by the book (1 fight)" in " ".join(trust.lines(lambda m: m))
    assert "a search of 1 play-out a decision" in " ".join(trust.lines(lambda m: m))


def test_the_turn_plan_counts_its_samples_not_the_plays_seen() -> None:
    plan = TurnPlan([TurnStep("act", 0, "attack", "frapper")], seen=1, samples=20)
    assert plan.text(translator("fr")) == "ce round : frapper (1 sur 20 parties)"
    assert plan.text(translator("en")) == "this round: frapper (1 of 20 plays)"


# --- the tactics card (domain "card") ---------------------------------------------------------------------------

def _card(rules: int, n: int) -> Any:
    from npc_tactics.evaluation.arena import Arena
    from npc_tactics.policy_io.card import Card, CardRule, Condition

    arena = Arena.build("ose")
    names = list(arena.engine.catalogue.names)
    made = [CardRule(0, "declare", [], names.index("declare_none"), "", [], 0.9, 0.9)]
    if rules == 2:
        made = [CardRule(0, "declare", [Condition("own_hp", "le", 0.5)], names.index("declare_retreat"), "", [],
                         0.9, 0.4), CardRule(1, "declare", [], names.index("declare_none"), "", [], 0.9, 0.6)]
    win = {"rate": 0.5, "low": 0.4, "high": 0.6, "count": 1}
    meta = {"enemy_count": 1, "depth": 2, "bundle": "ose", "fidelity": {"plain": 0.9, "weighted": 0.8, "decisions": n},
            "evaluation": {"fights": n, "opponents": ["by-the-book"], "kept_gain": None,
                           "card": {"win": win, "fled": 0.0}, "network": {"win": win, "fled": 0.0},
                           "by_the_book": {"win": win, "fled": 0.0}}}
    return Card("ose", "goblin_duel", 0, "0" * 64, [f.name for f in arena.encoder.fields], names, made, {}, meta)


@pytest.mark.parametrize(("n", "many"), FORMS)
def test_the_card_counts_its_rules_decisions_and_fights(n: int, many: bool) -> None:
    from npc_tactics.policy_io.card_render import render_markdown

    s = "s" if many else ""
    fr = render_markdown(_card(1, n), "fr")
    assert "(un arbre de décision de profondeur 2, 1 règle)." in fr
    assert ("dans 90\u202f% des 2 décisions rencontrées" if many else
            f"dans 90\u202f% de {n} décision rencontrée") in fr, fr
    assert f"Taux de victoire sur {n} combat{s} aux mêmes graines" in fr
    assert "profondeur 2, 2 règles)." in render_markdown(_card(2, n), "fr")
    en = render_markdown(_card(1, n), "en")
    assert "(a decision tree of depth 2, 1 rule)." in en
    assert f"Win rate over {n} fight{'' if n == 1 else 's'} on the same seeds" in en


# --- the catalogues: no new "1 combats" -------------------------------------------------------------------------

#: a number followed by a counted French word of the GM's tools (the narration's "points" are test_french_plurals')
COUNTED = re.compile(r"\{\w+(?::[^}]*)?\}\s+(combats?|parties?|simulations?|règles?|décisions?|groupes?|coups?)\b")
#: singular-only French entries where such a number may stay, each with its reason; each must still be there
KNOWN = {
    ("npc_tactics", "this round: {plan} ({seen} of {samples} plays)"):
        "'1 sur 20 parties': the noun counts the turn plan's samples (TURN_SAMPLES, 20)",
    ("npc_tactics", "{shown} of {legal} legal moves shown (--top)"):
        "'1 sur 5 coups légaux': the noun counts the legal moves, more than --top shows, so at least 2",
}


def _french_mo(domain: str) -> dict[Any, str]:
    with open(LOCALE_DIR / "fr" / "LC_MESSAGES" / f"{domain}.mo", "rb") as f:
        return dict(gettext.GNUTranslations(f)._catalog)  # type: ignore[attr-defined]


def test_no_french_count_of_fights_or_plays_outside_a_plural_entry() -> None:
    singular_only = {(d, k): v for d in DOMAINS for k, v in _french_mo(d).items()
                     if isinstance(k, str) and k and any(m.group(1).endswith("s") for m in COUNTED.finditer(v))}
    unknown = {k: v for k, v in singular_only.items() if k not in KNOWN}
    assert not unknown, f"French with a plural count and no plural entry (use ngettext): {unknown}"
    gone = sorted(set(KNOWN) - set(singular_only))
    assert not gone, f"KNOWN entries no longer singular-only with a count (drop them): {gone}"


def test_each_form_of_a_plural_entry_agrees_with_its_number() -> None:
    wrong = []
    for domain in DOMAINS:
        for key, text in _french_mo(domain).items():
            if isinstance(key, tuple):
                plural = key[1] != 0
                words = [m.group(1) for m in COUNTED.finditer(text)]
                if words and all(w.endswith("s") != plural for w in words):
                    wrong.append((domain, key, text))
    assert not wrong, f"plural entries whose form does not agree with its number: {wrong}"
