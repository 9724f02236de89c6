"""What a rules system adds to the tactics card: :class:`CardHooks`, one object per system (its ``card.py``).

The card's shared code knows the features every system has (decision kinds, hit points, who is standing) and the
plain moves of any fight; a system's package brings the rest: what else a GM sees at its table, its own moves
in words, which of them leave the fight, and its morale rule. A system without hooks gets the shared ones only.
The registry's ``card`` hook (:meth:`npc_tactics.plugin.System.card_hooks`) is resolved by :func:`hooks_for`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # types only: card_features imports this module
    from npc_tactics.plugin import System
    from npc_tactics.policy_io.card_features import Feature

__all__ = ["CardHooks", "hooks_for"]


@dataclass(frozen=True)
class CardHooks:
    """One system's part of the tactics card. Strings are marked ``N_`` (gettext domain ``card``)."""

    #: the features a GM can see beyond the shared ones (a callable building them, or the list itself)
    features: Callable[[], Sequence[Feature]] | Sequence[Feature] = ()
    #: move phrases of the system's own catalogue verbs ({target}, {weapon}, {spell}, {n}, {location}; a
    #: ``verb+w`` key is the phrase when the move names a weapon by number)
    verbs: Mapping[str, str] = field(default_factory=dict)
    #: words inside its moves: spells, locations, postures, distances
    words: Mapping[str, str] = field(default_factory=dict)
    #: its own verbs that leave the fight or break contact (the card's learned exit), beyond the shared ones
    exit_verbs: frozenset[str] = frozenset()
    #: verbs whose number is a quantity printed as is (magic points, dice), not a 0-based weapon or location
    counted: frozenset[str] = frozenset()
    #: the system's own morale rule, printed next to the learned exit ("": none printed)
    morale_note: str = ""

    def feature_list(self) -> list[Feature]:
        """The system's own features, in declaration order (a fresh list)."""
        return list(self.features() if callable(self.features) else self.features)


def hooks_for(system: System) -> CardHooks | None:
    """The card hooks of ``system`` (None when it has none)."""
    return system.card_hooks()
