"""The keys a dice-pool situation reads, declared once (:mod:`npc_tactics.rules.situation_fields`): the loader
(:func:`.content.load_plain_situation`) takes its key lists from them and reads the simple values through them,
the web page draws the labelled ones, ``docs/dicepool.md`` prints the table.

A dice-pool situation is a whole scenario in progress: every scenario key is declared at the top (a situation
reads some of them its own way: ``max_rounds`` is at least ``round``), plus the keys it adds. A side takes the
scenario's keys only; a combatant takes a scenario combatant's keys (template or stat_block, position, posture,
cover, readied...) plus the ones declared here.
"""

from __future__ import annotations

from npc_tactics.configs import validate as V
from npc_tactics.rules.base import Status
from npc_tactics.rules.situation_fields import SituationField as F
from npc_tactics.rules.situation_fields import SituationFields
from npc_tactics.systems.dicepool.rules import tables as T

__all__ = ["FIELDS", "STATUS_NAMES"]

#: the statuses a GM may write, in the engine's order (the page's too)
STATUS_NAMES = tuple(s.name.lower() for s in Status)

FIELDS = SituationFields((
    F("name", "situation", "any", "a scenario's name: accepted and not read (a scenario in progress keeps it)"),
    F("description", "situation", "any", "a scenario's description: accepted and not read"),
    F("max_rounds", "situation", "int", "the game turns the fight may last, at least round; not given: 20, or round "
      "if later", low=1, high=1000, default=20),
    F("escape_distance", "situation", "number", "as in a scenario: how far from every active enemy a withdrawal "
      "flees the fight (H2)", unit="m", low=1, high=2 * V.MAX_METRES, default=40.0),
    F("options", "situation", "mapping", "rules options, as in a scenario (the options given to the engine win); "
      "not given or empty: the defaults"),
    F("sides", "situation", "list", "two sides (side 0 = the NPCs), as in a scenario, whose combatants may also "
      "give the combatant keys below", required=True),
    F("round", "situation", "int", "the game turn being played; not given: 1 (said in the notes)", low=1, high=1000,
      default=1, label="Round"),
    F("acting", "situation", "name", "the NPC whose decision is wanted: it holds the current slot", required=True),
    F("then", "situation", "list", "the names holding the rest of this game turn's slots, in order (an order the "
      "initiative rules of §3 can give, active combatants only); not given: a new game turn (new initiative roll) "
      "starts after acting (said in the notes)"),
    F("pending", "situation", "mapping", "the decision asked about once acting has chosen its action: "
      "`{split: {target: Varo}}` (it strikes Varo: the dice it moves to DEFENSE, D5) or `{aim: {target: Varo}}` (it "
      "shoots at Varo: where it aims, §7); not given: the choice of its action"),
    F("location_hp", "combatant", "mapping", f"HP left per location ({', '.join(T.LOCATIONS)}), each from minus the "
      "location's max to its max; a location left out is unhurt; not given: unhurt (said in the notes)", unit="HP"),
    F("defense_dice", "combatant", "int", "dice of its melee pool held in DEFENSE (D5), at most that pool",
      unit="dice", low=0, high=T.MAX_POOL, default=0, label="Dice in DEFENSE"),
    F("aim_target", "combatant", "name", "the enemy it is aiming at with a readied ranged weapon (D7); not given: "
      "aiming at nobody"),
    F("moving", "combatant", "bool", "it is moving (+1 DEFENSE against shots), so it stands and has left its cover "
      "(no posture, no concealment)", default=False),
    F("status", "combatant", "choice", "its standing in the fight; not given: what its location_hp make it (D16, "
      "said in the notes when not active); active with wounds that put it out is refused", choices=STATUS_NAMES),
    F("facing", "combatant", "name", "the name of the other combatant it faces; not given: the nearest enemy (D6)"),
))
