"""Which catalogue verbs mean "attack an enemy" and "leave the fight", per system (tables as data).

Attack verbs are those whose action names an enemy slot and strikes, shoots or casts at it (not ``close`` or
``aim``, which only move or prepare). Leave verbs are the declared or performed ways out of a fight: OSE's
fighting withdrawal and retreat (declared, then moved; ose-bx.md §2, §9), RuneQuest's retreat and flee
(statement of intent, §25), MRQ's withdraw, fall back and disengage (Combat Actions, §20.1) and the dice-pool
``withdraw`` (H6). ``run`` in the dice pool keeps the distance (a posture against shots), so it is no way out.
"""

from __future__ import annotations

ATTACK_VERBS: dict[str, frozenset[str]] = {
    "ose": frozenset({"melee", "shoot", "cast"}),
    "runequest": frozenset({"attack", "aimed", "knockback", "cast"}),
    "mrq": frozenset({"attack", "precise_attack", "double_precise_attack", "charge", "shoot", "entangle_trip"}),
    "dicepool": frozenset({"strike", "shoot"}),
}

LEAVE_VERBS: dict[str, frozenset[str]] = {
    "ose": frozenset({"declare_withdraw", "declare_retreat", "withdraw", "retreat"}),
    "runequest": frozenset({"retreat", "flee"}),
    "mrq": frozenset({"withdraw", "fall_back", "disengage"}),
    "dicepool": frozenset({"withdraw"}),
}

#: the HP share at or below which a combatant counts as losing (the retreat measurement)
LOSING_HP = 0.5

#: wound bands of the HP share left when a combatant first chose to leave: (label, low, high), low < share <= high
WOUND_BANDS: tuple[tuple[str, float, float], ...] = (
    ("unhurt (100%)", 0.999999, 1.0),
    ("lightly hurt (50-100%)", 0.5, 0.999999),
    ("badly hurt (25-50%]", 0.25, 0.5),
    ("near down (<=25%)", -1.0, 0.25),
)
