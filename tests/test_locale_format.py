"""Numbers in the GM's language (French typography: 37 %, 600 064, 10,5, « ; ») and agent names in words; and
suggest's French table writes its numbers that way."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from npc_tactics.gm.words.agents import agent_name
from npc_tactics.locale_format import NNBSP, clauses, decimal, integer, percent

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def test_numbers_in_english_and_french() -> None:
    assert (percent(0.37, "en"), percent(0.37, "fr")) == ("37%", f"37{NNBSP}%")
    assert percent(0.834, "fr", 1) == f"83,4{NNBSP}%" and percent(0.834, "en", 1) == "83.4%"
    assert (integer(600064, "en"), integer(600064, "fr")) == ("600,064", f"600{NNBSP}064")
    assert (decimal(10.5, "en"), decimal(10.5, "fr"), decimal(1234.5, "fr")) == ("10.5", "10,5", f"1{NNBSP}234,5")
    assert clauses(["a", "b"], "en") == "a; b" and clauses(["a", "b"], "fr") == f"a{NNBSP}; b"


def test_agent_names_in_words() -> None:
    assert agent_name("by-the-book", "en") == "by the book" and agent_name("by-the-book", "fr") == "selon les règles"
    assert agent_name("cautious", "fr") == "prudent" and agent_name("runs/duel/", "en") == "duel"
    assert agent_name("card:bundles/ose", "fr") == "la fiche de ose"


def test_suggest_writes_french_numbers() -> None:
    from npc_tactics.gm.advice.suggest import shipped_bundle, suggest

    text = suggest(shipped_bundle("ose"), EXAMPLES / "ose_troll.yaml", odds=8, workers=1, lang="fr").format()
    assert not re.search(r"\d%", text), text  # 37 %, never 37%
    decimals = r"(?<![\d.])\d+\.\d+(?![\d.])"  # 83.4, not a version such as 0.3.0
    assert not re.search(decimals, text.split("supposé")[0]), text  # 83,4, never 83.4 (assumptions aside)
    assert not re.search(r"\d,\d{3}\b", text), text  # 600 064, never 600,064
    assert "selon les règles" in text and "by-the-book" not in text.split("supposé")[0]


def test_a_said_sentence_is_english_text_and_says_itself_in_french() -> None:
    import pickle

    from npc_tactics.i18n import Said, said_in

    note = Said("{name}: {note}", name="Gorak", note=Said("hp not given, taken as max_hp {mx} (unhurt)", mx=21))
    assert note == "Gorak: hp not given, taken as max_hp 21 (unhurt)" and isinstance(note, str)
    assert said_in(note, "fr") == "Gorak : hp non indiqué, pris égal à max_hp 21 (indemne)"
    assert said_in(note, "en") == note and said_in("plain", "fr") == "plain"
    back = pickle.loads(pickle.dumps(note))
    assert back == note and said_in(back, "fr") == said_in(note, "fr")


@pytest.mark.parametrize("system,situation", [("ose", "ose_troll.yaml"), ("runequest", "runequest_situation.yaml"),
                                              ("mrq", "mrq_mounted.yaml"), ("dicepool", "dicepool_aim.yaml")])
def test_what_the_loader_assumed_reads_in_french(system: str, situation: str) -> None:
    from npc_tactics.gm.advice.suggest import shipped_bundle, suggest

    data = suggest(shipped_bundle(system), EXAMPLES / situation, workers=1, lang="fr").to_dict()
    assert data["assumptions"], "the example no longer leaves anything to assume: pick another"
    assert not any("not given" in a or "assumed" in a for a in data["assumptions"]), data["assumptions"]
