"""The event kinds of the OSE spells beyond the first four (``rules/spells*.py``, ``rules/conditions.py``), added
to :data:`.events.EVENTS`. Their spells are in no shipped scenario, so random fights never produce them."""

from __future__ import annotations

from npc_tactics.rules.base import Event
from npc_tactics.rules.events import EventKind

__all__ = ["SPELL_EVENTS", "SPELL_EXAMPLES"]

_RARE = "no shipped scenario memorises the spells added in issue 26"
_SPELL = (str, "spell id (rules/tables.py SPELLS)")

SPELL_EVENTS: list[EventKind] = [
    EventKind("condition", "A lasting spell effect begins on a combatant (the actor), ends, is broken or takes a "
              "blow (a mirror image); the target is its source when it begins.", {
                  "condition": (str, "shield, protection_from_evil, invisible, mirror_image_1..4, blind, webbed, "
                                     "fainted, haste, bless, striking, silenced or silence_at:<square>"),
                  "result": (str, "begins, ends (ran out), broken (invisibility: it attacked or cast) or "
                                  "absorbed (a mirror image took an attack and vanished)"),
                  "rounds": (int, "rounds it lasts when it begins (-1: the whole fight); 0 otherwise"),
              }, rare=_RARE),
    EventKind("area", "An area spell takes effect around its target: how many creatures it catches.", {
        "spell": _SPELL,
        "count": (int, "creatures caught (or picked: Haste, Bless)"),
        "result": (str, "caught or empty"),
    }, rare=_RARE),
    EventKind("touch_attack", "The touch attack roll of Cause Light Wounds.", {
        "result": (str, "hit, miss, natural_1 or natural_20"),
        "roll": (int, "the d20"),
        "total": (int, "the d20 with the modifiers"),
        "need": (int, "the total needed"),
    }, rare=_RARE),
    EventKind("spell_unaffected", "A spell has no hold on its target (not a person, immune).", {
        "spell": _SPELL,
        "result": (str, "unaffected"),
    }, rare=_RARE),
    EventKind("spell_blocked", "A declared spell cannot be spoken (a Silence fell on the caster first); it stays "
              "in memory.", {
                  "spell": _SPELL,
                  "cause": (str, "silence"),
                  "result": (str, "not_cast"),
              }, rare=_RARE),
]

#: one event per kind (and result) the shipped fights never produce, for the conformance test
SPELL_EXAMPLES: tuple[Event, ...] = (
    Event("condition", 1, 0, 1, {"condition": "shield", "result": "begins", "rounds": 20}),
    Event("condition", 1, 0, 1, {"condition": "invisible", "result": "begins", "rounds": -1}),
    Event("condition", 1, 0, None, {"condition": "mirror_image_2", "result": "absorbed", "rounds": 0}),
    Event("condition", 1, 0, None, {"condition": "invisible", "result": "broken", "rounds": 0}),
    Event("condition", 1, 0, None, {"condition": "webbed", "result": "ends", "rounds": 0}),
    Event("condition", 1, 0, 1, {"condition": "silence_at:10", "result": "begins", "rounds": 120}),
    Event("condition", 1, 0, None, {"condition": "silence_at:10", "result": "ends", "rounds": 0}),
    Event("area", 1, 0, 1, {"spell": "fire_ball", "count": 3, "result": "caught"}),
    Event("area", 1, 0, 1, {"spell": "haste", "count": 0, "result": "empty"}),
    Event("touch_attack", 1, 0, 1, {"result": "hit", "roll": 15, "total": 15, "need": 13}),
    Event("spell_unaffected", 1, 0, 1, {"spell": "charm_person", "result": "unaffected"}),
    Event("spell_blocked", 1, 1, 0, {"spell": "sleep", "cause": "silence", "result": "not_cast"}),
)
