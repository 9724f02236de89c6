"""How the encounter builder composes a RuneQuest fight (:class:`~npc_tactics.encounters.adapters.Adapter`):
6 m between the fronts, ranks 2 m apart, the scenario's ``distance`` set, and a combatant's threat as its best
weapon's chance times damage past ~3 AP, against a defender who parries or dodges about half the time."""

from __future__ import annotations

from typing import Any

from npc_tactics.encounters.adapters import Adapter, mean_damage
from npc_tactics.systems.runequest.rules.bestiary_files import shipped_bestiary
from npc_tactics.systems.runequest.rules.scenario import bestiary, validate_scenario
from npc_tactics.systems.runequest.wear import WEAR

__all__ = ["ADAPTER"]


def _templates() -> list[str]:
    return sorted(bestiary())


#: shipped templates left out of the threat scale's median (``Adapter.threat_reference``): the published Mostali
#: (issue 27, docs/runequest.md "Sources") has CON 13, not 18, which moved it from above the median to below;
#: leaving it and the weakest template (the hawk) out keeps the two halves even, and the templates shipped after
#: the scale was tuned (the scorpion man, the harpy) stay out, so the median, every threat figure and the shipped
#: distributions' draws stay those of the scale the GM tools were tuned on (tests/encounters/test_threat_scale.py)
_OFF_SCALE = frozenset({"mostali_warrior", "hawk", "scorpion_man", "harpy"})


def _threat_reference() -> list[str]:
    """The shipped templates on the scale: a GM's bestiary (NPC_TACTICS_BESTIARY) must not move it either."""
    return sorted(t for t in shipped_bestiary() if t not in _OFF_SCALE)


def _strength(c: Any) -> tuple[float, float]:
    db = mean_damage(c.spec.db)
    best = 0.0
    for w in c.weapons:
        if w.spec.kind == "shield":
            continue
        # the defender parries or dodges about half the time and wears ~3 AP
        best = max(best, min(w.spec.skill, 95) / 100 * max(mean_damage(w.spec.damage) + db - 3.0, 0.5) * 0.6)
    return float(c.max_hp), best


ADAPTER = Adapter("runequest", 6.0, 2.0, _templates, validate_scenario, lambda d: {"distance": d}, _strength, wear=WEAR,
                  threat_reference=_threat_reference)
