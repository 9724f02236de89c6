"""Game-master tools: ``suggest(situation)`` ranks the acting NPC's legal moves with a trained policy."""

from npc_tactics.gm.advice.suggest import Suggestion, suggest

__all__ = ["Suggestion", "suggest"]
