"""The play loop in-process, every system: typed moves, typed dice checked against the die the rules ask for
(and why), the NPC's card rule, bad answers asked again, quitting, bad arguments, the French catalogue."""

from __future__ import annotations

import gettext
import itertools
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from npc_tactics.dice import ScriptedRoller
from npc_tactics.errors import UserError
from npc_tactics.evaluation.arena import Arena
from npc_tactics.gm.table import play as play_mod
from npc_tactics.gm.table.dice import TypedDiceRoller
from npc_tactics.gm.table.play import Table, play
from npc_tactics.registry import available_systems
from npc_tactics.rules.base import EventSink
from tests.gm.play_catalogue import PO, messages, plurals


class UniformNPC:
    """Stands in for a bundle agent: equal probability on every legal move (the loop takes the first)."""

    def __init__(self, side: int) -> None:
        self.side = side
        self.warnings: list[str] = []

    def action_probabilities(self, vector: np.ndarray, mask: np.ndarray) -> np.ndarray:
        return np.asarray(mask, dtype=float) / float(np.sum(mask))


def answers(*items: str, then: str | None = None) -> Any:
    queue: Iterator[str] = iter(items)

    def ask(prompt: str) -> str:
        asked.append(prompt)
        try:
            return next(queue)
        except StopIteration:
            if then is None:
                raise EOFError from None
            return then

    asked: list[str] = []
    ask.asked = asked  # type: ignore[attr-defined]
    return ask


@pytest.mark.parametrize("system", sorted(available_systems()))
def test_a_whole_fight_every_system(system: str) -> None:
    arena = Arena.build(system)
    lines: list[str] = []
    ask = answers("nonsense", "0", then="1")
    table = Table(arena, UniformNPC(0), Path("no-bundle"), lang="en", dice="auto", seed=1, ask=ask, say=lines.append)
    result = table.run()
    text = "\n".join(lines)
    assert result["result"] in {"win", "loss", "draw", "fled"}
    assert "End of the fight after" in text and "(NPC) chooses:" in text
    assert "Please type a number from 1 to" in text  # "nonsense" and "0" were asked again
    assert any(p.startswith("Your move for ") for p in ask.asked)


@pytest.mark.parametrize("system", sorted(available_systems()))
def test_typed_dice_every_system_are_the_dice_the_engine_uses(system: str) -> None:
    """The faces a person types are exactly the engine's dice: replaying them as forced rolls (ScriptedRoller)
    with the same choices asks for the same dice, uses every face, and ends in the same fight."""
    arena = Arena.build(system)
    faces = itertools.cycle([3, 5, 2, 6, 1, 4, 2])

    def ask(prompt: str) -> str:
        if prompt.startswith("Roll a d"):
            sides = int(re.match(r"Roll a d(\d+)", prompt).group(1))  # type: ignore[union-attr]
            return str(min(next(faces), sides))
        return "1"

    typed_table = Table(arena, UniformNPC(0), Path("b"), lang="en", dice="manual", seed=0, ask=ask,
                        say=lambda line: None)
    typed_result = typed_table.run()
    assert isinstance(typed_table.roller, TypedDiceRoller)
    typed = typed_table.roller.typed
    assert typed
    forced = ScriptedRoller([f for _s, f in typed])
    replay = Table(arena, UniformNPC(0), Path("b"), lang="en", dice="auto", seed=0, ask=lambda p: "1",
                   say=lambda line: None)
    replay.roller = forced
    assert replay.run() == typed_result
    assert forced.asked == [s for s, _f in typed] and forced.remaining == 0
    assert arena.engine.describe(replay.state) == arena.engine.describe(typed_table.state)


def test_an_impossible_face_is_refused_and_asked_again() -> None:
    lines: list[str] = []
    roller = TypedDiceRoller(answers("7", "x", "0", "6"), lines.append, lambda s: s)
    roller.names = ["Snikkit"]
    roller.announce("attack", "d6", 0, None)
    assert roller.die(6) == 6
    assert lines == ["7 is impossible on a d6: type a face from 1 to 6.",
                     "'x' is not a number: type the face you rolled, from 1 to 6.",
                     "0 is impossible on a d6: type a face from 1 to 6."]


def test_the_rules_announce_each_roll_before_it_is_made() -> None:
    lines: list[str] = []
    ask = answers("2", "5", "11")
    roller = TypedDiceRoller(ask, lines.append, lambda s: s)
    roller.names = ["Snikkit", "Brannoc"]
    sink = EventSink(roller, 1)
    assert sink.roll("2d6+1", "damage", actor=1).total == 8
    assert sink.die(20, "attack", actor=0) == 11
    assert ask.asked == ["Roll a d6 for damage by Brannoc (die 1 of 2) [1-6]: ",
                         "Roll a d6 for damage by Brannoc (die 2 of 2) [1-6]: ",
                         "Roll a d20 for attack by Snikkit [1-20]: "]
    assert [e.data["faces"] for e in sink.events] == [[2, 5], [11]]


def test_the_npc_choice_shows_the_card_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    def fake_rule(bundle: str, system: str, engine: Any, state: Any, decision: Any, lang: str) -> dict[str, Any]:
        return {"text": "IF wounded THEN withdraw", "action": "move_away", "probability": 0.9, "fires": 0.2}

    monkeypatch.setattr(play_mod, "card_rule", fake_rule)
    lines: list[str] = []
    table = Table(Arena.build("ose"), UniformNPC(0), Path("b"), lang="en", dice="auto", seed=1,
                  ask=answers(then="1"), say=lines.append)
    table.run()
    npc = [i for i, line in enumerate(lines) if "(NPC) chooses:" in line]
    assert npc and all(lines[i + 1] == "  tactics card: IF wounded THEN withdraw" for i in npc)


def test_quit_and_end_of_input_stop_cleanly() -> None:
    for ask in (answers("q"), answers()):
        lines: list[str] = []
        table = Table(Arena.build("ose"), UniformNPC(0), Path("b"), lang="en", dice="auto", seed=3, ask=ask,
                      say=lines.append)
        with pytest.raises(play_mod.Quit):
            table.run()


def test_bad_arguments_are_user_errors(tmp_path: Path) -> None:
    with pytest.raises(UserError, match="bundle folder not found"):
        play("ose", "goblin_duel", tmp_path / "nope", ask=answers(), say=print)
    with pytest.raises(UserError, match="--dice"):
        play("ose", "goblin_duel", tmp_path, dice="loaded", ask=answers(), say=print)
    with pytest.raises(UserError, match="language"):
        play("ose", "goblin_duel", tmp_path, lang="de", ask=answers(), say=print)


def test_every_message_has_a_french_translation_and_the_mo_is_the_po() -> None:
    po = PO.read_text(encoding="utf-8")
    catalogue = gettext.GNUTranslations(PO.with_suffix(".mo").open("rb"))
    for message in messages():
        assert catalogue.gettext(message) != message or message == "=== Round {n} ===", \
            message
        assert message.replace('"', '\\"') in po
    parsed = catalogue._catalog  # type: ignore[attr-defined]
    assert {k for k in parsed if k and isinstance(k, str)} == set(messages())
    # each count's sentence has its two French forms ("1 partie jouée", "2 parties jouées")
    assert {k for k in parsed if isinstance(k, tuple)} == {(one, i) for one, _many in plurals() for i in (0, 1)}
    assert plurals()
    for message in messages():  # the same placeholders in both languages
        fr = catalogue.gettext(message)
        assert sorted(re.findall(r"\{[^}]*\}", fr)) == sorted(
            re.findall(r"\{[^}]*\}", message)), message
    for one, many in plurals():
        assert one.replace('"', '\\"') in po and many.replace('"', '\\"') in po
        for n in (1, 2):
            fr = catalogue.ngettext(one, many, n)
            assert fr not in (one, many)
            assert sorted(re.findall(r"\{[^}]*\}", fr)) == sorted(re.findall(r"\{[^}]*\}", many)), (one, n)


def test_docs_page_describes_every_option_and_command() -> None:
    import inspect

    from npc_tactics.cli import main as cli

    page = (Path(cli.__file__).resolve().parents[2] / "docs" / "play.md").read_text(encoding="utf-8")
    options = [f"--{name}" for name in inspect.signature(cli.play).parameters if name not in {"system", "scenario"}]
    assert options == ["--bundle", "--lang", "--seed", "--dice", "--think", "--playouts", "--bestiary"]
    for word in [*options, "`s`", "`?`", "`q`", "Ctrl-D", "exit 130", "exit 2"]:
        assert word in page, word
