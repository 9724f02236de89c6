"""Rules options of the dice-pool system: one per disputed reading of dice-pool.md (docs/dicepool.md).

Option VALUES are checked, not only their keys and types (the allowed values and ranges below go on the
engine's SystemSpec, checked by ``Engine.validate_options``): a situation or a scenario that names an
impossible value is an error, never a silent fallback.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from npc_tactics.rules.base import DecisionKind, SystemSpec
from npc_tactics.systems.dicepool.rules import actions as A

#: D5 / issue 10 point 2: how long dice moved to DEFENSE last.
DEFENSE_DICE_DURATIONS = ("next_slot", "next_slot_or_turn_end", "turn_end")
#: Issue 10 point 1: what leaving melee costs (the source has no movement rules).
DISENGAGE_RULES = ("free_blow", "free")
#: Issue 10 point 4 / D8: what a shot aimed at the target's carried weapon does on a hit.
ITEM_HIT_RULES = ("disarm", "off")


@dataclass(frozen=True, slots=True)
class Rules:
    """The effective rules options of one fight (docs/dicepool.md lists the ambiguity behind each)."""

    reroll_chain: bool = True  # D3: re-rolled 6s re-roll again
    zero_successes_act_last: bool = False  # D2: 0 initiative successes → one action after everyone
    hit_on_equal: bool = True  # D4: successes ≥ DEFENSE hits (False: strictly more)
    defense_dice_until: str = "next_slot"  # D5: see DEFENSE_DICE_DURATIONS
    defense_dice_vs_shots: bool = (
        False  # §7/D5: dice in DEFENSE also count against projectiles (GM exception)
    )
    cover_cumulative: bool = (
        True  # D11: concealment + posture + moving add up (False: best one only)
    )
    cover_vs_melee: bool = False  # D11: concealment/posture bonuses also against blows
    low_posture_melee_penalty: bool = True  # H5: kneeling −1 / prone −2 DEFENSE against blows
    aim_bonus: int = 4  # D7: successes added by a slot spent aiming
    aim_lost_on_other_action: bool = True  # D7: aim lost if the shooter does anything else first
    item_hit: str = "disarm"  # D8: a hit aimed at the weapon knocks it from the hand ("off": not offered)
    shorter_band_on_boundary: bool = True  # D10: a boundary distance counts in the shorter band
    strength_on_thrown: bool = True  # D13: STRENGTH adds to thrown-weapon damage
    armour_absorbs: bool = True  # D14: armour points absorb non-electric damage at covered locations
    electric_spread: bool = True  # D15: electricity spreads through connected metal armour
    serious_wound_at_zero: bool = True  # D16: serious wound at location HP ≤ 0 (False: < 0)
    out_serious_wounds: int = 2  # D16: this many serious wounds put a fighter out of the fight (0: never)
    death_serious_wounds: int = 0  # D16: this many serious wounds kill (0: never; death at −max HP)
    rear_defense_penalty: int = 2  # D6: DEFENSE lost against a blow from behind (0: no facing)
    disengage: str = "free_blow"  # H6: leaving melee gives each engaged enemy a free blow ("free")


DEFAULT_OPTIONS: dict[str, Any] = {f.name: f.default for f in fields(Rules)}

#: allowed values of the string options and inclusive ranges of the integer ones (the engine's SystemSpec)
OPTION_VALUES: dict[str, tuple[str, ...]] = {
    "defense_dice_until": DEFENSE_DICE_DURATIONS,
    "disengage": DISENGAGE_RULES,
    "item_hit": ITEM_HIT_RULES,
}
OPTION_RANGES: dict[str, tuple[float, float]] = {
    "aim_bonus": (0, 20),
    "out_serious_wounds": (0, 7),
    "death_serious_wounds": (0, 7),
    "rear_defense_penalty": (0, 20),
}


#: the system's typed facts (here, below engine and content, so both read them without a cycle)
SPEC = SystemSpec(
    name="dicepool",
    title="Dice-pool system (Haru'Rak'Zall)",
    version="0.2.0",
    sides=2,
    max_per_side=A.MAX_PER_SIDE,
    num_actions=A.N_ACTIONS,
    max_rounds=20,
    decision_kinds=(DecisionKind.ACT, DecisionKind.SPLIT, DecisionKind.OPTION),
    default_options=DEFAULT_OPTIONS,
    option_values=OPTION_VALUES,
    option_ranges=OPTION_RANGES,
)
