"""OSE rules options: defaults and allowed values, declared once on the system's SystemSpec (checked by
``Engine.validate_options`` and by the scenario and situation loaders). Each option is documented in docs/ose.md."""

from __future__ import annotations

from typing import Any

from npc_tactics.rules.base import DecisionKind, SystemSpec
from npc_tactics.systems.ose.rules import actions as A

DEFAULT_OPTIONS: dict[str, Any] = {
    "ac_mode": "matrix",  #: "matrix" (descending AC, §9.1) or "ascending" (§9.2)
    "tie_mode": "simultaneous",  #: "simultaneous" or "reroll" (§3, A3)
    "individual_initiative": False,  #: d6 + DEX per combatant instead of per side (§3)
    "morale": True,  #: monster morale checks (§4, optional rule on by default)
    "variable_weapon_damage": False,  #: weapon dice instead of 1d6 for characters (§10, A15)
    "shoot_when_engaged": False,  #: allow missile fire while an enemy is within 1.5 m (docs/ose.md R1)
    "withdraw_attack": "melee",  #: after a fighting withdrawal: "melee" only, "any" (also missiles), "none"
    "declare_when_threatened": False,  #: withdraw/retreat may be declared when merely threatened (house)
    "morale_count_fled": False,  #: fled count toward "half the side out" (house; §4: killed/incapacitated)
    "surprise": False,  #: roll surprise (1d6, 1-2) before round 1 (published; off: both sides aware)
    "set_vs_charge": True,  #: a braced spear/polearm strikes a charger first for double damage (OSE Brace)
    "routine_retarget": False,  #: a routine's strikes left when its target falls go to another foe in reach (house)
    #: a flyer in melee: "declared" (B/X: withdraw/retreat as anyone, at its flying rate, over enemies, pursued
    #: only by faster flyers), "free" (house: it simply flies off in its move step), "none" (flight ignored)
    "flyer_disengage": "declared",
    #: facing a petrifying gaze (medusa, basilisk): "none" (nobody averts: each enemy it attacks saves), "avert"
    #: (its enemies avert their eyes: no save, -4 to hit it, it +2 to hit them), "mirror" (fight by a mirror: -1)
    "avert_gaze": "none",
    #: how casters use Hold Person (OSE: "against an individual" at -2, or "against a group", 1d4 targets):
    #: "single" (always the one declared target at -2), "group" (1d4 of the group around it), "best" (per cast,
    #: the way holding more enemies on average); rules/spells_hold.py, docs/ose-spells.md
    "hold_person_mode": "single",
}
#: Allowed values of the string options (checked by the engine and by scenario/situation files).
OPTION_CHOICES: dict[str, tuple[str, ...]] = {
    "ac_mode": ("matrix", "ascending"),
    "tie_mode": ("simultaneous", "reroll"),
    "withdraw_attack": ("melee", "any", "none"),
    "flyer_disengage": ("declared", "free", "none"),
    "avert_gaze": ("none", "avert", "mirror"),
    "hold_person_mode": ("single", "group", "best"),
}

#: the system's typed facts (below engine and scenario loader, so both read them without an import cycle)
SPEC = SystemSpec(
    name="ose",
    title="Old-School Essentials (B/X)",
    version="0.3.0",
    sides=2,
    max_per_side=A.MAX_PER_SIDE,
    num_actions=A.N_ACTIONS,
    max_rounds=30,
    decision_kinds=(DecisionKind.DECLARE, DecisionKind.ACT),
    default_options=DEFAULT_OPTIONS,
    option_values=OPTION_CHOICES,
)
