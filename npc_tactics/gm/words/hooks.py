"""The words hook of a rules system: what the GM's words need from it, in one typed object.

Each system package exports ``WORDS = SystemWords(...)`` in its ``words.py`` (the plugin's ``words`` hook,
:meth:`~npc_tactics.plugin.System.system_words`): how to name its moves (:mod:`~npc_tactics.gm.words.naming`),
the sentence of each event kind it emits (:mod:`~npc_tactics.gm.words.narrate`; the kinds are declared in its
``events.py``), its line per combatant in the situation summary (:mod:`~npc_tactics.gm.words.summary`) and
which events only repeat what the story has just told (shown in verbose mode only by replay and not at all by
``play``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from npc_tactics.gm.words.naming import Words
from npc_tactics.gm.words.narrate import Sentence
from npc_tactics.gm.words.summary import Tr
from npc_tactics.rules.base import ActionSpec

__all__ = ["Details", "Label", "SystemWords"]

#: ``label(spec, words) -> str``: a catalogue entry named for the actor of ``words`` ("shoot Brannoc with ...")
Label = Callable[[ActionSpec, Words], str]
#: ``details(state, i, _, lang) -> [str]``: combatant ``i``'s hit points, place and weapon, in the system's terms
#: (``_`` translates the words, ``lang`` writes the numbers: ``1,5 m`` in French)
Details = Callable[[Any, int, Tr, str], list[str]]


@dataclass(frozen=True)
class SystemWords:
    """One system's words: move labels, event sentences, summary details and the event kinds that echo."""

    label: Label
    sentences: Mapping[str, Sentence]
    details: Details
    echoes: frozenset[str] = frozenset()  #: kinds repeating a choice or a line just told (verbose only)

    def __post_init__(self) -> None:
        object.__setattr__(self, "sentences", MappingProxyType(dict(self.sentences)))
        object.__setattr__(self, "echoes", frozenset(self.echoes))
