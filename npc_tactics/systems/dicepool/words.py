"""The dice-pool system in a GM's words (the plugin's ``words`` hook): move names (``naming.py``), event sentences
(``narrate.py``, one per kind of ``events.py``), the summary line of a combatant (``summary.py``)."""

from __future__ import annotations

from npc_tactics.gm.words.hooks import SystemWords
from npc_tactics.systems.dicepool.naming import label
from npc_tactics.systems.dicepool.narrate import SENTENCES
from npc_tactics.systems.dicepool.summary import details

__all__ = ["WORDS"]

#: echoes: the action and the dice split repeat the choice just told
WORDS = SystemWords(label=label, sentences=SENTENCES, details=details, echoes=frozenset({"action", "split"}))
