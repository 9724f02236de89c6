"""The events the fake engine emits (``engine.py``), each with its data fields (:mod:`npc_tactics.rules.events`)."""

from __future__ import annotations

from npc_tactics.rules.base import Event
from npc_tactics.rules.events import EventCatalogue, EventKind

__all__ = ["EVENTS", "EXAMPLES"]

EVENTS = EventCatalogue("fake", [
    EventKind("round_start", "A new round begins.", {}),
    EventKind("attack", "An attack roll (d20 against hit_on, +2 against a defender).", {
        "result": (str, "hit, miss, natural_1 or natural_20"),
    }),
    EventKind("damage", "Hit points lost to a hit.", {
        "amount": (int, "hit points lost"),
    }),
    EventKind("death", "A combatant at 0 hit points dies (the target).", {}),
    EventKind("defend", "A combatant defends this round (the actor).", {}),
    EventKind("flee", "A combatant leaves the fight (the actor).", {}),
    EventKind("morale", "A morale check after the side's first death (2d6 <= 8).", {
        "passed": (bool, "it stands; else it flees"),
    }, rare="random fake fights mostly end in flight, seldom with a death beside a standing teammate"),
])

#: one event of each rare kind (and variant), as the engine writes it: what the words tests tell in both
#: languages in place of the fights that never produce it (tests/conformance/test_event_catalogue.py)
EXAMPLES = (
    Event("morale", 2, 1, None, {"passed": True}),
    Event("morale", 2, 1, None, {"passed": False}),
)
