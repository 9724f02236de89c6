"""The events the dice-pool engine emits (``rules/``), each kind with its data fields; see
:mod:`npc_tactics.rules.events`.

Actor and target follow the engine: the one who acts and the one it acts on (``status``: the combatant whose
status changed is the actor). Locations are ``head``, ``torso``, ``pelvis`` and the limbs (``left_arm``, ...).
"""

from __future__ import annotations

from npc_tactics.rules.events import EventCatalogue, EventKind

__all__ = ["EVENTS"]

EVENTS = EventCatalogue("dicepool", [
    EventKind("round_start", "A new game turn begins (initiative follows).", {
        "result": (str, "always ''"),
    }),
    EventKind("initiative", "A combatant's initiative roll and the action ranks it gives.", {
        "successes": (int, "successes rolled"),
        "ranks": (list, "the ranks at which it acts this turn"),
        "result": (str, "<n>_actions: how many actions it has"),
    }),
    EventKind("action", "A combatant's action of this slot (repeats the choice: verbose only).", {
        "result": (str, "its verb: strike, shoot, aim, advance, withdraw, run, draw, reload, posture, cover, "
                        "mount, wait"),
    }),
    EventKind("split", "An attacker moves dice of its pool to DEFENSE (repeats the choice: verbose only).", {
        "dice": (int, "dice moved to DEFENSE"),
        "pool": (int, "the whole pool"),
        "next": (str, "what the choice is followed by: enemy, ally, self or new_turn"),
        "result": (str, "all_attack, all_defense or mixed"),
    }),
    EventKind("aim", "A shooter aims at its target (a bonus to its next shot).", {
        "result": (str, "aimed"),
    }),
    EventKind("posture", "A combatant changes posture or takes cover.", {
        "result": (str, "standing, kneeling, prone, cover_half or cover_three_quarters"),
    }),
    EventKind("free_blow", "A disengaging enemy gives a free blow (house rule H6).", {
        "result": (str, "disengage"),
    }),
    EventKind("attack", "A melee blow or a shot: successes rolled against those needed.", {
        "mode": (str, "weapon, brawl (melee) or ranged"),
        "result": (str, "hit, miss, or forfeit (no dice left to attack with)"),
        "dice": (int, "dice rolled (not when forfeit)"),
        "successes": (int, "successes, with the aim bonus (not when forfeit)"),
        "needed": (int, "successes needed to hit (not when forfeit)"),
        "bonus": (int, "the aim bonus (ranged only)"),
        "band": (str, "range band: short, medium, long or extreme (ranged only)"),
        "located": (str, "the location aimed at, weapon, or '' (ranged only)"),
    }, optional={"dice", "successes", "needed", "bonus", "band", "located"}),
    EventKind("disarm", "A shot aimed at the weapon knocks it away.", {
        "weapon": (str, "weapon id lost ('' with none)"),
        "result": (str, "disarmed"),
    }),
    EventKind("damage", "Damage at one location, after armour.", {
        "amount": (int, "hit points lost there"),
        "absorbed": (int, "points armour absorbed"),
        "location": (str, "hit location id"),
        "spread": (bool, "the lightning spread to this location through metal"),
        "result": (str, "wound, serious or absorbed"),
    }),
    EventKind("status", "A combatant's status changes (the combatant is the actor).", {
        "status": (str, "unconscious, dead or fled"),
        "result": (str, "the same as status"),
    }),
])
