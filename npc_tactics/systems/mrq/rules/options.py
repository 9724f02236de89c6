"""MRQ rules options (every reference ambiguity a GM could settle differently) and the SystemSpec."""

from __future__ import annotations

from typing import Any

from npc_tactics.rules.base import DecisionKind, SystemSpec
from npc_tactics.systems.mrq.rules.actions import MAX_PER_SIDE, N_ACTIONS

DEFAULT_OPTIONS: dict[str, Any] = {
    "deflection_points": True,  # §3: the combat table WITH Deflection Points (False: simplified table §3.2)
    "dp_effects_by_margin": [0, 1, 1, 1],  # A4: literal; [0, 1, 1, 2] gives Critical victory two effects
    "margins_among_failures": False,  # A1: a failure beats a fumble at margin 1 when True
    "literal_defender_damage": False,  # A5: halved damage passes a defender win even if the attacker failed
    "round_half_up": True,  # A7: halved damage and DP round up
    "skill_halving_rule": False,  # §10 optional: skills over 100% may halve twice for +2 effects
    "automatic_success_failure": False,  # [PUB unverified] 01–05 always succeed, 96–99 always fail (not in the source)
    "undefended_effects": True,  # A3: an undefended target counts as a failed defence (False: no effects)
    "melee_fumble_20_breaks_weapon": False,  # A10: melee fumble 20 destroys the weapon instead of "roll 3×"
    "damage_weapon_also_body": False,  # A21: attacker's Damage weapon replaces the body damage
    "knockback": False,  # §15 [HOUSE]: a blow rolling more damage than the target's SIZ knocks it back
    "mount_tramples": True,  # §14 source, [HOUSE] mechanics: a received mounted charge is followed by a trample
    "reach_rule": "source",  # A23: "source" (closing is Acrobatics vs weapon skill) or "house" (reach forbids blows)
    "opposed_both_fail": "tester_loses",  # §2: a non-combat opposed test both fail ("lower_roll_wins": MRQ1 [?])
}

#: allowed values of the options that are not booleans, and the range of each element of a list option
CHOICES: dict[str, tuple[str, ...]] = {
    "reach_rule": ("source", "house"),
    "opposed_both_fail": ("tester_loses", "lower_roll_wins"),
}
RANGES: dict[str, tuple[float, float]] = {"dp_effects_by_margin": (0, 3)}  #: effects at margins 0, 1, 2, 3


SPEC = SystemSpec(
    name="mrq",
    title="Mongoose RuneQuest, opposed-test variant",
    version="0.4.0",
    sides=2,
    max_per_side=MAX_PER_SIDE,
    num_actions=N_ACTIONS,
    max_rounds=20,
    decision_kinds=(DecisionKind.ACT, DecisionKind.REACT, DecisionKind.EFFECT, DecisionKind.OPTION),
    default_options=DEFAULT_OPTIONS,
    option_values=CHOICES,
    option_ranges=RANGES,
)
