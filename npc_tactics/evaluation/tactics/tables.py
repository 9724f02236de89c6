"""The thresholds of the shared tactics (tables as data); each system's attack and leave verbs are in its own
tactics hook (:class:`~npc_tactics.evaluation.tactics.hooks.Tactics`)."""

from __future__ import annotations

#: the HP share at or below which a combatant counts as losing (the retreat measurement)
LOSING_HP = 0.5

#: wound bands of the HP share left when a combatant first chose to leave: (label, low, high), low < share <= high
WOUND_BANDS: tuple[tuple[str, float, float], ...] = (
    ("unhurt (100%)", 0.999999, 1.0),
    ("lightly hurt (50-100%)", 0.5, 0.999999),
    ("badly hurt (25-50%]", 0.25, 0.5),
    ("near down (<=25%)", -1.0, 0.25),
)
