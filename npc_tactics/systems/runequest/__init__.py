"""runequest: everything of this rules system (rules engine, encoder, scripted agents, words), one package."""

from npc_tactics.plugin import System

__all__ = ["SYSTEM"]

#: the system's plugin: its names and where each of its parts lives (see :mod:`npc_tactics.plugin`)
SYSTEM = System(
    package=__name__,
    name="runequest",
    title="RuneQuest: Roleplaying in Glorantha",
    gym_id="npc_tactics/RuneQuest-v0",
    default_scenario="parry_duel",
    engine="npc_tactics.systems.runequest.rules.engine:RuneQuestEngine",
    encoder="npc_tactics.systems.runequest.encoder:RuneQuestEncoder",
    agents="npc_tactics.systems.runequest.agents",
    content="npc_tactics.systems.runequest.rules.content",
    events="npc_tactics.systems.runequest.events:EVENTS",
    situation_fields="npc_tactics.systems.runequest.rules.situation_fields:FIELDS",
    words="npc_tactics.systems.runequest.words:WORDS",
    tactics="npc_tactics.systems.runequest.tactics:TACTICS",
    card="npc_tactics.systems.runequest.card:CARD",
    unusual="npc_tactics.systems.runequest.unusual:UNUSUAL",
    tracker_order="npc_tactics.systems.runequest.tracker_order:order",
    form="npc_tactics.systems.runequest.form",
    encounter="npc_tactics.systems.runequest.encounter:ADAPTER",
)
