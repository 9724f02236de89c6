"""Starting wounds and spent resources, applied to a fight's opening state before the first decision.

Per system, in the engine's own terms: hit points (OSE), location damage with the total kept in step
(RuneQuest, MRQ, dice pool), and what a long day uses up: ammunition everywhere, magic points and Rune points
(RuneQuest), memorised spells (OSE), weapon and shield hit points (RuneQuest, MRQ). Wounds never drop anyone
out of the fight (every location keeps at least 1 HP, totals stay above each system's unconscious threshold),
so the pending decision the engine computed stays valid: no status changes, nobody moves.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

Wear = Callable[[Any, float, np.random.Generator], None]


def _spread(loc_left: list[int], amount: int, rng: np.random.Generator) -> list[int]:
    """Damage per location summing to at most ``amount``, each location keeping at least 1 HP."""
    taken = [0] * len(loc_left)
    for _ in range(amount):
        open_ = [i for i, h in enumerate(loc_left) if h - taken[i] > 1]
        if not open_:
            break
        taken[open_[int(rng.integers(len(open_)))]] += 1
    return taken


def _ose_wound(c: Any, fraction: float, rng: np.random.Generator) -> None:
    c.hp = max(1, c.hp - int(round(fraction * c.max_hp)))


def _ose_spend(c: Any, fraction: float, rng: np.random.Generator) -> None:
    c.ammo = int(c.ammo * (1.0 - fraction))
    c.spells = [int(n) - int(rng.binomial(int(n), fraction)) for n in c.spells]


def _rq_wound(c: Any, fraction: float, rng: np.random.Generator) -> None:
    room = max(0, c.hp - 3)  # RQG: at 2 HP or less a combatant drops (§ damage); stay above it
    left = [loc.spec.max_hp - loc.damage for loc in c.locations]
    taken = _spread(left, min(room, int(round(fraction * c.max_hp))), rng)
    for loc, t in zip(c.locations, taken, strict=True):
        loc.damage += t
    c.hp -= sum(taken)


def _rq_spend(c: Any, fraction: float, rng: np.random.Generator) -> None:
    c.mp = int(c.mp * (1.0 - fraction))
    c.rune_points = int(c.rune_points * (1.0 - fraction))
    for w in c.weapons:
        if w.spec.kind in ("missile", "thrown"):
            w.ammo = int(w.ammo * (1.0 - fraction))
        elif w.spec.max_hp > 1:
            w.hp = max(1, w.hp - int(round(fraction * 0.5 * w.spec.max_hp)))


def _mrq_wound(c: Any, fraction: float, rng: np.random.Generator) -> None:
    taken = _spread(list(c.loc_hp), int(round(fraction * c.max_hp)), rng)
    c.loc_hp = [h - t for h, t in zip(c.loc_hp, taken, strict=True)]
    c.hp = sum(h for h in c.loc_hp if h > 0)


def _mrq_spend(c: Any, fraction: float, rng: np.random.Generator) -> None:
    c.ammo = int(c.ammo * (1.0 - fraction))
    if c.weapon_hp > 1:
        c.weapon_hp = max(1, c.weapon_hp - int(round(fraction * 0.5 * c.weapon_hp)))
    if c.off_hp > 1:
        c.off_hp = max(1, c.off_hp - int(round(fraction * 0.5 * c.off_hp)))


def _dp_wound(f: Any, fraction: float, rng: np.random.Generator) -> None:
    taken = _spread(list(f.loc_hp), int(round(fraction * f.max_hp)), rng)
    f.loc_hp = [h - t for h, t in zip(f.loc_hp, taken, strict=True)]
    f.hp = sum(h for h in f.loc_hp if h > 0)


def _dp_spend(f: Any, fraction: float, rng: np.random.Generator) -> None:
    f.ammo = [a if a < 0 else int(a * (1.0 - fraction)) for a in f.ammo]


WOUND: Mapping[str, Wear] = {"ose": _ose_wound, "runequest": _rq_wound, "mrq": _mrq_wound, "dicepool": _dp_wound}
SPEND: Mapping[str, Wear] = {"ose": _ose_spend, "runequest": _rq_spend, "mrq": _mrq_spend, "dicepool": _dp_spend}
#: what "spent" takes, per system (docs/encounters.md)
SPENT_WHAT: Mapping[str, str] = {
    "ose": "missile ammunition, memorised spells (each slot lost with the drawn fraction)",
    "runequest": "magic points, Rune points, missile ammunition, up to half of each weapon's and shield's HP",
    "mrq": "missile ammunition, up to half of the weapon's and the off-hand's HP",
    "dicepool": "ammunition of every weapon that counts it",
}
