"""How an OSE fight starts worn (:class:`~npc_tactics.encounters.wear.Wear`): wounds take hit points, and a long
day spends missile ammunition and memorised spells."""

from __future__ import annotations

import numpy as np

from npc_tactics.encounters.wear import Wear
from npc_tactics.systems.ose.rules.state import Combatant

__all__ = ["WEAR"]


def _wound(c: Combatant, fraction: float, rng: np.random.Generator) -> None:
    c.hp = max(1, c.hp - int(round(fraction * c.max_hp)))


def _spend(c: Combatant, fraction: float, rng: np.random.Generator) -> None:
    c.ammo = int(c.ammo * (1.0 - fraction))
    c.spells = [int(n) - int(rng.binomial(int(n), fraction)) for n in c.spells]


WEAR = Wear(_wound, _spend, "missile ammunition, memorised spells (each slot lost with the drawn fraction)")
