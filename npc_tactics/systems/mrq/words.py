"""Mongoose RuneQuest in a GM's words (the plugin's ``words`` hook): move names (``naming.py``), event sentences
(``narrate.py``, one per kind of ``events.py``), the summary line of a combatant (``summary.py``)."""

from __future__ import annotations

from npc_tactics.gm.words.hooks import SystemWords
from npc_tactics.systems.mrq.naming import label
from npc_tactics.systems.mrq.narrate import SENTENCES
from npc_tactics.systems.mrq.summary import details

__all__ = ["WORDS"]

#: echoes: the special effect picked repeats the choice just told
WORDS = SystemWords(label=label, sentences=SENTENCES, details=details, echoes=frozenset({"special_effect"}))
