"""The keys an MRQ situation adds to a scenario, declared once (:mod:`npc_tactics.rules.situation_fields`): the
loader (:mod:`.situation`) reads them, the web page draws the labelled ones, ``docs/mrq.md`` prints the table.

The order of each scope is the loader's: an unknown key's error lists the valid keys in this order."""

from __future__ import annotations

from npc_tactics.rules.base import Status
from npc_tactics.rules.situation_fields import SituationField as F
from npc_tactics.rules.situation_fields import SituationFields
from npc_tactics.systems.mrq.rules.tables import DISTANCE_NAMES, MAX_GAP

__all__ = ["FIELDS", "MAX_LOST_CA", "MOUNT_KEYS", "STATUS_NAMES", "WEAPON_STATES"]

#: the statuses a GM may write: the engine's own, in its order
STATUS_NAMES: tuple[str, ...] = tuple(s.name.lower() for s in Status)
WEAPON_STATES = ("ready", "dropped", "broken")
#: what a situation says of a rider's mount (§13): the combatant keys a mount has of its own, read as a combatant's
MOUNT_KEYS = ("locations", "status", "useless", "reactions")
MAX_LOST_CA = 10

FIELDS = SituationFields((
    F("round", "situation", "int", "the round being played (at most max_rounds); not given: 1 (said in the notes)",
      low=1, high=1000, default=1, label="Round"),
    F("acting", "situation", "name", "the combatant whose Combat Action is wanted", required=True),
    F("distance", "situation", "choice",
      "the band between every pair of opponents that `distances` does not name; not given: long (said in the notes "
      "when `distances` is not given either)",
      choices=DISTANCE_NAMES, default="long", form_default="close", label="Distance"),
    F("range", "situation", "int", "metres between opponents who are apart (missiles, §11)", unit="m", low=0,
      high=MAX_GAP, default=0),
    F("distances", "situation", "list",
      "one pair of opponents' own band: `{a, b, distance, metres?}` entries (metres only when apart)"),
    F("options", "situation", "mapping", "rules options, as in a scenario; not given: the system's defaults"),
    F("max_rounds", "situation", "int", "the round cap, as in a scenario", low=1, high=1000, default=20),
    F("sides", "situation", "list",
      "two sides, as in a scenario (`name`, `combatants`), each combatant with the combatant keys below",
      required=True),
    F("name", "situation", "text", "the situation's name", default="situation"),
    F("description", "situation", "text", "a free description (not used by the rules)"),
    F("pending", "situation", "mapping",
      "the decision asked about when it is not the acting NPC's next Combat Action: one of `incoming` (its "
      "Reaction), `effects` or `impale` (see docs/suggest.md)"),
    F("locations", "combatant", "mapping",
      "current HP per hit location (from minus its maximum, the Major Wound floor, up to its maximum); not given: "
      "unhurt (said in the notes)"),
    F("prone", "combatant", "bool", "lying on the ground", default=False, label="Prone"),
    F("weapon", "combatant", "choice", "the state of its main weapon", choices=WEAPON_STATES, default="ready",
      label="Weapon", what="weapon state"),
    F("reactions", "combatant", "int",
      "Reactions left this round (at most one per Combat Action or the stat block's number, +1 with a shield); "
      "not given: all of them (said in the notes for an active one)", low=0, high=10, label="Reactions left"),
    F("lost_ca", "combatant", "int",
      "Combat Actions it still has to lose: its next ones are skipped, over rounds (A14)", low=0, high=MAX_LOST_CA,
      default=0),
    F("status", "combatant", "choice",
      "its standing in the fight (one with a location at a Major Wound cannot be active)", choices=STATUS_NAMES,
      default="active"),
    F("useless", "combatant", "list",
      "limbs made useless, each at 0 HP or below (never the head, chest or abdomen); not given: none"),
    F("ammo", "combatant", "int", "missiles left (at most its template's); not given: its template's ammo",
      low=0, high=100),
    F("mount", "combatant", "mapping",
      f"a rider's mount: its own {', '.join(f'`{k}`' for k in MOUNT_KEYS)} as above (the quadruped's locations); "
      "out of the fight, it has thrown its rider; not given: unhurt and under its rider (said in the notes)"),
))
