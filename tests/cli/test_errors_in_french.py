"""A command asked to speak French (``--lang fr``) says a refused situation in French: the same one line on stderr,
exit code 2, the file and field as written and the sentence in the GM's language; English without the option.
Through the real entry point (``npc_tactics.cli.main.main``), in this process."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from npc_tactics.cli.main import _asked_language, main

SITUATION = {"acting": "Vargast", "round": 2, "distance": 1, "sides": [
    {"name": "thane", "combatants": [{"template": "orlanthi_warrior", "name": "Vargast",
                                      "poison_doses": [{"potency": 0, "rounds": 1}]}]},
    {"name": "wolves", "combatants": [{"template": "wolf", "name": "Greyback"}]}]}


def refused(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    with pytest.raises(SystemExit) as ended:
        main(list(args))
    assert ended.value.code == 2
    lines = [line for line in capsys.readouterr().err.splitlines() if "pure-Python engines" not in line]
    assert len(lines) == 1, lines
    return lines[0]


@pytest.mark.parametrize("lang", [["--lang", "fr"], ["--lang=fr"]])
def test_suggest_says_a_bad_dose_in_french(tmp_path: Path, capsys: pytest.CaptureFixture[str], lang: list[str]) -> None:
    path = tmp_path / "poisoned.yaml"
    path.write_text(yaml.safe_dump(SITUATION), encoding="utf-8")
    line = refused(capsys, "suggest", "--system", "runequest", "--situation", str(path), "--think", "0", *lang)
    # the field as written, then French typography's narrow space before the colon and the catalogue's sentence
    assert line == f"npc-tactics: error: {path}: sides[0].combatants[0].poison_doses[0].potency\u202f: 0 hors " \
                   "limites : attendu 1..99"


def test_without_the_option_it_stays_english(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "poisoned.yaml"
    path.write_text(yaml.safe_dump(SITUATION), encoding="utf-8")
    line = refused(capsys, "suggest", "--system", "runequest", "--situation", str(path), "--think", "0")
    assert line == f"npc-tactics: error: {path}: sides[0].combatants[0].poison_doses[0].potency: 0 is out of range: " \
                   "expected 1..99"


@pytest.mark.parametrize(("argv", "lang"), [
    (["suggest", "--lang", "fr"], "fr"), (["play", "--lang=fr", "x"], "fr"), (["odds", "--lang", "en"], "en"),
    (["suggest"], "en"), (["suggest", "--lang"], "en"), (["suggest", "--lang", "de"], "en"),
])
def test_the_language_is_read_from_the_command_line(argv: list[str], lang: str) -> None:
    assert _asked_language(argv) == lang
