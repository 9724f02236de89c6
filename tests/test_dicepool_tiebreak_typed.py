"""Dice-pool tie-breaks with dice a person types (dice-pool.md §3.1: same rank and COORDINATION, one die each, the
highest acts first, equal faces roll again).

Two duelists of one template (melee_duel: Kesh, side 0, and Varo, side 1) whose 7 initiative dice all show 4 get
7 successes each, so they are tied at rank 7 *and* at rank 5::

    rank 7: Kesh ~ Varo   (same COORDINATION)  -> one die each
    rank 5: Kesh ~ Varo   (same COORDINATION)  -> one die each again: a new tie, not a re-roll

Typed, both prompts used to read "Roll a d6 for tie break by Kesh", and equal faces asked the very same prompt
again with nothing said: the tie-break seemed to loop. Now every prompt says whose die, against whom, at which
rank, and "tie-break re-roll" after equal faces, which a line announces ("Kesh and Varo tied on 3"). The rules'
dice and events are those of the recursive tie-break they replace (engine-rolled fights stay byte-identical), and
a roller that shows one face forever can no longer overflow Python's stack or loop.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from npc_tactics.dice import Roller, ScriptedRoller
from npc_tactics.evaluation.arena import Arena
from npc_tactics.gm.table.dice import Tie, TypedDiceRoller, and_list, tie_words
from npc_tactics.gm.table.play import Quit, Table
from npc_tactics.gm.table.tracker import Fight, SideSpec
from npc_tactics.i18n import translator
from npc_tactics.rules.base import EventSink
from npc_tactics.systems.dicepool.rules.pool import MAX_TIE_REROLLS, order_slots, tie_break

KESH, VARO = 0, 1
NAMES = ["Kesh", "Varo"]


def recursive_tie_break(members: list[int], sink: EventSink) -> list[int]:
    """The tie-break as it was (recursive): the reference for the dice it rolls and the order it gives."""
    faces = {m: sink.die(6, "tie_break", m) for m in members}
    out: list[int] = []
    for face in sorted(set(faces.values()), reverse=True):
        group = [m for m in members if faces[m] == face]
        out.extend(group if len(group) == 1 else recursive_tie_break(group, sink))
    return out


class OneFace(Roller):
    """Shows ``face`` every time (a person typing the same face on purpose)."""

    def __init__(self, face: int = 3) -> None:
        self.face = face
        self.rolled = 0

    def die(self, sides: int) -> int:
        self.rolled += 1
        return self.face


class Listener(Roller):
    """Forced faces, and every ``announce_tie`` the rules make (a Roller around a ScriptedRoller: the compiled
    ScriptedRoller takes no interpreted subclass)."""

    def __init__(self, faces: list[int]) -> None:
        self.script = ScriptedRoller(faces)
        self.ties: list[tuple[list[int], int, int, int]] = []

    def die(self, sides: int) -> int:
        return self.script.die(sides)

    def announce_tie(self, members: list[int], rank: int, rerolls: int, face: int) -> None:
        self.ties.append((list(members), rank, rerolls, face))


# ----- the rules: same dice, same order, same events; bounded ---------------------------------------------------
@pytest.mark.parametrize("size", [2, 3, 4, 6])
def test_the_loop_rolls_the_dice_of_the_recursion_and_gives_its_order(size: int) -> None:
    """Few-sided dice make long chains of ties: every seed gives the same order, dice and events both ways."""
    for seed in range(300):
        faces = [int(f) for f in np.random.default_rng([seed, size]).integers(1, 3, 400)]
        old, new = EventSink(ScriptedRoller(faces), 1), EventSink(ScriptedRoller(faces), 1)
        members = list(range(size))
        assert tie_break(members, new, 5) == recursive_tie_break(members, old)
        assert [e.to_dict() for e in new.events] == [e.to_dict() for e in old.events]


def test_an_announcing_roller_changes_no_die_and_no_event() -> None:
    faces = [3, 3, 3, 3, 5, 2]
    plain, told = EventSink(ScriptedRoller(faces), 1), EventSink(Listener(faces), 1)
    assert order_slots([(7, 0), (7, 1)], [4, 4], plain) == order_slots([(7, 0), (7, 1)], [4, 4], told) == \
        [(7, 0), (7, 1)]
    assert [e.to_dict() for e in plain.events] == [e.to_dict() for e in told.events]
    assert told.roller.ties == [([0, 1], 7, 0, 0), ([0, 1], 7, 1, 3), ([0, 1], 7, 2, 3)]  # type: ignore[attr-defined]


def test_who_is_told_in_a_three_way_tie() -> None:
    # A=0, B=1, C=2 tied at rank 5: A 4, B 4, C 6 -> C first; A and B tied on 4 roll again: 1, 2 -> B, A
    roller = Listener([4, 4, 6, 1, 2])
    assert tie_break([0, 1, 2], EventSink(roller), 5) == [2, 1, 0]
    assert roller.ties == [([0, 1, 2], 5, 0, 0), ([0, 1], 5, 1, 4)]


def test_one_face_forever_ends_after_the_bound_in_index_order() -> None:
    """Was a RecursionError after about 1,000 dice (pure Python); now MAX_TIE_REROLLS re-rolls, then index order."""
    roller = OneFace()
    assert tie_break([1, 0, 2], EventSink(roller), 5) == [1, 0, 2]  # the order it was given
    assert roller.rolled == 3 * (MAX_TIE_REROLLS + 1)
    assert 6.0 ** -MAX_TIE_REROLLS < 1e-30  # never reached by rolled dice


# ----- the words -------------------------------------------------------------------------------------------------
def test_tie_words() -> None:
    same: Callable[[str], str] = lambda s: s  # noqa: E731
    assert and_list(same, ["Kesh"]) == "Kesh"
    assert and_list(same, ["Kesh", "Varo", "Gorak"]) == "Kesh, Varo and Gorak"
    assert tie_words(same, Tie((0, 1), 7), 0, NAMES) == ("tie-break", "(against Varo, rank 7)")
    assert tie_words(same, Tie((0, 1), 7, 2, 3), 1, NAMES) == ("tie-break re-roll", "(tied with Kesh on 3, rank 7)")
    fr = translator("fr", "play")
    assert tie_words(fr, Tie((0, 1, 2), 5), 0, [*NAMES, "Gorak"]) == ("départage", "(contre Varo et Gorak, rang 5)")
    assert tie_words(fr, Tie((0, 1), 7, 1, 3), 1, NAMES) == ("relance de départage",
                                                             "(à égalité avec Kesh sur 3, rang 7)")


# ----- npc-tactics play --dice manual ---------------------------------------------------------------------------
class FirstMove:
    """Stands in for a bundle agent: its first legal move."""

    side = 0
    warnings: list[str] = []

    def action_probabilities(self, vector: np.ndarray, mask: np.ndarray) -> np.ndarray:
        return np.asarray(mask, dtype=float)


def typed_ties(tie_faces: list[int], *, then: str = "stop") -> tuple[list[str], list[str], Table]:
    """melee_duel with typed dice: 4 on every initiative die, ``tie_faces`` in turn on the tie-break dice (then
    ``then``: "stop" ends at the first decision, "3" types 3 forever); returns (prompts, lines said, table)."""
    asked: list[str] = []
    lines: list[str] = []
    faces = iter(tie_faces)

    def ask(prompt: str) -> str:
        asked.append(prompt)
        if "initiative" in prompt:
            return "4"
        if "tie-break" in prompt or "tie break" in prompt:
            face = next(faces, None)
            if face is None:
                if then == "stop":
                    raise EOFError
                return then
            return str(face)
        raise EOFError  # the first decision: the opening is done

    table = Table(Arena.build("dicepool", "melee_duel"), FirstMove(), Path("b"), lang="en", dice="manual", seed=0,
                  ask=ask, say=lines.append)
    with pytest.raises(Quit):
        table.run()
    return [p for p in asked if "initiative" not in p], lines, table


def test_typed_tie_break_prompts_say_whose_die_and_why_and_the_fight_goes_on() -> None:
    # rank 7: 3-3 (tied), 3-3 (tied again), 5-2 (Kesh first); rank 5: 2-6 (Varo first)
    prompts, lines, table = typed_ties([3, 3, 3, 3, 5, 2, 2, 6])
    assert prompts[:8] == [
        "Roll a d6 for tie-break by Kesh (against Varo, rank 7) [1-6]: ",
        "Roll a d6 for tie-break by Varo (against Kesh, rank 7) [1-6]: ",
        "Roll a d6 for tie-break re-roll by Kesh (tied with Varo on 3, rank 7) [1-6]: ",
        "Roll a d6 for tie-break re-roll by Varo (tied with Kesh on 3, rank 7) [1-6]: ",
        "Roll a d6 for tie-break re-roll by Kesh (tied with Varo on 3, rank 7) [1-6]: ",
        "Roll a d6 for tie-break re-roll by Varo (tied with Kesh on 3, rank 7) [1-6]: ",
        "Roll a d6 for tie-break by Kesh (against Varo, rank 5) [1-6]: ",
        "Roll a d6 for tie-break by Varo (against Kesh, rank 5) [1-6]: ",
    ]
    assert not [p for p in prompts[8:] if "tie" in p]  # then the fight's first decision, no more tie dice
    said = [line for line in lines if "tied" in line]
    assert said == [
        "Kesh and Varo are tied at rank 7 with the same COORDINATION: one die each, the highest acts first.",
        "Kesh and Varo tied on 3: each rolls again.",
        "Kesh and Varo tied on 3: each rolls again.",
        "Kesh and Varo are tied at rank 5 with the same COORDINATION: one die each, the highest acts first.",
    ]
    assert table.state.queue == [(7, KESH), (7, VARO), (5, VARO), (5, KESH)]  # as the typed faces say


@pytest.mark.parametrize(("faces", "queue"), [([6, 1, 1, 6], [(7, KESH), (7, VARO), (5, VARO), (5, KESH)]),
                                              ([2, 5, 4, 3], [(7, VARO), (7, KESH), (5, KESH), (5, VARO)])])
def test_different_faces_settle_each_tie_at_once(faces: list[int], queue: list[tuple[int, int]]) -> None:
    prompts, lines, table = typed_ties(faces)
    assert sum("tie-break" in p for p in prompts) == 4 and not any("re-roll" in p for p in prompts)
    assert not [line for line in lines if "tied on" in line]
    assert table.state.queue == queue


def test_equal_faces_typed_forever_stop_at_the_bound() -> None:
    prompts, lines, table = typed_ties([], then="3")
    rerolls = [p for p in prompts if "re-roll" in p]
    assert len(rerolls) == 2 * 2 * MAX_TIE_REROLLS  # two dice per re-roll, at rank 7 and at rank 5
    assert sum("tied on 3" in line for line in lines) == 2 * MAX_TIE_REROLLS
    assert table.state.queue == [(7, KESH), (7, VARO), (5, KESH), (5, VARO)]  # index order, and the fight goes on


def test_typed_faces_with_re_rolls_replay_as_the_same_fight() -> None:
    """What was typed, re-rolls included, is exactly the engine's dice: forced back in, the same opening."""
    _prompts, _lines, table = typed_ties([3, 3, 1, 1, 6, 2, 4, 4, 2, 5])
    assert isinstance(table.roller, TypedDiceRoller)
    forced = ScriptedRoller([face for _sides, face in table.roller.typed])
    arena = Arena.build("dicepool", "melee_duel")
    state, _events = arena.engine.new_combat(arena.scenario, forced)
    assert forced.remaining == 0
    assert state.queue == table.state.queue == [(7, KESH), (7, VARO), (5, VARO), (5, KESH)]


def test_engine_rolled_fights_are_those_of_the_recursive_tie_break(monkeypatch: pytest.MonkeyPatch) -> None:
    """``--dice auto``: seeded fights with ties at every shared rank give the same events, roll for roll, as with
    the recursive tie-break (the compiled-equivalence digest, tests/compiled, checks 1,000 fights a system)."""
    from npc_tactics.agents.resolve import agent_factory
    from npc_tactics.systems.dicepool.rules import pool

    arena = Arena.build("dicepool", "melee_duel")
    agents = [agent_factory("dicepool", "by-the-book")] * 2

    def fights() -> list[list[dict[str, Any]]]:
        return [[e.to_dict() for e in arena.fight(agents, seed, keep_events=True).events or []] for seed in range(30)]

    now = fights()
    monkeypatch.setattr(pool, "tie_break", lambda members, sink, rank: recursive_tie_break(members, sink))
    assert fights() == now
    assert sum(e["data"].get("why") == "tie_break" for fight in now for e in fight) > 30


# ----- the tracker (typed dice through StepRoller, each face replaying the step) --------------------------------
def tracker_fight() -> Fight:
    fight = Fight("dicepool", sides=[SideSpec("Brutes", "npc"), SideSpec("Party", "pc")], seed=1, dice="manual")
    fight.add(0, "duelist", name="Kesh")
    fight.add(1, "duelist", name="Varo")
    fight.start()
    return fight


def type_until_decision(fight: Fight, tie_faces: list[int]) -> list[Any]:
    """Type 4 on every initiative die and ``tie_faces`` on the tie-break dice (stopping at the first tie-break die
    past them, or at the first decision); the prompts of the tie-break dice."""
    faces = iter(tie_faces)
    prompts = []
    for _ in range(200):
        if fight.prompt is None:
            break
        if fight.prompt.why == "tie_break":
            prompts.append(fight.prompt)
            face = next(faces, None)
            if face is None:
                break
            fight.type_die(face)
        else:
            fight.type_die(4)
    return prompts


def test_the_tracker_goes_on_after_typed_ties_and_replays_them() -> None:
    from npc_tactics.gm.table.fight_file import fight_from_dict, fight_to_dict

    fight = tracker_fight()
    prompts = type_until_decision(fight, [3, 3, 3, 3, 5, 2, 2])  # stops at Varo's die at rank 5, not typed yet
    assert [(p.actor, p.sides) for p in prompts] == [(KESH, 6), (VARO, 6)] * 4  # the last one waiting
    assert fight.prompt is not None and fight.prompt.actor == VARO
    fight.undo()  # takes back one typed face: Kesh's die at rank 5 is asked again
    assert fight.prompt is not None and fight.prompt.why == "tie_break" and fight.prompt.actor == KESH
    fight.type_die(2)
    fight.type_die(6)
    assert fight.prompt is None and fight.decision is not None
    assert fight.state.queue == [(7, KESH), (7, VARO), (5, VARO), (5, KESH)]
    saved = fight_to_dict(fight)
    again = fight_from_dict(json.loads(json.dumps(saved)))  # the typed history, re-rolls included, from the file
    assert again.state.queue == fight.state.queue and fight_to_dict(again) == saved


def test_the_tracker_prompts_say_against_whom_and_re_roll() -> None:
    from npc_tactics.gm.table.fight_view import die_view

    fight = tracker_fight()
    texts = []
    faces = iter([3, 3, 5, 2, 1, 6])
    for _ in range(200):
        if fight.prompt is None:
            break
        if fight.prompt.why == "tie_break":
            texts.append(die_view(fight, "en")["text"])  # type: ignore[index]
            fight.type_die(next(faces))
        else:
            fight.type_die(4)
    assert texts == [
        "Roll a d6 for tie-break by Kesh (against Varo, rank 7)",
        "Roll a d6 for tie-break by Varo (against Kesh, rank 7)",
        "Roll a d6 for tie-break re-roll by Kesh (tied with Varo on 3, rank 7)",
        "Roll a d6 for tie-break re-roll by Varo (tied with Kesh on 3, rank 7)",
        "Roll a d6 for tie-break by Kesh (against Varo, rank 5)",
        "Roll a d6 for tie-break by Varo (against Kesh, rank 5)",
    ]
    assert not any(re.search(r"\{|\}", t) for t in texts)
