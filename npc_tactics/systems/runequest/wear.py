"""How a RuneQuest fight starts worn (:class:`~npc_tactics.encounters.wear.Wear`): wounds are location damage
with the total kept in step (never down to the 2 HP where a combatant drops), and a long day spends magic
points, Rune points, missile ammunition and up to half of each weapon's and shield's HP."""

from __future__ import annotations

import numpy as np

from npc_tactics.encounters.wear import Wear, spread
from npc_tactics.systems.runequest.rules.state import Combatant

__all__ = ["WEAR"]


def _wound(c: Combatant, fraction: float, rng: np.random.Generator) -> None:
    room = max(0, c.hp - 3)  # RQG: at 2 HP or less a combatant drops (§ damage); stay above it
    left = [loc.spec.max_hp - loc.damage for loc in c.locations]
    taken = spread(left, min(room, int(round(fraction * c.max_hp))), rng)
    for loc, t in zip(c.locations, taken, strict=True):
        loc.damage += t
    c.hp -= sum(taken)


def _spend(c: Combatant, fraction: float, rng: np.random.Generator) -> None:
    c.mp = int(c.mp * (1.0 - fraction))
    c.rune_points = int(c.rune_points * (1.0 - fraction))
    for w in c.weapons:
        if w.spec.kind in ("missile", "thrown"):
            w.ammo = int(w.ammo * (1.0 - fraction))
        elif w.spec.max_hp > 1:
            w.hp = max(1, w.hp - int(round(fraction * 0.5 * w.spec.max_hp)))


WEAR = Wear(_wound, _spend,
            "magic points, Rune points, missile ammunition, up to half of each weapon's and shield's HP")
