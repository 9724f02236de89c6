"""Rules options of the dice-pool system: one per disputed reading of dice-pool.md (docs/dicepool.md)."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any


@dataclass(frozen=True, slots=True)
class Rules:
    """The effective rules options of one fight (docs/dicepool.md lists the ambiguity behind each)."""

    reroll_chain: bool = True  # D3: re-rolled 6s re-roll again
    zero_successes_act_last: bool = False  # D2: 0 initiative successes → one action after everyone
    hit_on_equal: bool = True  # D4: successes ≥ DEFENSE hits (False: strictly more)
    defense_until_next_slot: bool = (
        True  # D5: dice in DEFENSE last to the next slot (False: end of game turn)
    )
    defense_dice_vs_shots: bool = (
        False  # §7/D5: dice in DEFENSE also count against projectiles (GM exception)
    )
    cover_cumulative: bool = (
        True  # D11: concealment + posture + moving add up (False: best one only)
    )
    cover_vs_melee: bool = False  # D11: concealment/posture bonuses also against blows
    aim_bonus: int = 4  # D7: successes added by a slot spent aiming
    aim_lost_on_other_action: bool = True  # D7: aim lost if the shooter does anything else first
    shorter_band_on_boundary: bool = True  # D10: a boundary distance counts in the shorter band
    strength_on_thrown: bool = True  # D13: STRENGTH adds to thrown-weapon damage
    electric_spread: bool = True  # D15: electricity spreads through connected metal armour
    serious_wound_at_zero: bool = True  # D16: serious wound at location HP ≤ 0 (False: < 0)
    death_serious_wounds: int = 2  # D16: this many serious wounds kill


DEFAULT_OPTIONS: dict[str, Any] = {f.name: f.default for f in fields(Rules)}
