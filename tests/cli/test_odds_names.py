"""Templates named on the command line as on the web page: ``npc-tactics odds`` and ``build-encounter`` take a
template's id, its name in ``--lang`` or its English name, any case (``gobelin x4``, ``archer gobelin x2``,
``Goblin archer x2``), through the web service's words (:mod:`npc_tactics.gm.encounter.template_words`); ids work
as they always did. An unknown or ambiguous name is one line naming the token, in French with ``--lang fr``, exit
code 2; a count is written ``xN`` after the name, so a bare trailing number belongs to the name (``guerrier 2``)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from npc_tactics.cli.encounter import template_words
from npc_tactics.errors import UnknownNameError, UserError
from npc_tactics.gm.encounter.odds import template_names
from npc_tactics.gm.encounter.spec import parse_group
from npc_tactics.gm.encounter.template_words import TemplateWords
from npc_tactics.i18n import translator
from npc_tactics.registry import get_system
from tests.cli_helpers import run_cli

OSE = get_system("ose")
NAMES = template_names(OSE)


@pytest.fixture(scope="module")
def fr() -> TemplateWords:
    return template_words(OSE, "fr")


@pytest.fixture(scope="module")
def en() -> TemplateWords:
    return template_words(OSE, "en")


def _error(text: str, choices: Any, what: str = "--foes") -> str:
    with pytest.raises(UserError) as caught:
        parse_group(text, choices, what)
    return str(caught.value)


# parse_group itself

@pytest.mark.parametrize("text", ["goblin x4, goblin_archer x2", "fighter_2, cleric_2", "goblin x2, orc, goblin ×1",
                                  "goblin*3", "goblin x 2", "fighter_1 x2"])
def test_ids_read_as_they_always_did(text: str, fr: TemplateWords, en: TemplateWords) -> None:
    by_ids = parse_group(text, NAMES)
    assert parse_group(text, fr) == by_ids
    assert parse_group(text, en) == by_ids


@pytest.mark.parametrize(("text", "group"), [
    ("gobelin x4", (("goblin", 4),)),
    ("archer gobelin x2, gobelin", (("goblin_archer", 2), ("goblin", 1))),
    ("guerrier 2, clerc 2", (("fighter_2", 1), ("cleric_2", 1))),  # a bare number belongs to the name
    ("guerrier 1 x2", (("fighter_1", 2),)),
    ("magicien 1 ×2, voleur 1", (("magic_user_1", 2), ("thief_1", 1))),
    ("gobelin (goblin) x2", (("goblin", 2),)),  # as the web page lists it
    ("golem d\u2019ambre", (("amber_golem", 1),)),  # a typographic apostrophe is an apostrophe
    ("cocatrix x2", (("cockatrice", 2),)),  # a name ending in x, then its count
    ("goblin archer x2, gobelin x2", (("goblin_archer", 2), ("goblin", 2))),  # English words with --lang fr
    ("gobelin x2, goblin x2", (("goblin", 4),)),  # one template in two languages adds up
])
def test_french_names_are_read_as_their_ids(text: str, group: tuple[tuple[str, int], ...],
                                           fr: TemplateWords) -> None:
    assert parse_group(text, fr) == group


@pytest.mark.parametrize(("text", "group"), [
    ("Goblin archer x2", (("goblin_archer", 2),)),
    ("black bear, fighter 2", (("black_bear", 1), ("fighter_2", 1))),
    ("magic-user 1 x2", (("magic_user_1", 2),)),
])
def test_english_display_names_are_read_as_their_ids(text: str, group: tuple[tuple[str, int], ...],
                                                    en: TemplateWords) -> None:
    assert parse_group(text, en) == group


@pytest.mark.parametrize("text", ["ARCHER  Gobelin X2", "archer gobelin x2", " Archer\tgobelin   x 2 ",
                                  "GOBLIN_ARCHER x2", "Goblin Archer*2"])
def test_case_and_spaces_do_not_count(text: str, fr: TemplateWords) -> None:
    assert parse_group(text, fr) == (("goblin_archer", 2),)


def test_ids_alone_any_case_when_no_names_are_at_hand() -> None:
    assert parse_group("GOBLIN x2, Orc", NAMES) == (("goblin", 2), ("orc", 1))
    assert "unknown template 'gobelin'" in _error("gobelin x2", NAMES)  # no French without the names


def test_an_unknown_name_is_said_in_french_with_close_matches(fr: TemplateWords) -> None:
    msg = _error("gobelin x2, gobeline x4", fr)
    assert msg == "--foes: " + translator("fr", "odds")(
        "unknown template {name}; did you mean {near}? ({n} valid templates)").format(
        name="'gobeline'", near=", ".join(fr.listed_as(n) for n in fr.near("gobeline")), n=len(NAMES))
    assert msg.startswith("--foes: modèle inconnu 'gobeline' ; vouliez-vous dire gobelin (goblin)")


def test_an_unknown_name_in_english_is_the_error_it_always_was(en: TemplateWords) -> None:
    assert _error("gobeline x4", en, "--party") == f"--party: {UnknownNameError('template', 'gobeline', NAMES)}"
    assert _error("gobeline x4", en) == _error("gobeline x4", NAMES)


def test_an_ambiguous_name_lists_the_templates_it_may_mean() -> None:
    def name_of(system: Any, template: str, lang: str) -> str:
        return "orque" if template in ("orc", "hobgoblin") else template

    words = TemplateWords.of(OSE, NAMES, "fr", name_of)
    msg = _error("Orque x2", words)
    assert msg == "--foes: " + translator("fr", "odds")(
        "ambiguous template {name}: it names {names}; write one of these").format(
        name="'Orque'", names="orque (hobgoblin), orque (orc)")
    assert parse_group("orc x2", words) == (("orc", 2),)  # an id is never ambiguous


@pytest.mark.parametrize(("text", "fragment"), [
    ("gobelin 4", "--foes: attendu NOM ou NOM xN, comme 'gobelin x4' ; reçu 'gobelin 4' ('gobelin' est un modèle ; "
                  "le nombre s'écrit xN après lui)"),
    ("archer gobelin quatre", "reçu 'archer gobelin quatre' ('archer gobelin' est un modèle"),
    ("goblin times four", "--foes: attendu NOM ou NOM xN"),
    ("gobelin x4 x2", "reçu 'gobelin x4 x2' ('gobelin' est un modèle"),
    ("gobelin x0", "--foes: attendu un nombre de 1 à 6 pour gobelin ; reçu 0"),
    ("gobelin x99999999999", "--foes: attendu un nombre de 1 à 6 pour gobelin ; reçu 99999999999"),
    ("goblin; orc", "--foes: attendu NOM ou NOM xN, comme 'gobelin x4' ; reçu 'goblin; orc'"),
    ("gobelin,,orque", "--foes: attendu NOM ou NOM xN, comme 'gobelin x4' ; reçu ''"),
    ("x4", "--foes: modèle inconnu 'x4'"),
    ("×4", "--foes: attendu NOM ou NOM xN, comme 'gobelin x4' ; reçu '×4'"),
    ("gobelin" + " " * 5000 + "x4", "--foes: attendu NOM ou NOM xN"),  # refused at once, however long
    ("gobelin x4, orque x3", "--foes: au plus 6 combattants par camp, 7 demandés"),
])
def test_bad_groups_name_the_option_and_the_token(text: str, fragment: str, fr: TemplateWords) -> None:
    assert fragment in _error(text, fr)


# the real command line

def _odds(args: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    code, out, err = run_cli(["odds", "--system", "ose", "--fights", "12", "--seed", "3", "--workers", "1", "--json",
                              *args], capsys)
    assert code == 0, err
    result: dict[str, Any] = json.loads(out)
    return result


def test_odds_takes_french_and_english_names_for_the_same_fights(capsys: pytest.CaptureFixture[str]) -> None:
    by_ids = _odds(["--party", "fighter_1 x2", "--foes", "goblin x2, goblin_archer"], capsys)
    french = _odds(["--party", "Guerrier 1 x2", "--foes", "gobelin x2, archer gobelin", "--lang", "fr"], capsys)
    english = _odds(["--party", "fighter 1 x2", "--foes", "Goblin x2, goblin archer"], capsys)
    for got in (french, english):
        assert (got["party"], got["foes"]) == ("fighter_1 x2", "goblin x2, goblin_archer")
        assert got["odds"] == by_ids["odds"]


def test_odds_text_in_french_with_french_names(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(["odds", "--system", "ose", "--party", "fighter_1 x2", "--foes", "gobelin x4",
                              "--lang", "fr", "--fights", "12", "--workers", "1"], capsys)
    assert code == 0, err
    assert out.splitlines()[0] == "guerrier 1 x2  contre  gobelin x4"  # the GM's words; --json keeps the ids
    code, out, err = run_cli(["odds", "--system", "ose", "--party", "fighter_1 x2", "--foes", "goblin_archer x4",
                              "--fights", "12", "--workers", "1"], capsys)
    assert code == 0, err
    assert out.splitlines()[0] == "fighter_1 x2  against  goblin_archer x4"  # English keeps the ids it takes


def test_build_encounter_text_names_the_groups_in_french(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(["build-encounter", "--system", "ose", "--party", "guerrier 2, clerc 2",
                              "--target", "win=0.7", "--pool", "gobelin, archer gobelin", "--budget", "100",
                              "--top", "1", "--seed", "1", "--workers", "1", "--lang", "fr"], capsys)
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("Groupe : guerrier 2, clerc 2 (menace ")
    proposal = next(line for line in lines if line.startswith("1. "))
    assert "goblin" not in proposal and "gobelin" in proposal


@pytest.mark.parametrize(("args", "line"), [
    (["--foes", "gobeline x4", "--lang", "fr"], "npc-tactics: error: --foes: modèle inconnu 'gobeline' ; "
                                               "vouliez-vous dire gobelin (goblin)"),
    (["--foes", "gobeline x4"], "npc-tactics: error: --foes: unknown template 'gobeline'; did you mean goblin"),
    (["--foes", "gobelin x4"], "npc-tactics: error: --foes: unknown template 'gobelin'; did you mean goblin"),
    (["--foes", "gobelin 4", "--lang", "fr"], "npc-tactics: error: --foes: attendu NOM ou NOM xN, comme "
                                             "'gobelin x4' ; reçu 'gobelin 4' ('gobelin' est un modèle"),
    (["--foes", "goblin 4"], "npc-tactics: error: --foes: expected NAME or NAME xN such as 'goblin x4', got "
                             "'goblin 4' ('goblin' is a template; a count is written xN after it)"),
    (["--foes", "goblin x9"], "npc-tactics: error: --foes: expected a count from 1 to 6 for goblin, got 9"),
])
def test_odds_refuses_an_unknown_name_in_one_line_exit_2(args: list[str], line: str,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(["odds", "--system", "ose", "--party", "fighter_1", "--fights", "12", *args], capsys)
    assert code == 2 and not out
    lines = [ln for ln in err.splitlines() if "pure-Python engines" not in ln]
    assert len(lines) == 1 and lines[0].startswith(line), err


def test_odds_refuses_an_ambiguous_name_in_french(capsys: pytest.CaptureFixture[str],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    from npc_tactics.gm.table import stat_words

    real = stat_words.template_text
    monkeypatch.setattr(stat_words, "template_text", lambda system, template, lang: "orque" if lang == "fr" and
                        template in ("orc", "hobgoblin") else real(system, template, lang))
    code, _, err = run_cli(["odds", "--system", "ose", "--party", "fighter_1", "--foes", "orque x2", "--lang", "fr",
                            "--fights", "12"], capsys)
    assert code == 2
    assert "npc-tactics: error: --foes: modèle ambigu 'orque' : ce nom désigne orque (hobgoblin), orque (orc)" in err


def test_build_encounter_takes_names_in_the_party_and_the_pool(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(["build-encounter", "--system", "ose", "--party", "guerrier 2, Clerc 2",
                              "--target", "win=0.7", "--pool", "gobelin, orque", "--budget", "100", "--top", "1",
                              "--seed", "1", "--workers", "1", "--lang", "fr", "--json"], capsys)
    assert code == 0, err
    result = json.loads(out)
    assert result["party"] == "fighter_2, cleric_2"
    assert {name.split(" x")[0] for p in result["proposals"] for name in p["foes"].split(", ")} <= {"goblin", "orc"}
    code, _, err = run_cli(["build-encounter", "--system", "ose", "--party", "fighter_2", "--target", "win=0.7",
                            "--pool", "gobelin, dragon", "--budget", "100", "--lang", "fr"], capsys)
    assert code == 2 and "--pool: modèle inconnu 'dragon'" in err


def test_the_help_says_how_to_write_a_name_and_a_count(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(["odds", "--help"], capsys)
    assert code == 0
    flat = " ".join(out.replace("│", " ").split())
    assert "its count comes after it as xN" in flat and "'guerrier 2' is fighter_2" in flat
