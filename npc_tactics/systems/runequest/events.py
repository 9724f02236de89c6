"""The events the RuneQuest engine emits (``rules/``), each kind with its data fields; see
:mod:`npc_tactics.rules.events`.

Actor and target follow the engine: the one who acts and the one it acts on; what merely happens to a combatant
(``status``, ``drop``, ``bleeding``, wounds' effects) has no actor and that combatant as target. Success levels
are ``critical``, ``special``, ``success``, ``failure``, ``fumble``; locations and weapons are the ids of
``content/`` (``left_arm``, ``broadsword``).
"""

from __future__ import annotations

from npc_tactics.rules.base import Event
from npc_tactics.rules.events import EventCatalogue, EventKind

__all__ = ["EVENTS", "EXAMPLES"]

_LOCATION = (str, "hit location id")
_LEVEL = (str, "success level: critical, special, success, failure or fumble")
_WEAPON = (str, "weapon id")
_NUMBER = int | float

EVENTS = EventCatalogue("runequest", [
    EventKind("round_start", "A new melee round begins (statements of intent follow).", {
        "result": (str, "the round number, as text"),
    }),
    EventKind("declare", "A combatant's statement of intent for the round.", {
        "action": (str, "the catalogue name of the intent (attack:0:enemy_1, cast:befuddle:enemy_0, ...)"),
        "result": (str, "its verb: attack, aimed, cast, close, defend, first_aid, flee, knockback, ready, retreat"),
    }),
    EventKind("stand_up", "A knocked-down fighter gets up at the start of the round.", {
        "result": (str, "standing"),
    }),
    EventKind("move", "Movement towards the target of the intent (phase 2).", {
        "metres": (_NUMBER, "metres moved"),
        "result": (str, "moved"),
    }),
    EventKind("retreat", "A combatant withdraws out of reach or disengages.", {
        "result": (str, "withdrew or disengaged"),
    }),
    EventKind("flee", "A combatant runs from the fight, or is run down (option flight: pursuit).", {
        "engaged": (bool, "it was in reach of an enemy when the round began"),
        "result": (str, "fled or run_down"),
        "metres": (_NUMBER, "how far it ran before being caught (run_down only)"),
    }, optional={"metres"}),
    EventKind("ready", "A weapon or shield is readied.", {
        "weapon": _WEAPON,
        "result": (str, "ready"),
    }),
    EventKind("recover_weapon", "A weapon dropped since the statement of intent is picked up 5 SR later.", {
        "weapon": _WEAPON,
        "sr": (int, "the strike rank the blow moves to"),
        "result": (str, "delayed"),
    }),
    EventKind("attack_lost", "A declared attack does not happen.", {
        "result": (str, "no_target, no_weapon, out_of_range, out_of_reach, lost_to_fumble or recovering_weapon"),
        "weapon": (str, "the weapon being recovered (recovering_weapon only)"),
    }, optional={"weapon"}),
    EventKind("aimed_blow", "An aimed blow at one location is declared at its strike rank (skill halved).", {
        "location": _LOCATION,
        "skill": (int, "the skill after halving and modifiers"),
        "result": (str, "declared"),
    }),
    EventKind("attack", "A blow or shot: the attack roll, the defence chosen and what came of it.", {
        "weapon": _WEAPON,
        "wclass": (str, "weapon class: light, medium, great, shield, natural or missile"),
        "sr": (int, "the strike rank of the blow"),
        "skill": (int, "the attack chance in %"),
        "level": _LEVEL,
        "defence": (str, "parry, dodge or none"),
        "defence_level": (str, "the defence's success level, '' with no defence"),
        "aimed": (bool, "an aimed blow"),
        "free": (bool, "a free blow (at a fleeing or disengaging enemy)"),
        "result": (str, "hit, through (part goes through the parry), deflect, dodged or miss"),
    }),
    EventKind("defence", "The defender's parry or dodge roll (repeats the blow's line: verbose only).", {
        "how": (str, "parry or dodge"),
        "chance": (int, "the defence chance in %"),
        "wclass": (str, "the attacking weapon's class"),
        "result": _LEVEL,
    }),
    EventKind("critical", "A critical attack, parry or dodge.", {
        "result": (str, "attack, parry or dodge"),
    }),
    EventKind("befuddle_broken", "Being attacked frees the target of Befuddle.", {
        "result": (str, "attacked"),
    }),
    EventKind("parry_lost", "A fumble's lost parry is this one: the blow comes undefended.", {
        "result": (str, "lost_to_fumble"),
    }),
    EventKind("fumble", "A fumbled roll and its effect (fumble table).", {
        "effect": (str, "armour_breaks, drop_weapon, lose_attack, lose_parry, lose_attack_parry, "
                        "lose_attack_parry_dodge"),
        "location": (str, "where the armour breaks (armour_breaks only)"),
        "result": (str, "the same as effect"),
    }, optional={"location"}),
    EventKind("weapon_damage", "A weapon or shield loses hit points parrying or blocking.", {
        "weapon": _WEAPON,
        "amount": (int, "weapon hit points lost"),
        "result": (str, "damaged or broken"),
    }),
    EventKind("knockback", "A knockback attempt that landed unparried (option knockback_rule).", {
        "result": (str, "success or failure"),
        "metres": (_NUMBER, "how far the target is pushed (success only)"),
        "damage": (int, "the damage rolled against SIZ (knockback_rule: published)"),
        "siz": (int, "the target's SIZ (knockback_rule: published)"),
        "fell": (bool, "the target failed DEX x 5 and fell (published, success only)"),
    }, optional={"metres", "damage", "siz", "fell"}),
    EventKind("absorbed", "Armour stops all of a blow's damage.", {
        "location": _LOCATION,
        "points": (int, "damage rolled"),
        "armour": (int, "armour points at that location"),
        "result": (str, "absorbed"),
    }),
    EventKind("damage", "Hit points lost at a location (a blow, Disruption) or from the total (abandoned first aid, "
              "poison).", {
        "amount": (int, "hit points counted against the location"),
        "location": (str, "hit location id, '' for general hit points (abandoned first aid, poison)"),
        "points": (int, "damage rolled (blows only)"),
        "armour": (int, "armour points subtracted (blows only)"),
        "result": (str, "normal, special, max_special, spell, abandoned or poison"),
    }, optional={"points", "armour"}),
    EventKind("poison", "A poisoned weapon's blow through armour leaves a dose (the poisoner is the actor; none for "
              "a GM situation's dose), a dose takes effect at the end of a round: POT against CON on the resistance "
              "table, or a dose is still waiting when the fight ends (told, not played).", {
        "weapon": (str, "the poisoned weapon's id (injected only)"),
        "potency": (int, "the poison's potency (POT)"),
        "delay": (int, "rounds before it takes effect, at that round's end (injected only)"),
        "con": (int, "the victim's CON (overcome and resisted)"),
        "chance": (int, "the poison's chance on the resistance table, in % (overcome and resisted)"),
        "amount": (int, "total hit points lost: the POT, or half of it rounded up when resisted"),
        "due": (int, "the round at whose end it would have taken effect (pending only)"),
        "result": (str, "injected, overcome, resisted or pending"),
    }, optional={"weapon", "delay", "con", "chance", "amount", "due"},
        rare="needs a creature with a poisoned weapon (the scorpion man), in no shipped scenario"),
    EventKind("location_effect", "What a wound does to its location or the body (§18).", {
        "location": (str, "hit location id, '' for the whole body (fell)"),
        "result": (str, "severed, instant_death, useless, bleeding or fell"),
    }),
    EventKind("drop", "An arm made useless drops what it held.", {
        "weapon": _WEAPON,
        "result": (str, "dropped"),
    }),
    EventKind("bleeding", "A bleeding wound costs hit points, or its clock runs out (option bleeding_clocks).", {
        "amount": (int, "hit points lost this round (lost_hp only)"),
        "result": (str, "lost_hp or bled_out"),
    }, optional={"amount"}, rare="needs a wound of at least twice the location's HP that does not kill "
                                  "or a bleeding clock that runs out"),
    EventKind("spell", "A spell cast at its strike rank and its outcome.", {
        "spell": (str, "spell id: befuddle, bladesharp, disruption, heal, protection, shield, truesword"),
        "magic": (str, "spirit or rune"),
        "sr": (int, "the strike rank of the casting"),
        "power": (int, "points of the spell"),
        "result": (str, "success, failure, resisted, no_target or no_magic_points"),
    }),
    EventKind("heal", "Hit points restored at a location (Heal, first aid).", {
        "amount": (int, "hit points restored"),
        "location": _LOCATION,
        "result": (str, "heal or heal_wound (the spell), or first_aid"),
    }),
    EventKind("first_aid", "First aid in progress, or abandoned (it then costs the patient hit points).", {
        "result": (str, "in_progress, abandoned, no_target, no_wound, bleeding_stopped or the roll's "
                        "success level"),
        "penalty": (int, "hit points the patient loses (abandoned only)"),
    }, optional={"penalty"}),
    EventKind("status", "A combatant's status changes (the combatant is the target).", {
        "status": (str, "active, unconscious, incapacitated, dead or fled"),
        "result": (str, "the same as status"),
    }),
    EventKind("fight_end", "The fight is over: the last round allowed, or a side has nobody left standing.", {
        "winner": (int | None, "the winning side, None for a draw"),
        "reason": (str, "defeated, fled, mutual destruction or max_rounds"),
        "result": (str, "the same as reason"),
    }),
])

#: the rare kinds and variants as the engine writes them (tests/conformance/test_event_catalogue.py tells each in
#: English and French): a scorpion man's sting poisons, and the dose overcomes or is resisted three rounds on, or the
#: fight ends first (a GM situation's dose has no poisoner)
EXAMPLES: tuple[Event, ...] = (
    Event("poison", 1, 1, 0, {"weapon": "sting", "potency": 11, "delay": 3, "result": "injected"}),
    Event("poison", 4, 1, 0, {"potency": 11, "con": 12, "chance": 45, "amount": 11, "result": "overcome"}),
    Event("poison", 4, 1, 0, {"potency": 11, "con": 12, "chance": 45, "amount": 6, "result": "resisted"}),
    Event("damage", 4, 1, 0, {"amount": 6, "location": "", "result": "poison"}),
    Event("poison", 2, 1, 0, {"potency": 11, "due": 4, "result": "pending"}),
    Event("poison", 5, None, 0, {"potency": 13, "due": 7, "result": "pending"}),
)
