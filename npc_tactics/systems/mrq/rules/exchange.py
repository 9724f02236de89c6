"""One attack exchange, from the blow to the last special effect (mrq-opposed.md §2 resolution procedure).

start → (REACT decision of the defender) → both roll D100 → winner and margin → (EFFECT decisions of the
winner, one per effect granted) → damage (weapon roll, Deflection Points, location, armour) → the other
effects in the order chosen → (OPTION: impale leave/pull) → fumbles → done. Acrobatics manoeuvres (A13),
charges (§14) and missiles (§11) reuse it.

This module is the entry point; the work is split by job: ``reactions`` (start and the defender's Reaction),
``roll`` (the opposed roll and the effect picks), ``effects`` (legal effects and what they do),
``resolution`` (damage, lasting effects, impale, fumbles).
"""

from __future__ import annotations

from npc_tactics.systems.mrq.rules.effects import (
    _apply_effect,
    _ensure_damage_roll,
    _from_above,
    damage_passes,
    legal_effects,
)
from npc_tactics.systems.mrq.rules.reactions import answer_react, react_options, start_attack
from npc_tactics.systems.mrq.rules.resolution import answer_impale, finish, pull_free, resolve
from npc_tactics.systems.mrq.rules.roll import answer_effect, next_effect, roll_exchange

__all__ = [
    "_apply_effect",
    "_ensure_damage_roll",
    "_from_above",
    "answer_effect",
    "answer_impale",
    "answer_react",
    "damage_passes",
    "finish",
    "legal_effects",
    "next_effect",
    "pull_free",
    "react_options",
    "resolve",
    "roll_exchange",
    "start_attack",
]
