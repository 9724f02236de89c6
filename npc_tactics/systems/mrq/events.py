"""The events the Mongoose RuneQuest engine emits (``rules/``), each kind with its data fields; see
:mod:`npc_tactics.rules.events`.

Actor and target follow the engine: the one who acts and the one it acts on (a ``reaction``'s actor is the
defender; ``status`` and ``lost_action`` have only an actor, the combatant concerned). Locations and weapons
are the ids of ``content/`` (``left_arm``, ``great_axe``); distances are ``close``, ``long`` and ``apart``.
"""

from __future__ import annotations

from npc_tactics.rules.base import Event
from npc_tactics.rules.events import EventCatalogue, EventKind

__all__ = ["EVENTS", "EXAMPLES"]

_LOCATION = (str, "hit location id")
_WHY = (str, "what the test is for (disarm, trip, Endurance vs weapon skill, ...)")

EVENTS = EventCatalogue("mrq", [
    EventKind("round_start", "A new combat round begins.", {}),
    EventKind("lost_action", "A combatant's Combat Action is lost (a fumble, a special effect, being prone).", {
        "result": (str, "lost or prone"),
    }),
    EventKind("stand_up", "A prone combatant stands up.", {
        "result": (str, "standing"),
    }),
    EventKind("ready_weapon", "A combatant readies (picks up or draws) its weapon.", {
        "result": (str, "ready"),
    }),
    EventKind("distance", "Movement between combatants outside reach.", {
        "result": (str, "advanced (now at long reach), approached or fell_back"),
        "metres": (int, "metres now between them (approached), or moved back (fell_back)"),
        "to": (str, "the reach reached: long (advanced only)"),
    }, optional={"metres", "to"}),
    EventKind("charge", "A charge is caught, evaded or received.", {
        "result": (str, "caught, evaded or received"),
    }),
    EventKind("attack", "One exchange of an opposed test: the attack roll, the defence and who won by how much.", {
        "mode": (str, "normal, precise, missile, charge_attack, charge_undefended, free_strike, manoeuvre, "
                      "riposte or trample"),
        "defence": (str, "defend, precise, evade or none"),
        "att_skill": (int, "the attacker's skill in %"),
        "att_roll": (int, "the attacker's D100"),
        "def_skill": (int, "the defender's skill in %"),
        "def_roll": (int, "the defender's D100"),
        "margin": (int, "the margin of victory, in success levels"),
        "effects": (int, "special effects the winner gets"),
        "result": (str, "attacker_<margin>, defender_<margin> (critical, major, normal, partial) or miss"),
    }),
    EventKind("reaction", "The defender's reaction to an attack (repeated in the attack line).", {
        "result": (str, "defend, precise, evade or none"),
        "reactions_left": (int, "Reactions left this round"),
    }),
    EventKind("special_effect", "The winner of an exchange picks a special effect (repeats the choice: verbose "
              "only).", {
        "result": (str, "the effect id (bash, impale, choose_location, ...)"),
        "option": (str | None, "its option: a location or a distance, None for none"),
        "margin": (int, "the exchange's margin of victory"),
        "role": (str, "attacker or defender: who won the exchange"),
        "weapon": (str, "weapon id of the winner's striking item"),
        "weapon_kind": (str, "one_handed, two_handed, shield, missile, natural or unarmed"),
    }),
    EventKind("opposed_test", "An opposed skill test outside the attack (trip, disarm, Endurance, ...).", {
        "why": _WHY,
        "skill": (int, "the actor's skill in %"),
        "other_skill": (int, "the other's skill in %"),
        "roll": (int, "the actor's D100"),
        "other_roll": (int, "the other's D100"),
        "result": (str, "won or lost (for the actor)"),
    }),
    EventKind("skill_test", "An unopposed skill test (Acrobatics, Brute Force, Riding, ...).", {
        "why": _WHY,
        "skill": (int, "the skill in %"),
        "roll": (int, "the D100"),
        "result": (str, "passed or failed"),
    }),
    EventKind("manoeuvre", "A manoeuvre against the attacker succeeds or fails (§11).", {
        "result": (str, "success or failure"),
        "to": (int | str, "the distance index moved to, or disengaged (success only)"),
    }, optional={"to"}),
    EventKind("damage", "Hit points lost at a location.", {
        "amount": (int, "hit points lost there"),
        "location": _LOCATION,
        "hp": (int, "hit points left at the location (may be negative)"),
        "rolled": (int, "damage rolled (blows only)"),
        "dp": (int, "Deflection Points of the parry (blows only)"),
        "armour": (int, "armour points subtracted (blows only)"),
        "bypassed": (str, "the armour layer bypassed: worn or natural (bypass_armour only)"),
        "pulled": (bool, "damage from pulling out an impaling weapon"),
        "fumble": (bool, "self-inflicted, from a fumble"),
    }, optional={"rolled", "dp", "armour", "bypassed", "pulled", "fumble"}),
    EventKind("wound", "A serious or major wound at a location (§17).", {
        "result": (str, "serious or major"),
        "location": _LOCATION,
    }),
    EventKind("limb_useless", "A limb is made useless by a wound.", {
        "location": _LOCATION,
        "result": (str, "useless"),
    }),
    EventKind("status", "A combatant's status changes (the combatant is the actor).", {
        "status": (str, "unconscious, incapacitated or fled"),
        "wound": (str, "major: taken out by a major wound"),
        "bleeding": (bool, "unconscious and bleeding after a major wound"),
    }, optional={"wound", "bleeding"}),
    EventKind("weapon_damage", "A weapon or shield takes damage (special effect Damage weapon, fumbles).", {
        "item": (str, "weapon id of the item"),
        "amount": (int, "damage before the item's armour points"),
        "result": (str, "held, damaged or broken"),
    }),
    EventKind("impaled", "An impaling weapon stays in the wound, is pulled free, or a missile is extracted.", {
        "result": (str, "left_in, stuck, pulled_free or extracted"),
        "location": (str, "where it is stuck (left_in, stuck)"),
        "extra": (int, "the damage rolled pulling it out (pulled_free, extracted)"),
    }, optional={"location", "extra"}),
    EventKind("knockback", "A blow knocks the target back (option knockback).", {
        "result": (str, "pushed, fell or braced (a rider bracing on its mount)"),
        "metres": (int, "metres knocked back (0 when braced)"),
    }),
    EventKind("bash", "Special effect Bash: the target is pushed back (and may fall).", {
        "result": (str, "pushed, fell or unaffected (a target far larger than the user)"),
        "metres": (int, "metres pushed back (not when unaffected)"),
    }, optional={"metres"}),
    EventKind("disarmed", "Special effect Disarm: the target's weapon flies off.", {
        "result": (str, "dropped"),
    }),
    EventKind("entangled", "Special effect Entangle: the target is held at a location.", {
        "result": (str, "entangled"),
        "location": _LOCATION,
    }),
    EventKind("tripped", "Special effect Trip (or a trip test won): the target falls prone.", {
        "result": (str, "prone"),
    }),
    EventKind("fumble", "A fumble and the row of its table.", {
        "table": (str, "melee, missile or natural"),
        "face": (int, "the d20 on the table"),
        "result": (str, "the row's name (weapon dropped, trip, stagger, roll twice, ...)"),
    }),
    EventKind("armour_lost", "A fumble costs a piece of armour.", {
        "location": _LOCATION,
    }),
    EventKind("dismounted", "A rider whose mount is out of the fight is thrown (the mount is the target).", {
        "result": (str, "prone, or out (the rider was already out of the fight)"),
    }, rare="only lancer_charge has a mount, and random fights seldom take it out under its rider"),
    EventKind("natural_attack", "A creature with several attacks strikes with one of its further natural "
              "weapons on this Combat Action (the attack line follows).", {
        "weapon": (str, "weapon id of the natural weapon (bite, claw, gore, head_butt, ...)"),
        "skill": (int, "that weapon's own skill in %"),
    }, rare="no shipped scenario has a creature with several natural weapons"),
    EventKind("mount_bolts", "A mount whose rider is out of the fight bolts from the field (the rider is the "
              "target).", {
        "result": (str, "fled"),
    }),
])

#: events the shipped scenarios never produce, checked against their declaration and told in both languages
#: (tests/conformance/test_event_catalogue.py)
EXAMPLES: list[Event] = [
    Event("natural_attack", 1, 0, 1, {"weapon": "bite", "skill": 50}),
]
