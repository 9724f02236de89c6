"""dicepool: everything of this rules system (rules engine, encoder, scripted agents, words), one package."""

from npc_tactics.plugin import System

__all__ = ["SYSTEM"]

#: the system's plugin: its names and where each of its parts lives (see :mod:`npc_tactics.plugin`)
SYSTEM = System(
    package=__name__,
    name="dicepool",
    title="Dice-pool system (Haru'Rak'Zall)",
    gym_id="npc_tactics/DicePool-v0",
    default_scenario="melee_duel",
    engine="npc_tactics.systems.dicepool.rules.engine:DicePoolEngine",
    encoder="npc_tactics.systems.dicepool.encoder:DicePoolEncoder",
    agents="npc_tactics.systems.dicepool.agents",
    content="npc_tactics.systems.dicepool.rules.content",
    events="npc_tactics.systems.dicepool.events:EVENTS",
    situation_fields="npc_tactics.systems.dicepool.rules.situation_fields:FIELDS",
    words="npc_tactics.systems.dicepool.words:WORDS",
    tactics="npc_tactics.systems.dicepool.tactics:TACTICS",
    card="npc_tactics.systems.dicepool.card:CARD",
    unusual="npc_tactics.systems.dicepool.unusual:UNUSUAL",
    tracker_order="npc_tactics.systems.dicepool.tracker_order:order",
    form="npc_tactics.systems.dicepool.form",
    encounter="npc_tactics.systems.dicepool.encounter:ADAPTER",
)
