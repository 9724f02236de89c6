"""What a RuneQuest fight can hold that the policy rarely met, in a GM's words (the plugin's ``unusual`` hook,
:class:`~npc_tactics.gm.advice.unusual.UnusualWords`): one phrase per observation field of
:mod:`npc_tactics.systems.runequest.encoder` when its value lies above, or below, the range met in training."""

from __future__ import annotations

from npc_tactics.gm.advice.unusual import UnusualWords
from npc_tactics.i18n import N_

__all__ = ["UNUSUAL"]

_POWERED = (N_("a spell the policy rarely put points into"), "")

UNUSUAL = UnusualWords(
    combatant={
        "unconscious": (N_("unconscious"), ""),
        "incapacitated": (N_("conscious but out of the fight"), ""),
        "mp": (N_("many magic points"), N_("few magic points")),
        "rune_points": (N_("many Rune points"), N_("few Rune points")),
        "offset": (N_("far toward the enemies' side"), N_("far back")),
        "in_reach": (N_("within melee reach"), N_("out of melee reach")),
        "engaged": (N_("engaged in melee"), N_("not engaged")),
        "dex_sr": (N_("a slow DEX strike rank"), N_("a quick DEX strike rank")),
        "melee_sr": (N_("a slow melee strike rank"),
                     N_("a quick melee strike rank")),
        "attack_skill": (N_("a high weapon skill"), N_("a low weapon skill")),
        "parry_skill": (N_("a high parry"), N_("a low parry")),
        "dodge": (N_("a high dodge"), N_("a low dodge")),
        "parries_used": (N_("many parries made this round"), ""),
        "dodges_used": (N_("many dodges made this round"), ""),
        "lose_parry": (N_("a fumble that costs its next parry"), ""),
        "lose_attack": (N_("a fumble that costs its next attack"), ""),
        "lose_dodge": (N_("a fumble that stops its dodges"), ""),
        "max_damage": (N_("a deadly weapon"), N_("a weak weapon")),
        "great_weapon": (N_("a two-handed weapon ready"), ""),
        "shield_ready": (N_("a shield ready"), ""),
        "missile_ready": (N_("a missile weapon with ammunition"), ""),
        "worst_wound": (N_("a grave wound"), ""),
        "useless_limbs": (N_("useless or severed limbs"), ""),
        "bleeding": (N_("bleeding"), ""),
        "bladesharp": (N_("strong Bladesharp"), ""),
        "protection": (N_("strong Protection or Shield"), ""),
        "truesword": (N_("Truesword on its blade"), ""),
        "befuddled": (N_("befuddled"), ""),
        "busy": (N_("committed to an action from an earlier round"), ""),
        "attacking_me": (N_("the blow coming in"), ""),
    },
    context={
        "sr_used": (N_("a late strike rank for its next step"), ""),
        "incoming_sr": (N_("an incoming blow late in the round"),
                        N_("an incoming blow early in the round")),
        "incoming_skill": (N_("a highly skilled attacker"), N_("an unskilled attacker")),
        "incoming_max_damage": (N_("a deadly incoming blow"),
                                N_("a weak incoming blow")),
        "incoming_aimed": (N_("an aimed blow coming in"), ""),
        "incoming_knockback": (N_("a knockback attempt coming in"), ""),
        "parry_chance": (N_("a high parry chance"), N_("a low parry chance")),
        "dodge_chance": (N_("a high dodge chance"), N_("a low dodge chance")),
        **{f"spell_{s}": _POWERED for s in ("bladesharp", "protection", "heal", "disruption", "befuddle", "shield",
                                           "truesword", "heal_wound")},
    },
)
