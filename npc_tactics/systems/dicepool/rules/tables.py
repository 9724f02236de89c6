"""Every table of the dice-pool reference as data (dice-pool.md §2–§8).

Location indices are fixed for every creature (the source text only describes humanoids; wings and tails of
the huge-weapon table are folded into the nearest humanoid half, see docs/dicepool.md D17).
"""

from __future__ import annotations

# ----- §2 dice and successes -------------------------------------------------------------------------------
DIE_SIDES = 6
SUCCESS_MIN = 4  #: 4 or 5 = one success (dice-pool.md §2)
REROLL_FACE = 6  #: 6 = one success and one die re-rolled (chaining is an option, D3)
MAX_POOL = 12  #: largest skill pool a combatant may have (bounds the split:0..12 catalogue slice)
MAX_REROLL_CHAIN = 50  #: safety cap on chained re-rolls (never reached in practice: P = 6^-50)

# ----- §3 initiative ---------------------------------------------------------------------------------------
RANKS_PER_TA = 5  #: one Action Turn (T.A.) covers five action ranks, counted down 5 → 1 (§3.2)

# ----- §7 ranged combat ------------------------------------------------------------------------------------
#: Range bands in order: (name, DEFENSE modifier). Each weapon gives the upper bounds of short/medium/long;
#: extreme runs to 2 × long (dice-pool.md §7, vector 12).
RANGE_BANDS: tuple[tuple[str, int], ...] = (
    ("short", 0),
    ("medium", 2),
    ("long", 4),
    ("extreme", 8),
)
MAX_RANGE_FACTOR = 2  #: no shot beyond 2 × the long-range limit
AIM_BONUS = 4  #: successes added to the next shot by spending a slot aiming (D7)
LOCATION_AIM_DICE = 2  #: dice removed from the shooting pool to aim at a chosen location (§7)
#: Carried items a shot may be aimed at (the source's own example aims at the opponent's weapon, L44; D8).
AIM_ITEMS: tuple[str, ...] = ("weapon",)

#: Concealment levels: (name, DEFENSE bonus against shots) — take one (D11).
CONCEALMENT: tuple[tuple[str, int], ...] = (("none", 0), ("half", 1), ("three_quarters", 2))
#: Postures: (name, DEFENSE bonus against shots) — take one (D11).
POSTURES: tuple[tuple[str, int], ...] = (("standing", 0), ("kneeling", 1), ("prone", 2))
MOVING_BONUS = 1  #: target moving (en mouvement): +1 DEFENSE against shots

CONCEALMENT_NAMES = tuple(n for n, _ in CONCEALMENT)
CONCEALMENT_BONUS = tuple(b for _, b in CONCEALMENT)
POSTURE_NAMES = tuple(n for n, _ in POSTURES)
POSTURE_BONUS = tuple(b for _, b in POSTURES)

# ----- movement (house defaults; the source has no movement rules) ---------------------------------------
MELEE_REACH = 2.0  #: metres: within this distance two combatants are engaged and may strike
ENGAGE_DISTANCE = 1.0  #: an advance stops this far from its target
DEFAULT_SPEED = 10  #: metres covered by one move action on foot
COVER_SPOT_REACH = 0.5  #: metres: a fighter this close to its cover spot may use that cover (H1)

# ----- §8 hit locations ------------------------------------------------------------------------------------
LOCATIONS: tuple[str, ...] = (
    "head",
    "torso",
    "pelvis",
    "left_arm",
    "right_arm",
    "left_leg",
    "right_leg",
)
HEAD, TORSO, PELVIS, LEFT_ARM, RIGHT_ARM, LEFT_LEG, RIGHT_LEG = range(7)
LOCATION_INDEX = {name: i for i, name in enumerate(LOCATIONS)}
ARMS = (LEFT_ARM, RIGHT_ARM)
LOWER_MOBILITY = (PELVIS, LEFT_LEG, RIGHT_LEG)  #: serious wounds here slow or stop movement (D16)
VITALS = (HEAD, TORSO)  #: a serious wound here puts the combatant out of the fight (D16)

#: Common weapons (armes courantes): 2d6 total → location index (dice-pool.md §8).
COMMON_LOCATION: dict[int, int] = {
    12: HEAD,
    11: TORSO,
    10: TORSO,
    9: TORSO,
    8: TORSO,
    7: TORSO,
    6: PELVIS,
    5: LEFT_ARM,
    4: RIGHT_ARM,
    3: LEFT_LEG,
    2: RIGHT_LEG,
}

#: Huge weapons / explosions (armes énormes / explosion): 2d6 total → area name (dice-pool.md §8).
HUGE_AREA: dict[int, str] = {
    12: "whole_body",
    11: "head",
    10: "upper_half",
    9: "upper_half",
    8: "upper_half",
    7: "upper_half",
    6: "upper_half",
    5: "lower_half",
    4: "lower_half",
    3: "lower_half",
    2: "lower_half",
}
#: Locations each huge-weapon area damages, the same amount to each (D17).
HUGE_AREA_LOCATIONS: dict[str, tuple[int, ...]] = {
    "whole_body": tuple(range(len(LOCATIONS))),
    "head": (HEAD,),
    "upper_half": (TORSO, LEFT_ARM, RIGHT_ARM),
    "lower_half": (PELVIS, LEFT_LEG, RIGHT_LEG),
}

#: Exact probability (in 36ths) of each 2d6 total, for exact-value tests and analysis.
TWO_D6_WAYS: dict[int, int] = {t: 6 - abs(t - 7) for t in range(2, 13)}

# ----- D16 house wound rules (penalties) ---------------------------------------------------------------------
ARM_WOUND_DICE = 2  #: attack dice lost per unusable arm (house default, D16)

WEAPON_KINDS = ("melee", "ranged")
