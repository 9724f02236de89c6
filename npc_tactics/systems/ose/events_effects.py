"""The event kinds of monster abilities and attack effects (``rules/effects.py``), added to :data:`.events.EVENTS`."""

from __future__ import annotations

from npc_tactics.rules.events import EventKind

__all__ = ["EFFECT_EVENTS"]

EFFECT_EVENTS: list[EventKind] = []
