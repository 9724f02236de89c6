"""The registry of rules systems: the one list of systems, and where each one's parts live.

Each system is one package, ``npc_tactics/systems/<name>/`` (its rules engine, encoder, scripted agents, words);
this module is the only shared file that names them. Entries are import strings, so that listing systems imports
nothing heavy and no shared module imports a system's code statically (the layers contract keeps ``systems``
above the shared layers). A system package provides:

* ``engine``: an :class:`~npc_tactics.rules.base.Engine` subclass;
* ``encoder``: an :class:`~npc_tactics.encoders.base.Encoder` subclass (observation vector, documented fields);
* ``agents``: a module with ``AGENTS: dict[str, AgentEntry]`` (scripted opponents, see ``agents/base.py``);
* ``content``: a module with ``list_scenarios() -> list[tuple[str, str]]`` (name, one-line description),
  ``load_scenario(name_or_path) -> scenario`` accepted by ``engine.new_combat`` and
  ``load_situation(engine, path_or_mapping, roller) -> state`` (a GM's description of a fight in progress,
  returned at the acting NPC's decision). Both raise :class:`~npc_tactics.errors.ConfigError`;
* ``naming``: a module with ``label(words, spec) -> str`` (a move in a GM's words, :mod:`npc_tactics.gm.naming`);
* ``narrate``: a module with ``SENTENCES`` (its event kinds told in plain words, :mod:`npc_tactics.gm.narrate`);
* ``summary``: a module with ``details(state, i, _)`` (one combatant in the GM's summary,
  :mod:`npc_tactics.gm.summary`);
* ``form``: a module with ``FORM`` and ``templates()`` (the web page's situation form, :mod:`npc_tactics.gm.forms`);
* ``encounter``: an :class:`~npc_tactics.encounters.adapters.Adapter` (what the encounter builder composes);
* ``decision_facts``: ``(state, decision) -> dict`` of facts the tactics report adds to each watched decision
  (OSE: whether the actor is in melee; :mod:`npc_tactics.evaluation.tactics`).

An empty string is a part the system does not provide (the test fake leaves the GM's parts out).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

from npc_tactics.errors import UnknownNameError, UserError


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
    naming: str = ""
    narrate: str = ""
    summary: str = ""
    form: str = ""
    encounter: str = ""
    decision_facts: str = ""

    def load(self, attr: str) -> Any:
        """Import the object named by one of the import-string fields (``module:attr`` or ``module``)."""
        target = getattr(self, attr)
        if not target:
            raise UserError(f"the {self.name} system provides no {attr}")
        module, _, name = target.partition(":")
        mod = importlib.import_module(module)
        return getattr(mod, name) if name else mod


SYSTEMS: dict[str, SystemInfo] = {
    "ose": SystemInfo(
        name="ose",
        title="Old-School Essentials (B/X)",
        gym_id="npc_tactics/OSE-v0",
        engine="npc_tactics.systems.ose.rules.engine:OSEEngine",
        encoder="npc_tactics.systems.ose.encoder:OSEEncoder",
        agents="npc_tactics.systems.ose.agents",
        content="npc_tactics.systems.ose.rules.content",
        naming="npc_tactics.systems.ose.naming",
        narrate="npc_tactics.systems.ose.narrate",
        summary="npc_tactics.systems.ose.summary",
        form="npc_tactics.systems.ose.form",
        encounter="npc_tactics.systems.ose.encounter:ADAPTER",
        decision_facts="npc_tactics.systems.ose.tactics:decision_facts",
        default_scenario="goblin_duel",
    ),
    "runequest": SystemInfo(
        name="runequest",
        title="RuneQuest: Roleplaying in Glorantha",
        gym_id="npc_tactics/RuneQuest-v0",
        engine="npc_tactics.systems.runequest.rules.engine:RuneQuestEngine",
        encoder="npc_tactics.systems.runequest.encoder:RuneQuestEncoder",
        agents="npc_tactics.systems.runequest.agents",
        content="npc_tactics.systems.runequest.rules.content",
        naming="npc_tactics.systems.runequest.naming",
        narrate="npc_tactics.systems.runequest.narrate",
        summary="npc_tactics.systems.runequest.summary",
        form="npc_tactics.systems.runequest.form",
        encounter="npc_tactics.systems.runequest.encounter:ADAPTER",
        default_scenario="parry_duel",
    ),
    "mrq": SystemInfo(
        name="mrq",
        title="Mongoose RuneQuest, opposed-test variant",
        gym_id="npc_tactics/MRQ-v0",
        engine="npc_tactics.systems.mrq.rules.engine:MRQEngine",
        encoder="npc_tactics.systems.mrq.encoder:MRQEncoder",
        agents="npc_tactics.systems.mrq.agents",
        content="npc_tactics.systems.mrq.rules.content",
        naming="npc_tactics.systems.mrq.naming",
        narrate="npc_tactics.systems.mrq.narrate",
        summary="npc_tactics.systems.mrq.summary",
        form="npc_tactics.systems.mrq.form",
        encounter="npc_tactics.systems.mrq.encounter:ADAPTER",
        default_scenario="shield_vs_greataxe",
    ),
    "dicepool": SystemInfo(
        name="dicepool",
        title="Dice-pool system (Haru'Rak'Zall)",
        gym_id="npc_tactics/DicePool-v0",
        engine="npc_tactics.systems.dicepool.rules.engine:DicePoolEngine",
        encoder="npc_tactics.systems.dicepool.encoder:DicePoolEncoder",
        agents="npc_tactics.systems.dicepool.agents",
        content="npc_tactics.systems.dicepool.rules.content",
        naming="npc_tactics.systems.dicepool.naming",
        narrate="npc_tactics.systems.dicepool.narrate",
        summary="npc_tactics.systems.dicepool.summary",
        form="npc_tactics.systems.dicepool.form",
        encounter="npc_tactics.systems.dicepool.encounter:ADAPTER",
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
