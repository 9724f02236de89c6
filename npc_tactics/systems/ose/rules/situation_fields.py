"""The keys an OSE situation adds to a scenario, declared once (:mod:`npc_tactics.rules.situation_fields`): the
loader (:mod:`.situation`) reads them, the web page draws the labelled ones, ``docs/ose.md`` prints the table."""

from __future__ import annotations

from npc_tactics.rules.situation_fields import SituationField as F
from npc_tactics.rules.situation_fields import SituationFields
from npc_tactics.systems.ose.rules.tables import MORALE_PASSES_TO_FEARLESS

__all__ = ["DECLARATIONS", "FIELDS", "MAX_HP_LIMIT", "MORALE_CHECKS", "PHASES", "STATUS_NAMES"]

PHASES = ("declare", "move", "missile", "melee")
DECLARATIONS = ("none", "withdraw", "retreat")
MORALE_CHECKS = ("first_death", "half_down")
#: the statuses a GM may write, in the page's order (their engine statuses: :data:`.situation.STATUSES`)
STATUS_NAMES = ("active", "dead", "fled", "held", "asleep", "unconscious", "surrendered")
MAX_HP_LIMIT = 1000

FIELDS = SituationFields((
    F("scenario", "situation", "scenario",
      "a shipped scenario's name, a path, or a scenario inline: the field, options and round cap default to it"),
    F("round", "situation", "int", "the round being played (at most the scenario's max_rounds)", low=1, high=1000,
      default=1, label="Round"),
    F("acting", "situation", "name", "the combatant whose decision is wanted", required=True),
    F("phase", "situation", "choice",
      "the step of the round waiting for the acting NPC; not given: the first step where it has a real choice "
      "(for move, missile and melee its side is taken to have won initiative)",
      choices=PHASES, label="Pending decision"),
    F("max_rounds", "situation", "int", "as in a scenario (default: the scenario's)", low=1, high=1000),
    F("escape_distance", "situation", "number", "as in a scenario", unit="m"),
    F("field_length", "situation", "number", "as in a scenario (0 = unbounded)", unit="m"),
    F("cover", "situation", "list", "as in a scenario: `{at, level}` entries"),
    F("daylight", "situation", "bool", "as in a scenario"),
    F("options", "situation", "mapping", "rules options, as in a scenario (the command line's win)"),
    F("sides", "situation", "list", "two sides, as in a scenario, with the side and combatant keys below",
      required=True),
    F("morale_checked", "side", "list",
      f"the side's morale checks already made ({', '.join(MORALE_CHECKS)}); not given: each check whose trigger "
      "happened is taken as made"),
    F("hp", "combatant", "int",
      "current hit points, at least 1 (0 or less with status dead); not given: max_hp if given (unhurt), else "
      "rolled from the template"),
    F("max_hp", "combatant", "int",
      "maximum hit points; not given: the template's average (or hp if higher)", low=1, high=MAX_HP_LIMIT),
    F("status", "combatant", "choice", "what the combatant is doing now (held and asleep: incapacitated)",
      choices=STATUS_NAMES, default="active"),
    F("declared", "combatant", "choice", "what it declared this round", choices=DECLARATIONS, default="none",
      label="Declared", what="declaration"),
    F("morale_passed", "combatant", "int", "morale checks it has passed (two: it fights to the death)", low=0,
      high=MORALE_PASSES_TO_FEARLESS),
    F("regenerating_from", "combatant", "int",
      "a regenerator: the round at whose end it first regains hit points (not given, wounded: already)", low=1,
      high=1000),
    F("burnt", "combatant", "int",
      "a regenerator: fire or acid damage it cannot regenerate (at most the hit points it lost)", low=0),
))
