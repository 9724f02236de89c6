"""How a dice-pool fight starts worn (:class:`~npc_tactics.encounters.wear.Wear`): wounds take location HP
(each location keeps 1), and a long day spends the ammunition of every weapon that counts it."""

from __future__ import annotations

import numpy as np

from npc_tactics.encounters.wear import Wear, spread
from npc_tactics.systems.dicepool.rules.state import Fighter

__all__ = ["WEAR"]


def _wound(f: Fighter, fraction: float, rng: np.random.Generator) -> None:
    taken = spread(list(f.loc_hp), int(round(fraction * f.max_hp)), rng)
    f.loc_hp = [h - t for h, t in zip(f.loc_hp, taken, strict=True)]
    f.hp = sum(h for h in f.loc_hp if h > 0)


def _spend(f: Fighter, fraction: float, rng: np.random.Generator) -> None:
    f.ammo = [a if a < 0 else int(a * (1.0 - fraction)) for a in f.ammo]


WEAR = Wear(_wound, _spend, "ammunition of every weapon that counts it")
