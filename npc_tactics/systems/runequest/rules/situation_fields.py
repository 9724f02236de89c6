"""The keys a RuneQuest situation adds to a scenario, declared once (:mod:`npc_tactics.rules.situation_fields`): the
loader (:mod:`.situation`) reads them, the web page draws the labelled ones, ``docs/runequest.md`` prints the table.

A RuneQuest situation is written as a scenario (its keys: :data:`.scenario.SCENARIO_KEYS`, checked by
:func:`.scenario.validate_scenario`) plus ``round``, ``acting`` and ``pending`` at the top and the combatant keys
below; the scenario keys are declared here too, with the ranges and defaults the scenario check applies.
"""

from __future__ import annotations

from npc_tactics.configs.validate import MAX_METRES
from npc_tactics.rules.situation_fields import SituationField as F
from npc_tactics.rules.situation_fields import SituationFields
from npc_tactics.systems.runequest.rules.poison import DELAY_ROUNDS, MAX_DELAY, MAX_DOSES, MAX_POTENCY

__all__ = ["FIELDS", "MAX_ROUNDS", "MAX_RUNE_POINTS", "PENDING_KINDS", "STATUS_NAMES"]

#: the statuses a GM may write, in the page's order (each is the engine status of the same name)
STATUS_NAMES = ("active", "unconscious", "dead", "fled", "incapacitated")
#: the kinds of a ``pending`` entry (:data:`.pending.KINDS`)
PENDING_KINDS = ("incoming", "aimed_blow", "spell")
#: the most rounds a scenario may last (its ``max_rounds``)
MAX_ROUNDS = 500
#: the most Rune points a stat block may give (:func:`.statblock.check_template`)
MAX_RUNE_POINTS = 50

FIELDS = SituationFields((
    F("round", "situation", "int",
      "the round being played, at most max_rounds; not given: round 1, said in the notes (no surprise penalty "
      "applies after round 1)", low=1, high=1000, default=1, label="Round"),
    F("acting", "situation", "name", "the combatant whose statement of intent (or pending decision) is wanted",
      required=True),
    F("pending", "situation", "mapping",
      f"the decision asked about, one of {', '.join(PENDING_KINDS)} (a blow to parry, dodge or take; the location "
      "of an aimed blow; the points put into a variable spell); not given: the acting NPC's statement of intent"),
    F("name", "situation", "text", "the situation's name, as in a scenario (not given: the file's name)"),
    F("description", "situation", "text", "free text, as in a scenario"),
    F("max_rounds", "situation", "int", "the round cap, as in a scenario", low=1, high=MAX_ROUNDS, default=25),
    F("distance", "situation", "number",
      "metres between the sides: side 0 stands at 0 and side 1 at this distance where a combatant gives no "
      "position (each such placement is said in the notes)", unit="m", low=0, high=2 * MAX_METRES, default=1,
      label="Distance (m) where no position is given"),
    F("surprised", "situation", "int",
      "the side taken by surprise (0 = the NPCs): in round 1 its statements of intent cost extra strike ranks by "
      "the nearest enemy's distance; not given: neither side", low=0, high=1),
    F("options", "situation", "mapping",
      "rules options, as in a scenario (the command line's win, said in the notes)"),
    F("sides", "situation", "list",
      "two sides, side 0 first (the NPCs), as in a scenario, with the combatant keys below", required=True),
    F("hp", "combatant", "int",
      "current total hit points, at most its maximum less the wounds listed (0 or less: status dead or fled); "
      "not given: the maximum less the wounds, said in the notes", unit="HP", low=-50),
    F("wounds", "combatant", "mapping",
      "damage taken per hit location, `{location: damage}` (0..200 each, a limb counted at most twice its HP "
      "against hp); not given: none", unit="HP"),
    F("rune_points", "combatant", "int",
      "Rune points it has now (a stat block field too: the value given replaces the template's); not given: the "
      "stat block's (full), said in the notes", unit="points", low=0, high=MAX_RUNE_POINTS),
    F("status", "combatant", "choice",
      "what the combatant is now (active may not contradict its hp and wounds); not given: what its hp and wounds "
      "make it", choices=STATUS_NAMES, what="status"),
    F("weapon_hp", "combatant", "mapping",
      "hit points left per weapon, `{weapon: hp}` (at most the weapon's own); not given: undamaged", unit="HP"),
    F("bleeding", "combatant", "bool",
      "true: it is bleeding (the bleed-out clock of an abdomen wound starts); not given: not bleeding",
      default=False),
    F("poison_doses", "combatant", "list",
      f"poison doses it carries, not yet taken effect: `[{{potency, rounds}}]` (at most {MAX_DOSES}), each taking "
      "effect at the end of round `round + rounds`; ignored, with a note, on the dead or fled; not given: none",
      high=MAX_DOSES, label="Poison doses",
      items=(F("potency", "item", "int", "the poison's potency (POT), matched against the victim's CON",
               low=1, high=MAX_POTENCY, required=True, label="Potency"),
             F("rounds", "item", "int",
               f"rounds before it takes effect (0: at the end of this round; a sting with the usual "
               f"{DELAY_ROUNDS}-round delay taken k rounds ago: {DELAY_ROUNDS} - k)",
               low=0, high=MAX_DELAY, required=True, label="Rounds to go", form_default=DELAY_ROUNDS))),
))
