"""mrq: everything of this rules system (rules engine, encoder, scripted agents, words), one package."""

from npc_tactics.plugin import System

__all__ = ["SYSTEM"]

#: the system's plugin: its names and where each of its parts lives (see :mod:`npc_tactics.plugin`)
SYSTEM = System(
    package=__name__,
    name="mrq",
    title="Mongoose RuneQuest, opposed-test variant",
    gym_id="npc_tactics/MRQ-v0",
    default_scenario="shield_vs_greataxe",
    engine="npc_tactics.systems.mrq.rules.engine:MRQEngine",
    encoder="npc_tactics.systems.mrq.encoder:MRQEncoder",
    agents="npc_tactics.systems.mrq.agents",
    content="npc_tactics.systems.mrq.rules.content",
    events="npc_tactics.systems.mrq.events:EVENTS",
    situation_fields="npc_tactics.systems.mrq.rules.situation_fields:FIELDS",
    words="npc_tactics.systems.mrq.words:WORDS",
    tactics="npc_tactics.systems.mrq.tactics:TACTICS",
    card="npc_tactics.systems.mrq.card:CARD",
    unusual="npc_tactics.systems.mrq.unusual:UNUSUAL",
    tracker_order="npc_tactics.systems.mrq.tracker_order:order",
    form="npc_tactics.systems.mrq.form",
    encounter="npc_tactics.systems.mrq.encounter:ADAPTER",
)
