"""The event kinds of the OSE spells beyond the first four (``rules/spells.py``), added to :data:`.events.EVENTS`."""

from __future__ import annotations

from npc_tactics.rules.events import EventKind

__all__ = ["SPELL_EVENTS"]

SPELL_EVENTS: list[EventKind] = []
