"""Sentences of the attack-effect events of :mod:`.events_effects`, and the causes they add (added to :mod:`.narrate`)."""

from __future__ import annotations

from npc_tactics.gm.words.narrate import Sentence

__all__ = ["EFFECT_CAUSES", "EFFECT_SENTENCES"]

EFFECT_SENTENCES: dict[str, Sentence] = {}
#: status and damage causes the attack effects add (paralysis, poison ...)
EFFECT_CAUSES: dict[str, str] = {}
