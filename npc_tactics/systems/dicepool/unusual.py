"""What a dice-pool fight can hold that the policy rarely met, in a GM's words (the plugin's ``unusual`` hook,
:class:`~npc_tactics.gm.advice.unusual.UnusualWords`): one phrase per observation field of
:mod:`npc_tactics.systems.dicepool.encoder` when its value lies above, or below, the range met in training."""

from __future__ import annotations

from npc_tactics.gm.advice.unusual import UnusualWords
from npc_tactics.i18n import N_

__all__ = ["UNUSUAL"]

UNUSUAL = UnusualWords(
    combatant={
        "loc_head": ("", N_("a grave wound to the head")),
        "loc_torso": ("", N_("a grave wound to the torso")),
        "loc_pelvis": ("", N_("a grave wound to the pelvis")),
        "loc_left_arm": ("", N_("a grave wound to the left arm")),
        "loc_right_arm": ("", N_("a grave wound to the right arm")),
        "loc_left_leg": ("", N_("a grave wound to the left leg")),
        "loc_right_leg": ("", N_("a grave wound to the right leg")),
        "engaged": (N_("engaged in melee"), N_("not engaged")),
        "defense": (N_("a high DEFENSE"), N_("a low DEFENSE")),
        "defense_dice": (N_("many dice in DEFENSE"), ""),
        "melee_pool": (N_("a big melee pool"), N_("a small melee pool")),
        "shoot_pool": (N_("a big shooting pool"), N_("a small shooting pool")),
        "can_shoot": (N_("a loaded ranged weapon"), ""),
        "weapon_damage": (N_("a deadly weapon"), N_("a weak weapon")),
        "strength": (N_("high STRENGTH"), N_("low STRENGTH")),
        "initiative": (N_("a big Initiative pool"), N_("a small Initiative pool")),
        "coordination": (N_("high COORDINATION"), N_("low COORDINATION")),
        "slots_left": (N_("many action slots left this game turn"), ""),
        "posture": (N_("kneeling or prone"), ""),
        "concealment": (N_("behind heavy cover"), ""),
        "cover_available": (N_("good cover at hand"), ""),
        "moving": (N_("on the move"), ""),
        "aimed_by_actor": (N_("aimed at by the NPC"), ""),
        "aiming_at_actor": (N_("aiming at the NPC"), ""),
        "metal": (N_("much metal armour"), ""),
        "electric": (N_("an electric weapon"), ""),
        "shot_band": (N_("at an unusual range"), N_("at an unusual range")),
        "p_hit_melee": (N_("easy to hit in melee"), N_("hard to hit in melee")),
        "p_hit_shot": (N_("easy to shoot"), N_("hard to shoot")),
        "behind": (N_("the NPC standing behind it"), ""),
        "facing_actor": (N_("facing the NPC"), ""),
    },
    context={
        "n_ta": (N_("many Action Turns this game turn"), N_("few Action Turns this game turn")),
        "slots_left": (N_("many action slots left this game turn"), ""),
        "pool": (N_("a big attack pool"), ""),
        "target_defense": (N_("a target with a high DEFENSE"), ""),
        "aim_bonus": (N_("a big aiming bonus"), ""),
        "p_hit_all": ("", ""),
        "p_hit_aimed": ("", ""),
    },
)
