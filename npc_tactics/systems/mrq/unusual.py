"""What a Mongoose RuneQuest fight can hold that the policy rarely met, in a GM's words (the plugin's ``unusual``
hook, :class:`~npc_tactics.gm.advice.unusual.UnusualWords`): one phrase per observation field of
:mod:`npc_tactics.systems.mrq.encoder` when its value lies above, or below, the range met in training."""

from __future__ import annotations

from npc_tactics.gm.advice.unusual import UnusualWords
from npc_tactics.i18n import N_

__all__ = ["UNUSUAL"]

UNUSUAL = UnusualWords(
    combatant={
        "loc_right_leg": ("", N_("a grave wound to the right leg")),
        "loc_left_leg": ("", N_("a grave wound to the left leg")),
        "loc_abdomen": ("", N_("a grave wound to the abdomen")),
        "loc_chest": ("", N_("a grave wound to the chest")),
        "loc_right_arm": ("", N_("a grave wound to the right arm")),
        "loc_left_arm": ("", N_("a grave wound to the left arm")),
        "loc_head": ("", N_("a grave wound to the head")),
        "skill": (N_("a high combat style skill"), N_("a low combat style skill")),
        "acrobatics": (N_("high Acrobatics"), ""),
        "weapon_damage": (N_("a deadly weapon"), N_("a weak weapon")),
        "deflection": (N_("a sturdy parrying item"), ""),
        "reach": (N_("a long weapon reach"), N_("a short weapon reach")),
        "distance": (N_("far from the NPC"), N_("close to the NPC")),
        "actor_can_strike": (N_("within the NPC's strike"), ""),
        "can_strike_actor": (N_("able to strike the NPC"), ""),
        "reactions": (N_("many Reactions left"), N_("few Reactions left")),
        "cas_left": (N_("many Combat Actions left"), N_("few Combat Actions left")),
        "lost_ca": (N_("Combat Actions still to lose"), ""),
        "entangled": (N_("entangled"), ""),
        "impaled": (N_("weapons stuck in it"), ""),
        "weapon_ready": (N_("its weapon ready"), N_("its weapon not ready")),
        "offhand_ready": (N_("a shield or second weapon ready"), ""),
        "mounted": (N_("mounted"), ""),
        "metres": (N_("far off"), ""),
        "missile_range": (N_("a long missile range"), ""),
        "ammo": (N_("many missiles"), ""),
        "actor_can_shoot": (N_("within the NPC's shot"), ""),
    },
    context={
        "ca": (N_("a late Combat Action"), ""),
        "reactions_left": (N_("many Reactions left"), N_("few Reactions left")),
        "opponent_slot": (N_("an opponent far down the enemy line"), ""),
        "opp_weapon_damage": (N_("a deadly opposing weapon"), ""),
        "opp_skill": (N_("a highly skilled opponent"), N_("an unskilled opponent")),
        "own_defence": (N_("a high defence"), N_("a low defence")),
        "margin": (N_("a wide margin of success"), ""),
        "effects_remaining": (N_("many special effects to pick"), ""),
        "impaled_location_hp": ("", N_("a grave wound where the weapon is stuck")),
    },
)
