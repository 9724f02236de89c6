"""The events the OSE engine emits (``rules/``), each kind with its data fields; see :mod:`npc_tactics.rules.events`.

Actor and target follow the engine: the one who acts, and the one it acts on (``status``: the combatant whose
status changed is the actor). Squares are grid squares of the engine (``rules/tables.py``: ``SQUARE_M``).
"""

from __future__ import annotations

from npc_tactics.rules.events import EventCatalogue, EventKind
from npc_tactics.systems.ose.events_effects import EFFECT_EVENTS, EFFECT_EXAMPLES
from npc_tactics.systems.ose.events_spells import SPELL_EVENTS, SPELL_EXAMPLES

__all__ = ["EVENTS", "EXAMPLES"]

_SPELL = (str, "spell id: magic_missile, sleep, cure_light_wounds, hold_person")
_SIDE_RESULT = (str, "side_0, side_1 (the side that goes first), tie")

EVENTS = EventCatalogue("ose", [
    EventKind("round_start", "A new round begins (before declarations and initiative).", {
        "round": (int, "the round number"),
    }),
    EventKind("surprise", "The surprise roll before round 1 (option surprise).", {
        "result": (str, "none, side_0 or side_1: the side that is surprised"),
        "rolls": (list, "the d6 of each side"),
    }),
    EventKind("initiative", "The initiative roll of the round, by side or by combatant.", {
        "result": (str, "side_0, side_1, tie, or individual (option initiative: individual)"),
        "rolls": (list, "each side's d6, or each combatant's score"),
    }),
    EventKind("move_order", "Tied sides roll to see who moves first (A3b).", {
        "result": _SIDE_RESULT,
        "rolls": (list, "each tied side's d6"),
    }),
    EventKind("declare", "A combatant declares a spell, a fighting withdrawal or a retreat before initiative.", {
        "result": (str, "cast, withdraw or retreat"),
        "spell": _SPELL,
    }, optional={"spell"}),
    EventKind("move", "A combatant moves: closing on a target (perhaps charging), withdrawing, retreating, away.", {
        "result": (str, "close, withdraw, retreat or away"),
        "start": (int, "the square it starts from"),
        "end": (int, "the square it ends on"),
        "charge": (bool, "a charge (close only)"),
    }, optional={"charge"}),
    EventKind("set_vs_charge", "A spear or polearm is set against a charger and strikes first (option "
              "set_vs_charge).", {
        "result": (str, "set"),
    }, rare="needs the set_vs_charge option, a braced weapon and a charge in reach"),
    EventKind("attack", "A melee or missile attack roll.", {
        "result": (str, "hit, miss, natural_1 or natural_20"),
        "roll": (int, "the d20"),
        "total": (int, "the d20 with the attack modifiers"),
        "need": (int, "the total needed to hit"),
        "missile": (bool, "a missile attack"),
        "range": (str, "short, medium, long (missile) or melee"),
        "weapon": (str, "weapon id, or a monster's attack form (claw, bite ...)"),
        "backstab": (bool, "a thief's back-stab: +4 to hit, double damage (an unaware target)"),
    }, optional={"backstab"}),
    EventKind("immune", "A hit on a creature immune to that kind of attack does nothing (§9.4).", {
        "attack": (str, "melee or missile"),
        "result": (str, "no_damage"),
    }, rare="no shipped scenario pits an attack against a creature immune to it"),
    EventKind("damage", "Hit points lost.", {
        "amount": (int, "hit points lost (never more than were left)"),
        "rolled": (int, "the damage dealt before the hit points ran out"),
        "hp": (int, "hit points left"),
        "cause": (str, "melee, missile or magic_missile; constriction, digestion (rules/holds.py)"),
    }),
    EventKind("heal", "Cure Light Wounds restores hit points.", {
        "amount": (int, "hit points regained"),
        "hp": (int, "hit points now"),
        "result": (str, "healed"),
    }),
    EventKind("spell", "A declared spell is cast (or finds its target gone).", {
        "spell": _SPELL,
        "result": (str, "cast or no_target"),
    }),
    EventKind("spell_disrupted", "A caster hit or taken out before its turn loses the declared spell (§7).", {
        "spell": _SPELL,
        "cause": (str, "what disrupted it: hit or a status change's cause"),
        "result": (str, "disrupted"),
    }),
    EventKind("sleep", "Sleep takes effect: how many creatures fall asleep.", {
        "result": (str, "asleep or unaffected"),
        "count": (int, "creatures put to sleep"),
        "mode": (str, "single (a lone 4+1 HD target) or group (2d8 HD around the target)"),
    }),
    EventKind("hold", "Hold Person has no hold on its target (not a person).", {
        "result": (str, "unaffected"),
    }, rare="no shipped scenario casts Hold Person at a creature it cannot hold"),
    EventKind("save", "The target's saving throw against a spell (the caster is the target of the event).", {
        "result": (str, "saved or failed"),
        "roll": (int, "the d20"),
        "need": (int, "the saving throw"),
        "modifier": (int, "the modifier to the roll"),
    }),
    EventKind("morale", "A morale check (2d6 against the morale score).", {
        "result": (str, "passed, failed, or never_fights (morale 2)"),
        "roll": (int, "the 2d6 (0 for never_fights)"),
        "morale": (int, "the morale score with the situational modifier"),
    }),
    EventKind("status", "A combatant's status changes (the combatant is the actor).", {
        "status": (str, "dead, fled, incapacitated, surrendered, or active (a troll back on its feet)"),
        "cause": (str, "melee, missile, magic_missile, damage, sleep, hold_person, morale, escaped_distance, "
                       "escaped_edge, a spell's id, or an attack effect: paralysis, poison, petrification, "
                       "energy_drain, regenerating (down), regeneration (back up), swallowed (inside a "
                       "swallower), released (freed from it)"),
        "result": (str, "the same as status"),
    }),
    *EFFECT_EVENTS,
    *SPELL_EVENTS,
])

#: events of the kinds the shipped fights never produce (tests/conformance/test_event_catalogue.py)
EXAMPLES = (*EFFECT_EXAMPLES, *SPELL_EXAMPLES)
