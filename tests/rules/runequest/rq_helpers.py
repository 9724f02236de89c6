"""Shared helpers of the RuneQuest tests: build small fights from bestiary templates and play named
actions."""

from __future__ import annotations

from typing import Any

from npc_tactics.dice import ScriptedRoller
from npc_tactics.rules.base import Event
from npc_tactics.systems.runequest.rules.engine import RuneQuestEngine
from npc_tactics.systems.runequest.rules.state import RQState


def fight(
    side0: list[dict[str, Any]],
    side1: list[dict[str, Any]],
    distance: float = 1,
    options: dict[str, Any] | None = None,
    max_rounds: int = 20,
) -> tuple[RuneQuestEngine, RQState]:
    """A fight of the given combatant entries; no dice are rolled before the first decision."""
    eng = RuneQuestEngine(options)
    scen = {
        "name": "t",
        "max_rounds": max_rounds,
        "distance": distance,
        "sides": [{"name": "a", "combatants": side0}, {"name": "b", "combatants": side1}],
    }
    return eng, eng.new_combat(scen, ScriptedRoller([]))[0]


def play(
    eng: RuneQuestEngine, s: RQState, dice: list[int], *actions: str
) -> tuple[list[Event], ScriptedRoller]:
    """Step the named actions in order with forced ``dice``; return all events and the roller."""
    roller = ScriptedRoller(dice)
    events: list[Event] = []
    for name in actions:
        _, ev = eng.step(s, eng.catalogue.index(name), roller, inplace=True)
        events.extend(ev)
    return events, roller


def kinds(events: list[Event], kind: str) -> list[Event]:
    return [e for e in events if e.kind == kind]
