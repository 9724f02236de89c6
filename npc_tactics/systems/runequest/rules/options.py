"""RQG rules options: defaults and allowed values, declared once on the engine's SystemSpec (checked by
``Engine.validate_options``) and by the scenario and situation loaders (issue 8 §3: values, not only keys).
Each option is documented in docs/runequest.md ("Rules options")."""

from __future__ import annotations

from typing import Any

from npc_tactics.rules.base import DecisionKind, SystemSpec
from npc_tactics.systems.runequest.rules import actions as A
from npc_tactics.systems.runequest.rules import tables as T

DEFAULT_OPTIONS: dict[str, Any] = {
    # A4: or "by_weapon_type" (published: crushing weapons add max db)
    "special_damage": "dice_twice",
    "crit_db": "rolled",  # A4: or "max"
    "adjacent_location": "hit_location",  # A5: or "parrying_arm"
    "failed_attack_hits_on_defender_fumble": True,  # A6: source literal
    "parry_damage_includes_db": True,  # A8
    "shield_passive_cover": True,  # A9
    "thrown_range_bands": False,  # A10
    "spell_sr_reading": "rule",  # A3: or "seed_literal" (the Vasana example's 5-SR spell)
    "combine_move_and_ready": True,  # §7.1: moving and readying in parallel cost the higher SR
    "metres_per_mov": 3,  # A13: metres per point of MOV in a melee round
    "bleeding_clocks": True,  # A20: run the 50/25-round bleed-out clocks inside the fight
    "knockback_rule": "published",  # A12: damage vs SIZ (RQG, unverified) or "push" (v0 house rule)
    # A24: a fumble's lost parry is spent by the next parry it would make ("next_parry") or by the
    # next blow it receives whatever the answer ("next_blow", v0)
    "lost_parry": "next_parry",
    # point 11: a weapon skill over 100% may be split into attacks of >= 50% ("published") or is
    # used whole ("off", v0)
    "split_attacks": "published",
    "flight": "pursuit",  # A25: a faster enemy runs a fleer down; "escape": v0, flight always succeeds
}

#: allowed values of the string options, and the range of the integer ones (issue 8 §3: values too)
OPTION_CHOICES: dict[str, tuple[str, ...]] = {
    "special_damage": ("dice_twice", "by_weapon_type"),
    "crit_db": ("rolled", "max"),
    "adjacent_location": ("hit_location", "parrying_arm"),
    "spell_sr_reading": ("rule", "seed_literal"),
    "knockback_rule": T.KNOCKBACK_RULES,
    "lost_parry": ("next_parry", "next_blow"),
    "flight": ("pursuit", "escape"),
    "split_attacks": ("published", "off"),
}
OPTION_RANGES: dict[str, tuple[int, int]] = {"metres_per_mov": (1, 10)}


#: the RQG SystemSpec (typed facts, option values and ranges checked by ``rules.base.option_error``)
SPEC = SystemSpec(
    name="runequest",
    title="RuneQuest: Roleplaying in Glorantha",
    version="0.4.0",
    sides=2,
    max_per_side=A.MAX_PER_SIDE,
    num_actions=A.N,
    max_rounds=25,
    decision_kinds=(DecisionKind.DECLARE, DecisionKind.REACT, DecisionKind.OPTION),
    default_options=DEFAULT_OPTIONS,
    option_values=OPTION_CHOICES,
    option_ranges=OPTION_RANGES,
)
