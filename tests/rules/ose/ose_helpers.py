"""Shared helpers for the OSE tests: inline scenarios, forced dice, actions by name."""

from __future__ import annotations

from typing import Any

import numpy as np

from npc_tactics.dice import RngRoller, ScriptedRoller
from npc_tactics.rules.base import Event
from npc_tactics.systems.ose.rules.engine import OSEEngine
from npc_tactics.systems.ose.rules.state import OSEState


def scenario(side0: list[dict[str, Any]], side1: list[dict[str, Any]], **kw: Any) -> dict[str, Any]:
    return {"name": "test", "sides": [{"combatants": side0}, {"combatants": side1}], **kw}


class Fight:
    """An engine, a state and a ScriptedRoller fed with forced dice; ``do(name)`` answers the pending decision."""

    def __init__(
        self, sc: dict[str, Any], dice: list[int], options: dict[str, Any] | None = None
    ) -> None:
        self.engine = OSEEngine(options)
        # forced dice first; once spent (the engine runs on to the next decision) random dice follow
        self.roller = ScriptedRoller(dice, then=RngRoller(np.random.default_rng(0)))
        self.state: OSEState
        self.state, opening = self.engine.new_combat(sc, self.roller)
        self.events: list[Event] = list(opening)  # the opening (HP, round 1, its initiative) comes first

    def legal(self) -> list[str]:
        mask = self.engine.legal_mask(self.state)
        return [self.engine.catalogue.name(i) for i in range(len(mask)) if mask[i]]

    def who(self) -> str:
        d = self.engine.pending(self.state)
        return (
            "" if d is None else f"{self.state.combatants[d.actor].name}:{d.context.get('phase')}"
        )

    def do(self, name: str, expect: str | None = None) -> list[Event]:
        if expect is not None:
            assert self.who() == expect, f"pending {self.who()!r}, expected {expect!r}"
        self.state, ev = self.engine.step(
            self.state, self.engine.catalogue.index(name), self.roller, inplace=True
        )
        self.events += ev
        return ev

    def kinds(self, kind: str) -> list[Event]:
        return [e for e in self.events if e.kind == kind]

    def c(self, name: str) -> Any:
        return next(c for c in self.state.combatants if c.name == name)
