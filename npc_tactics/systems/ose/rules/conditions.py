"""Lasting effects on a combatant (``Combatant.conditions``: name -> rounds left, -1 until the fight ends) and
what they change in an attack, a save or a casting.

The attack code (:mod:`.combat`) asks these questions on every roll; with no condition on anyone each answer
is the rules' plain value, so a fight without lasting effects plays exactly as before.
"""

from __future__ import annotations

from npc_tactics.rules.base import EventSink
from npc_tactics.systems.ose.rules.state import OSEState

__all__ = ["armour_class", "attack_absorbed", "can_cast", "damage_bonus", "end_of_round", "save_bonus",
           "strikes_per_round", "to_hit_bonus"]


def to_hit_bonus(state: OSEState, ai: int, ti: int, missile: bool) -> int:
    """Modifier to the attack roll of ``ai`` against ``ti`` from conditions on either."""
    return 0


def armour_class(state: OSEState, ti: int, missile: bool) -> int:
    """The descending AC of ``ti`` against this attack (a Shield spell may replace it)."""
    return state.combatants[ti].prof.ac


def damage_bonus(state: OSEState, ai: int) -> int:
    """Extra damage of ``ai``'s weapon attacks."""
    return 0


def attack_absorbed(state: OSEState, sink: EventSink, ai: int, ti: int) -> bool:
    """Whether a hit on ``ti`` is taken by something else (an image of Mirror Image); emits what happens."""
    return False


def strikes_per_round(state: OSEState, i: int) -> int:
    """How many times ``i``'s attack routine is used this round (Haste: twice)."""
    return 1


def can_cast(state: OSEState, i: int) -> bool:
    """Whether ``i`` may declare a spell (not in Silence, not webbed, ...)."""
    return True


def save_bonus(state: OSEState, i: int) -> int:
    """Modifier to ``i``'s saving throws."""
    return 0


def end_of_round(state: OSEState, sink: EventSink) -> None:
    """Count down the conditions at the end of a round; those that run out end (and say so)."""
