"""ose: everything of this rules system (rules engine, encoder, scripted agents, words), one package."""

from npc_tactics.plugin import System

__all__ = ["SYSTEM"]

#: the system's plugin: its names and where each of its parts lives (see :mod:`npc_tactics.plugin`)
SYSTEM = System(
    package=__name__,
    name="ose",
    title="Old-School Essentials (B/X)",
    gym_id="npc_tactics/OSE-v0",
    default_scenario="goblin_duel",
    engine="npc_tactics.systems.ose.rules.engine:OSEEngine",
    encoder="npc_tactics.systems.ose.encoder:OSEEncoder",
    agents="npc_tactics.systems.ose.agents",
    content="npc_tactics.systems.ose.rules.content",
    events="npc_tactics.systems.ose.events:EVENTS",
    situation_fields="npc_tactics.systems.ose.rules.situation_fields:FIELDS",
    words="npc_tactics.systems.ose.words:WORDS",
    tactics="npc_tactics.systems.ose.tactics:TACTICS",
    card="npc_tactics.systems.ose.card:CARD",
    unusual="npc_tactics.systems.ose.unusual:UNUSUAL",
    tracker_order="npc_tactics.systems.ose.tracker_order:order",
    form="npc_tactics.systems.ose.form",
    encounter="npc_tactics.systems.ose.encounter:ADAPTER",
    importers=(("foundry-ose", "npc_tactics.systems.ose.foundry:import_file",
                "an actor (monster or character) exported from Foundry VTT's OSE system (vttred/ose)"),),
)
