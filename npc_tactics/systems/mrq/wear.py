"""How an MRQ fight starts worn (:class:`~npc_tactics.encounters.wear.Wear`): wounds take location HP (each
location keeps 1), and a long day spends missile ammunition and up to half of the weapon's and the off-hand's
HP."""

from __future__ import annotations

import numpy as np

from npc_tactics.encounters.wear import Wear, spread
from npc_tactics.systems.mrq.rules.state import MRQCombatant

__all__ = ["WEAR"]


def _wound(c: MRQCombatant, fraction: float, rng: np.random.Generator) -> None:
    taken = spread(list(c.loc_hp), int(round(fraction * c.max_hp)), rng)
    c.loc_hp = [h - t for h, t in zip(c.loc_hp, taken, strict=True)]
    c.hp = sum(h for h in c.loc_hp if h > 0)


def _spend(c: MRQCombatant, fraction: float, rng: np.random.Generator) -> None:
    c.ammo = int(c.ammo * (1.0 - fraction))
    if c.weapon_hp > 1:
        c.weapon_hp = max(1, c.weapon_hp - int(round(fraction * 0.5 * c.weapon_hp)))
    if c.off_hp > 1:
        c.off_hp = max(1, c.off_hp - int(round(fraction * 0.5 * c.off_hp)))


WEAR = Wear(_wound, _spend, "missile ammunition, up to half of the weapon's and the off-hand's HP")
