"""Starting wounds and spent resources, applied to a fight's opening state before the first decision.

Each system says how, in its engine's own terms, with a :class:`Wear` on its encounter adapter
(``systems/<name>/wear.py``): which hit points a wound takes, and what a long day uses up (ammunition, spells,
magic points, weapon hit points ...). Wounds never drop anyone out of the fight (every location keeps at least
1 HP, totals stay above each system's unconscious threshold), so the pending decision the engine computed stays
valid: no status changes, nobody moves. This module holds what they share: the hook type, :func:`spread` and
:func:`apply_wear`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from npc_tactics.errors import UserError
from npc_tactics.plugin import System

__all__ = ["Wear", "WearFn", "apply_wear", "spread", "wear_of"]

#: wears one combatant (the engine's own object) by a fraction in [0, 1], its placement drawn from the generator
WearFn = Callable[[Any, float, np.random.Generator], None]


@dataclass(frozen=True)
class Wear:
    """One system's wear hooks (the ``wear`` of its :class:`~npc_tactics.encounters.adapters.Adapter`)."""

    wound: WearFn  #: takes that share of the combatant's max HP, keeping it in the fight
    spend: WearFn  #: uses up that share of its resources
    spent_what: str  #: what "spent" takes, in words (docs/encounters.md)


def spread(loc_left: Sequence[int], amount: int, rng: np.random.Generator) -> list[int]:
    """Damage per location summing to at most ``amount``, each location keeping at least 1 HP."""
    taken = [0] * len(loc_left)
    for _ in range(amount):
        open_ = [i for i, h in enumerate(loc_left) if h - taken[i] > 1]
        if not open_:
            break
        taken[open_[int(rng.integers(len(open_)))]] += 1
    return taken


_spread = spread  # the former private name


def wear_of(system: System) -> Wear:
    """The wear hooks of ``system`` (its encounter adapter's); one with no wear is an error naming it."""
    found = system.encounter_adapter()
    if found is None or found.wear is None:
        raise UserError(f"the {system.name} system has no encounter wear (starting wounds and spent resources)")
    return found.wear


def apply_wear(wear: Wear, combatants: Sequence[Any], wounds: Iterable[tuple[int, float]],
               spent: Iterable[tuple[int, float]], rng: np.random.Generator) -> None:
    """The wounds, then the spent resources, each ``(combatant index, fraction)``, in order, on one stream."""
    for i, f in wounds:
        wear.wound(combatants[i], f, rng)
    for i, f in spent:
        wear.spend(combatants[i], f, rng)
