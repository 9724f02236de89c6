"""``npc-tactics play --think SECONDS / --playouts N``: the NPCs' moves chosen by the decision-time search over the
shipped bundle (by-the-book playing the PCs in its play-outs), every system: a searched fight finishes and is the
same fight for the same seed, ``--think 0`` is today's transcript, a move the search overrules is said so, and bad
settings are one-line errors (exit 2), as for ``suggest``."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from npc_tactics.errors import UserError
from npc_tactics.gm.advice.suggest import shipped_bundle
from npc_tactics.gm.table import play as play_mod
from npc_tactics.gm.table.play import play
from tests.cli_helpers import run_cli

#: a small shipped scenario per system where the NPCs have several decisions with the PCs always answering "1"
SCENARIOS = {"ose": "goblin_duel", "runequest": "parry_duel", "mrq": "spear_vs_sword", "dicepool": "skirmish_2v3"}
CHOOSES = re.compile(r"^(?P<actor>.+) \(NPC\) chooses: (?P<move>.+) \(\d+% by the policy\)\.$")
NOTE = re.compile(r"^  searched (?P<n>\d+) play-outs: (?P<move>.+) instead of the policy's choice, (?P<policy>.+)\.$")


def transcript(system: str, seed: int, **search: float | int) -> tuple[list[str], object]:
    lines: list[str] = []
    result = play(system, SCENARIOS[system], shipped_bundle(system), seed=seed, ask=lambda prompt: "1",
                  say=lines.append, **search)  # type: ignore[arg-type]
    return lines, result


@pytest.mark.parametrize("system", sorted(SCENARIOS))
def test_a_searched_fight_finishes_and_is_the_same_fight_for_the_same_seed(system: str) -> None:
    lines, result = transcript(system, 1, playouts=32)
    assert isinstance(result, dict) and result["result"] in {"win", "loss", "draw", "fled"}
    assert "Search: 32 play-outs per NPC decision (in them, your side plays by the book)." in lines
    assert sum("(NPC) chooses:" in line for line in lines) >= 2
    assert lines[-1].startswith("End of the fight after round")
    for line in lines:  # a note only ever follows the NPC's choice it explains, naming that move
        if NOTE.match(line):
            before = CHOOSES.match(lines[lines.index(line) - 1])
            assert before is not None and before["move"] == NOTE.match(line)["move"]  # type: ignore[index]
    again, _ = transcript(system, 1, playouts=32)
    assert again == lines


@pytest.mark.parametrize("system", sorted(SCENARIOS))
def test_think_0_is_the_network_alone_as_before(system: str) -> None:
    alone, result = transcript(system, 2)
    assert transcript(system, 2, think=0) == (alone, result)
    assert not any(line.startswith("Search:") or NOTE.match(line) for line in alone)
    assert any("(NPC) chooses:" in line for line in alone)


def test_a_move_the_search_overrules_is_said_with_the_policy_s_own() -> None:
    """Some seed of RuneQuest's parry duel has a searched NPC move that is not the network's: the note names both,
    the searched one is played (the line before says so), and the network alone, on the same dice up to there,
    plays the move the note names as the policy's choice."""
    for seed in range(8):
        lines, _ = transcript("runequest", seed, playouts=32)
        notes = [k for k, line in enumerate(lines) if NOTE.match(line)]
        if notes:
            break
    else:
        pytest.fail("no overruled NPC move in 8 searched fights of runequest parry_duel")
    k = notes[0]
    note, chosen = NOTE.match(lines[k]), CHOOSES.match(lines[k - 1])
    assert note is not None and chosen is not None
    assert note["move"] == chosen["move"] != note["policy"]
    assert 1 <= int(note["n"]) <= 32
    alone, _ = transcript("runequest", seed)
    searched = [line for line in lines if not line.startswith("Search:")]
    k -= 2  # the choice overruled, once the "Search:" line is taken out: the network alone has no such line, and
    # everything before the first overrule is the same fight (the search rolls its own dice, never the table's)
    assert alone[:k] == searched[:k]
    network = CHOOSES.match(alone[k])
    assert network is not None and network["actor"] == chosen["actor"] and network["move"] == note["policy"]


def test_a_timed_search_says_its_seconds(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[float | None] = []
    original = play_mod.NpcSearch.choose

    def spy(self: play_mod.NpcSearch, state: object, decision: object) -> tuple[int, int]:
        seen.append(self.think if self.budget is None else None)
        return original(self, state, decision)  # type: ignore[arg-type]

    monkeypatch.setattr(play_mod.NpcSearch, "choose", spy)
    lines, result = transcript("ose", 3, think=0.05)
    assert result is not None and "Search: 0.05 s per NPC decision (in them, your side plays by the book)." in lines
    assert seen and set(seen) == {0.05}


@pytest.mark.parametrize(("kwargs", "words"), [
    ({"think": -1.0}, "think: expected seconds"),
    ({"think": 10_000.0}, "think: expected seconds"),
    ({"think": "2"}, "think: expected seconds"),
    ({"playouts": 0}, "playouts: expected a whole number"),
])
def test_bad_settings_are_user_errors_before_anything_is_asked(kwargs: dict[str, object], words: str) -> None:
    def ask(prompt: str) -> str:
        raise AssertionError("asked before the settings were checked")

    with pytest.raises(UserError, match=words):
        play("ose", "goblin_duel", shipped_bundle("ose"), ask=ask, say=print, **kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize("value", ["-1", "601", "abc"])
def test_the_command_line_refuses_a_bad_think_in_one_line(value: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(["play", "ose", "goblin_duel", "--bundle", str(shipped_bundle("ose")), "--think", value],
                             capsys)
    assert code == 2 and len(err.strip().splitlines()) == 1 and "think" in err, err
    assert "Traceback" not in err and "chooses" not in out


def test_the_command_line_plays_a_searched_fight(monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 400))
    bundle = shipped_bundle("ose")
    code, out, err = run_cli(["play", "ose", "goblin_duel", "--bundle", str(bundle), "--seed", "3", "--playouts",
                              "16"], capsys)
    assert code == 0, err
    assert "Search: 16 play-outs per NPC decision" in out and "End of the fight after round" in out
    help_code, help_out, _ = run_cli(["play", "--help"], capsys)
    assert help_code == 0 and "--think" in help_out and "--playouts" in help_out


def test_docs_describe_the_search_options() -> None:
    page = (Path(play_mod.__file__).resolve().parents[3] / "docs" / "play.md").read_text(encoding="utf-8")
    for word in ("--think SECONDS", "--playouts N", "by-the-book", "Search: 256 play-outs per NPC decision"):
        assert word in page, word
    assert any(NOTE.match(line) for line in page.splitlines())  # the note, as the transcript prints it
