"""Agents: scripted opponents per system, and wrappers that make trained policies act like agents."""

from __future__ import annotations

from typing import Any

import numpy as np

from npc_tactics.agents.base import RANDOM_ENTRY, Agent, AgentEntry, Observation, RandomLegalAgent
from npc_tactics.errors import UnknownNameError
from npc_tactics.plugin import System

__all__ = ["Agent", "AgentEntry", "Observation", "RandomLegalAgent", "agent_entries", "make_agent"]


def agent_entries(system: System) -> dict[str, AgentEntry]:
    """The scripted agents of ``system`` by name (``random`` always included)."""
    module = system.load("agents")
    entries: dict[str, AgentEntry] = {"random": RANDOM_ENTRY}
    entries.update(getattr(module, "AGENTS", {}))
    return entries


def make_agent(system: System, name: str, engine: Any, rng: np.random.Generator) -> Agent:
    """Build the scripted agent ``name`` of ``system``; unknown names list the valid ones."""
    entries = agent_entries(system)
    if name not in entries:
        raise UnknownNameError("agent", name, entries)
    return entries[name].factory(engine, rng)
