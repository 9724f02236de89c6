"""What an OSE fight can hold that the policy rarely met, in a GM's words (the plugin's ``unusual`` hook,
:class:`~npc_tactics.gm.advice.unusual.UnusualWords`): one phrase per observation field of
:mod:`npc_tactics.systems.ose.encoder` when its value lies above, or below, the range met in training."""

from __future__ import annotations

from npc_tactics.gm.advice.unusual import UnusualWords
from npc_tactics.i18n import N_

__all__ = ["UNUSUAL"]

UNUSUAL = UnusualWords(
    combatant={
        "out": (N_("held or asleep"), ""),
        "ac": (N_("hard to hit (a good AC)"), N_("easy to hit (a poor AC)")),
        "attack": (N_("a good attack (THAC0)"), N_("a poor attack (THAC0)")),
        "offset": (N_("far toward the enemies' side"), N_("far back")),
        "adjacent": (N_("in melee contact"), N_("out of melee contact")),
        "missile": (N_("a missile weapon with ammunition"), N_("no missile weapon or ammunition")),
        "missile_reach": (N_("a long missile range"), N_("a short missile range")),
        "move": (N_("fast"), N_("slow")),
        "slow": (N_("a slow weapon"), ""),
        "declared_withdraw": (N_("a fighting withdrawal declared"), ""),
        "declared_retreat": (N_("a retreat declared"), ""),
        "casting": (N_("a spell being cast"), ""),
        "spells": (N_("many spells in memory"), N_("few spells in memory")),
        "morale": (N_("steady morale"), N_("shaky morale")),
        "cover": (N_("much cover"), N_("little cover")),
        "acted": (N_("already acted this round"), ""),
        "hit_dice": (N_("many Hit Dice (or levels)"),
                     N_("few Hit Dice (or levels)")),
        "strikes": (N_("many attacks a round"), N_("few attacks a round")),
        "routine_damage": (N_("heavy damage a round"), N_("light damage a round")),
        "paralyses": (N_("paralysing attacks"), ""),
        "poisons": (N_("poisonous attacks"), ""),
        "drains": (N_("level-draining attacks"), ""),
        "petrifies": (N_("attacks that turn to stone"), ""),
        "unharmable": (N_("harmed only by silver or magic weapons"), ""),
        "regenerates": (N_("regeneration"), ""),
        "undead": (N_("undead"), N_("not undead")),
        "person": (N_("a person (Hold Person and Charm Person work on it)"), N_("not a person")),
        "flies": (N_("flight"), ""),
        "down_reviving": (N_("down but regenerating, to rise again"), ""),
        "damage_spells": (N_("damage spells left (Magic Missile, Fire Ball, Lightning Bolt)"), ""),
        "control_spells": (N_("spells left that take foes out (Sleep, Hold, Charm, Web)"), ""),
        "healing_spells": (N_("healing spells left"), ""),
        "protection_spells": (N_("protective spells left (Shield, Invisibility, Mirror Image)"), ""),
        "warded": (N_("under a protective spell"), ""),
        "hindered": (N_("blinded, webbed, fainted or silenced"), ""),
    },
    context={
        "declared_withdraw": (N_("a fighting withdrawal declared this round"), ""),
        "declared_retreat": (N_("a retreat declared this round"), ""),
        "simultaneous": (N_("both sides acting at once (tied initiative)"), ""),
    },
)
