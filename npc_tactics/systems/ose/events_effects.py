"""The event kinds of monster abilities and attack effects (``rules/effects.py``), added to :data:`.events.EVENTS`."""

from __future__ import annotations

from npc_tactics.rules.base import Event
from npc_tactics.rules.events import EventKind

__all__ = ["EFFECT_EVENTS", "EFFECT_EXAMPLES"]

_EFFECT = (str, "paralysis, poison, petrification, energy drain, disease, blood drain, charm, constriction, hold, "
                "swallow (rules/holds.py); breath (a breath weapon's save); gaze_petrification, gaze_paralysis, "
                "gaze_charm (a gaze's or a song's save)")

EFFECT_EVENTS: list[EventKind] = [
    EventKind("effect", "An attack effect on the creature it hit: its saving throw, or why it is unaffected.", {
        "effect": _EFFECT,
        "result": (str, "saved, failed, affected (no save), unaffected (immune or spared; swallow: too big), "
                        "drains (a latched blood-drainer's unrolled bite), held (held fast or coiled round), "
                        "squeezes (a constrictor's automatic damage), automatic (a strike at a victim held fast "
                        "since an earlier round: no attack roll), swallowed, digests (damage inside a swallower), "
                        "released (the swallower is out), averted or mirror (a petrifying gaze not met: option "
                        "avert_gaze)"),
        "roll": (int, "the d20 of the saving throw"),
        "need": (int, "the saving throw"),
        "save": (str, "the saving throw's category: death, wands, paralysis, breath or spells"),
    }, optional={"roll", "need", "save"}, rare="needs a monster whose attacks carry effects (ghoul, wight ...)"),
    EventKind("drain", "Energy drain: the victim loses a level (or Hit Die) and its hit points.", {
        "level": (int, "the level (or Hit Dice) left; 0 when drained of all"),
        "lost": (int, "hit points lost with the level"),
        "max_hp": (int, "maximum hit points now"),
        "hp": (int, "hit points now"),
        "result": (str, "drained or slain"),
    }, rare="needs a level-draining monster (wight, wraith ...)"),
    EventKind("unharmed", "A hit by a weapon that cannot harm the creature (only silver or magic weapons do).", {
        "needs": (str, "silver or magic"),
        "result": (str, "no_damage"),
    }, rare="needs a creature harmed only by silver or magic weapons"),
    EventKind("resist", "Damage of a kind the creature is immune to, or takes half from.", {
        "damage_kind": (str, "fire, cold, lightning, acid, gas or poison"),
        "result": (str, "immune or halved"),
        "amount": (int, "the damage it still takes"),
    }, rare="needs damage of a kind a creature resists"),
    EventKind("breath", "A breath weapon instead of the routine: its damage and how many it takes.", {
        "breath": (str, "fire, cold, acid, gas, lightning or petrification"),
        "damage": (int, "the damage before saves (the breather's hit points, or rolled)"),
        "count": (int, "creatures in the area"),
        "result": (str, "breathed"),
    }, rare="needs a breathing monster (dragon, hellhound, gorgon)"),
    EventKind("regenerate", "A regenerating creature regains hit points at the end of the round.", {
        "amount": (int, "hit points regained"),
        "hp": (int, "hit points now"),
        "result": (str, "regenerated"),
    }, rare="needs a regenerating monster (troll)"),
]

#: one event per rare kind (the shipped scenarios have no ghoul, wight, troll or dragon), for the conformance test
EFFECT_EXAMPLES: tuple[Event, ...] = (
    Event("effect", 2, 0, 1, {"effect": "paralysis", "result": "failed", "roll": 3, "need": 14, "save": "paralysis"}),
    Event("effect", 2, 0, 1, {"effect": "paralysis", "result": "unaffected"}),
    Event("effect", 2, 0, 1, {"effect": "blood drain", "result": "drains"}),
    Event("effect", 2, 0, 1, {"effect": "gaze_petrification", "result": "averted"}),
    Event("effect", 2, 0, 1, {"effect": "gaze_petrification", "result": "mirror"}),
    Event("effect", 2, 0, 1, {"effect": "constriction", "result": "held"}),
    Event("effect", 2, 0, 1, {"effect": "hold", "result": "held"}),
    Event("effect", 3, 0, 1, {"effect": "constriction", "result": "squeezes"}),
    Event("effect", 3, 0, 1, {"effect": "hold", "result": "automatic"}),
    Event("effect", 2, 0, 1, {"effect": "swallow", "result": "swallowed"}),
    Event("effect", 2, 0, 1, {"effect": "swallow", "result": "unaffected"}),
    Event("effect", 2, 0, 1, {"effect": "swallow", "result": "digests"}),
    Event("effect", 4, 0, 1, {"effect": "swallow", "result": "released"}),
    Event("damage", 2, 0, 1, {"amount": 5, "rolled": 5, "hp": 3, "cause": "constriction"}),
    Event("damage", 2, 0, 1, {"amount": 9, "rolled": 9, "hp": 0, "cause": "digestion"}),
    Event("status", 2, 1, None, {"status": "incapacitated", "cause": "swallowed", "result": "incapacitated"}),
    Event("status", 4, 1, None, {"status": "active", "cause": "released", "result": "active"}),
    Event("drain", 2, 0, 1, {"level": 2, "lost": 5, "max_hp": 10, "hp": 8, "result": "drained"}),
    Event("drain", 2, 0, 1, {"level": 0, "lost": 3, "max_hp": 0, "hp": 0, "result": "slain"}),
    Event("unharmed", 2, 1, 0, {"needs": "silver", "result": "no_damage"}),
    Event("resist", 2, 1, 0, {"damage_kind": "fire", "result": "halved", "amount": 7}),
    Event("regenerate", 4, 0, None, {"amount": 3, "hp": 25, "result": "regenerated"}),
    Event("breath", 1, 0, 1, {"breath": "fire", "damage": 45, "count": 2, "result": "breathed"}),
    Event("status", 6, 0, None, {"status": "active", "cause": "regeneration", "result": "active"}),
)
