"""The registry of rules systems: where each system's engine, encoder, agents and content live.

Entries are import strings so that listing systems imports nothing heavy. A system package provides:

* ``engine``: an :class:`~npc_tactics.rules.base.Engine` subclass;
* ``encoder``: an :class:`~npc_tactics.encoders.base.Encoder` subclass (observation vector, documented fields);
* ``agents``: a module with ``AGENTS: dict[str, AgentEntry]`` (scripted opponents, see ``agents/base.py``);
* ``content``: a module with ``list_scenarios() -> list[tuple[str, str]]`` (name, one-line description),
  ``load_scenario(name_or_path) -> scenario`` accepted by ``engine.new_combat`` and
  ``load_situation(engine, path_or_mapping, roller) -> state`` (a GM's description of a fight in progress,
  returned at the acting NPC's decision). Both raise :class:`~npc_tactics.errors.ConfigError`.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

from npc_tactics.errors import UnknownNameError


@dataclass(frozen=True)
class SystemInfo:
    name: str
    title: str
    gym_id: str
    engine: str
    encoder: str
    agents: str
    content: str
    default_scenario: str

    def load(self, attr: str) -> Any:
        """Import the object named by one of the import-string fields (``module:attr`` or ``module``)."""
        target = getattr(self, attr)
        module, _, name = target.partition(":")
        mod = importlib.import_module(module)
        return getattr(mod, name) if name else mod


SYSTEMS: dict[str, SystemInfo] = {
    "ose": SystemInfo(
        name="ose",
        title="Old-School Essentials (B/X)",
        gym_id="npc_tactics/OSE-v0",
        engine="npc_tactics.rules.ose.engine:OSEEngine",
        encoder="npc_tactics.encoders.ose:OSEEncoder",
        agents="npc_tactics.agents.ose",
        content="npc_tactics.rules.ose.content",
        default_scenario="goblin_duel",
    ),
    "runequest": SystemInfo(
        name="runequest",
        title="RuneQuest: Roleplaying in Glorantha",
        gym_id="npc_tactics/RuneQuest-v0",
        engine="npc_tactics.rules.runequest.engine:RuneQuestEngine",
        encoder="npc_tactics.encoders.runequest:RuneQuestEncoder",
        agents="npc_tactics.agents.runequest",
        content="npc_tactics.rules.runequest.content",
        default_scenario="parry_duel",
    ),
    "mrq": SystemInfo(
        name="mrq",
        title="Mongoose RuneQuest, opposed-test variant",
        gym_id="npc_tactics/MRQ-v0",
        engine="npc_tactics.rules.mrq.engine:MRQEngine",
        encoder="npc_tactics.encoders.mrq:MRQEncoder",
        agents="npc_tactics.agents.mrq",
        content="npc_tactics.rules.mrq.content",
        default_scenario="shield_vs_greataxe",
    ),
    "dicepool": SystemInfo(
        name="dicepool",
        title="Dice-pool system (Haru'Rak'Zall)",
        gym_id="npc_tactics/DicePool-v0",
        engine="npc_tactics.rules.dicepool.engine:DicePoolEngine",
        encoder="npc_tactics.encoders.dicepool:DicePoolEncoder",
        agents="npc_tactics.agents.dicepool",
        content="npc_tactics.rules.dicepool.content",
        default_scenario="melee_duel",
    ),
}


def available_systems() -> dict[str, SystemInfo]:
    """Every registered system (all four ship complete; a broken import is a bug and must surface)."""
    return dict(SYSTEMS)


def get_system(name: str) -> SystemInfo:
    """The registered system called ``name``; an unknown name lists the valid ones."""
    info = SYSTEMS.get(name)
    if info is None:
        raise UnknownNameError("system", name, SYSTEMS)
    return info


def make_engine(system: str, options: dict[str, Any] | None = None) -> Any:
    return get_system(system).load("engine")(options)
