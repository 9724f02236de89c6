"""Sides called by name at the table (`npc-tactics play`) and in the story (`npc-tactics replay`): the name the
scenario gives a side (``sides: - name: goblins``), else one made of its members ("Brannoc's side", "the side of
Kesh and Varo"), in English and French; the side number is said only beside the agent ``--agents`` lists by it."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from npc_tactics.evaluation.arena import Arena
from npc_tactics.gm.table.play import Quit, Table
from npc_tactics.gm.words.narrate import teller
from npc_tactics.gm.words.replay import given_side_names, members_side_name, replay, side_names
from npc_tactics.registry import get_system

#: a dice-pool scenario that names neither side (the loader puts "side_0" and "side_1" in)
UNNAMED = """\
name: unnamed_duel
max_rounds: 3
sides:
  - combatants:
      - {template: duelist, name: Kesh, position: 0}
  - combatants:
      - {template: duelist, name: Varo, position: 1}
      - {template: duelist, name: Gorak, position: 1}
"""


@pytest.fixture
def unnamed(tmp_path: Path) -> str:
    path = tmp_path / "unnamed_duel.yaml"
    path.write_text(UNNAMED, encoding="utf-8")
    return str(path)


@dataclass
class Loaded:
    side_names: tuple[str, ...]


class FirstMove:
    """Stands in for a bundle agent on ``side``: its first legal move."""

    warnings: list[str] = []

    def __init__(self, side: int) -> None:
        self.side = side

    def action_probabilities(self, vector: np.ndarray, mask: np.ndarray) -> np.ndarray:
        return np.asarray(mask, dtype=float)


def opening_lines(system: str, scenario: str | None, npc_side: int, lang: str) -> list[str]:
    lines: list[str] = []

    def ask(prompt: str) -> str:
        raise EOFError  # stop at the first decision

    table = Table(Arena.build(system, scenario), FirstMove(npc_side), Path("goblin-bundle"), lang=lang, dice="auto",
                  seed=3, ask=ask, say=lines.append)
    with pytest.raises(Quit):
        table.run()
    return lines


# ----- where the names come from ---------------------------------------------------------------------------------
def test_the_names_a_scenario_gives() -> None:
    assert given_side_names(Arena.build("ose", "goblin_duel").scenario, 2) == ["goblins", "adventurers"]
    assert given_side_names(Arena.build("dicepool", "melee_duel").scenario, 2) == ["npcs", "players"]
    assert given_side_names(Arena.build("runequest", "archer_vs_charge").scenario, 2) == ["archer", "broo"]
    # the loaders' stand-ins for a missing name are no names; nor is a side the scenario does not have
    assert given_side_names(Loaded(("side 0", "side_1")), 3) == [None, None, None]
    assert given_side_names({"sides": [{"name": " Goblins "}, {"combatants": []}]}, 2) == ["Goblins", None]
    assert given_side_names({"sides": [[{"name": "orc"}], [{"name": "elf"}]]}, 2) == [None, None]  # the fake's form


@pytest.mark.parametrize(("lang", "expected"), [
    ("en", ["nobody", "Brannoc's side", "the side of Brannoc and Gorak", "the side of Brannoc, Gorak and Snikkit",
            "the side of Brannoc, Gorak and 3 others"]),
    ("fr", ["personne", "le camp de Brannoc", "le camp de Brannoc et Gorak", "le camp de Brannoc, Gorak et Snikkit",
            "le camp de Brannoc, Gorak et 3 autres"]),
])
def test_a_side_without_a_name_is_called_after_its_members(lang: str, expected: list[str]) -> None:
    members = ["Brannoc", "Gorak", "Snikkit", "Pell", "Orrin"]
    t = teller([], lang)
    assert [members_side_name(members[:n], t) for n in (0, 1, 2, 3, 5)] == expected


def test_side_names_mix_given_names_and_members() -> None:
    combatants = [("Snikkit", 0), ("Brannoc", 1), ("Gorak", 1)]
    t = teller([], "en")
    assert side_names(Loaded(("goblins", "side 1")), combatants, 2, t) == ["goblins", "the side of Brannoc and Gorak"]


# ----- npc-tactics play ------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("lang", "first"), [
    ("en", "goblin_duel (ose): you play adventurers (Brannoc); the bundle goblin-bundle plays goblins (Snikkit)."),
    ("fr", "goblin_duel (ose) : vous jouez adventurers (Brannoc) ; le paquet goblin-bundle joue goblins (Snikkit)."),
])
def test_play_says_who_plays_which_side_by_name(lang: str, first: str) -> None:
    lines = opening_lines("ose", "goblin_duel", 0, lang)
    assert lines[0] == first
    told = "\n".join(lines[1:])  # the events and the status block
    assert "(goblins)" in told and "(adventurers)" in told  # the initiative rolls and status lines, by side name
    assert "side 0" not in told and "side 1" not in told and "camp 0" not in told and "camp 1" not in told


@pytest.mark.parametrize(("lang", "first"), [
    ("en", "unnamed_duel (dicepool): you play the side of Varo and Gorak; the bundle goblin-bundle plays Kesh's "
           "side."),
    ("fr", "unnamed_duel (dicepool) : vous jouez le camp de Varo et Gorak ; le paquet goblin-bundle joue le camp de "
           "Kesh."),
])
def test_play_names_unnamed_sides_after_their_members(unnamed: str, lang: str, first: str) -> None:
    lines = opening_lines("dicepool", unnamed, 0, lang)
    assert lines[0].replace(unnamed, "unnamed_duel") == first


def test_play_when_the_bundle_plays_the_second_side() -> None:
    assert opening_lines("ose", "goblin_duel", 1, "en")[0] == \
        "goblin_duel (ose): you play goblins (Snikkit); the bundle goblin-bundle plays adventurers (Brannoc)."


# ----- npc-tactics replay ----------------------------------------------------------------------------------------
@pytest.mark.parametrize(("lang", "head", "end"), [
    ("en", ["Goblins: Snikkit; played by by-the-book (side 0 in --agents).",
            "Adventurers: Brannoc; played by random (side 1 in --agents)."], r"(goblins|adventurers) (won|lost)"),
    ("fr", ["Goblins : Snikkit ; joué par by-the-book (camp 0 dans --agents).",
            "Adventurers : Brannoc ; joué par random (camp 1 dans --agents)."],
     r"(victoire|défaite) pour (goblins|adventurers)"),
])
def test_replay_calls_the_sides_by_name(lang: str, head: list[str], end: str) -> None:
    import re

    story = replay(get_system("ose"), "goblin_duel", ["by-the-book", "random"], 3, lang)
    assert [line.text for line in story.lines[:2]] == head
    assert re.search(end, story.lines[-1].text), story.lines[-1].text
    text = re.sub(r"\((side|camp) \d (in|dans) --agents\)", "", story.text(verbose=True))
    assert not re.search(r"\b(side|camp) \d", text)  # the rolls and the end by name too


def test_replay_names_unnamed_sides_after_their_members(unnamed: str) -> None:
    story = replay(get_system("dicepool"), unnamed, ["by-the-book", "by-the-book"], 1, "en")
    assert [line.text for line in story.lines[:2]] == [
        "Kesh's side: Kesh; played by by-the-book (side 0 in --agents).",
        "The side of Varo and Gorak: Varo, Gorak; played by by-the-book (side 1 in --agents).",
    ]
    assert "Kesh's side" in story.lines[-1].text and "the side of Varo and Gorak" in story.lines[-1].text


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_play_status_block_names_the_sides(lang: str) -> None:
    """'s' shows the fight: each combatant's line says its side by name ("[0] Snikkit (goblins): ...")."""
    lines: list[str] = []
    answers = iter(["s"])

    def ask(prompt: str) -> str:
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None

    table = Table(Arena.build("ose", "goblin_duel"), FirstMove(0), Path("goblin-bundle"), lang=lang, dice="auto",
                  seed=3, ask=ask, say=lines.append)
    with pytest.raises(Quit):
        table.run()
    status = [line for text in lines for line in text.split("\n") if line.startswith("[")]
    assert status and all("(goblins)" in line or "(adventurers)" in line for line in status), status
