"""Sentences of the spell events of :mod:`.events_spells`, and the causes they add (added to :mod:`.narrate`)."""

from __future__ import annotations

from npc_tactics.gm.words.narrate import Sentence

__all__ = ["SPELL_CAUSES", "SPELL_SENTENCES"]

SPELL_SENTENCES: dict[str, Sentence] = {}
#: status and damage causes the spells add (e.g. a spell's id -> its name in the GM's words)
SPELL_CAUSES: dict[str, str] = {}
