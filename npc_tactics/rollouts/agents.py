"""Who plays each side of a rollout: an agent *spec* (a scripted agent's name, a bundle folder, a trained run
folder, ``card:BUNDLE_DIR`` or ``search:POLICY[@BUDGET]``) turned into a per-rollout agent factory.

Specs travel to worker processes as strings, never as loaded objects: each worker loads a bundle or run once
(onnxruntime sessions and torch models do not survive a fork well and cannot be pickled cheaply), and scripted
agents are rebuilt per rollout with that rollout's own RNG stream, so a rollout's result depends only on its
seed and never on which worker ran it or what that worker ran before.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from npc_tactics.agents import agent_entries
from npc_tactics.agents.base import Agent
from npc_tactics.agents.resolve import is_search_spec, parse_search_spec
from npc_tactics.errors import ConfigError, UnknownNameError
from npc_tactics.plugin import System

__all__ = ["AgentBuilder", "agent_builder", "check_spec", "is_bundle"]

#: ``(engine, rng) -> agent`` for one rollout.
AgentBuilder = Callable[[Any, np.random.Generator], Agent]


def is_bundle(spec: str) -> bool:
    """A spec names a policy bundle when it is a folder holding ``schema.json``."""
    return (Path(spec) / "schema.json").is_file()


def check_spec(system: System, spec: str) -> None:
    """Fail early (one line naming the spec) when ``spec`` is neither a scripted agent of ``system`` nor a
    bundle or run folder, a card or a search over one of them."""
    if spec in agent_entries(system):
        return
    if is_search_spec(spec):
        check_spec(system, parse_search_spec(spec)[0])
        return
    if spec.startswith("card:"):
        if not (Path(spec.removeprefix("card:")) / "schema.json").is_file():
            raise ConfigError(spec, "", "expected card:BUNDLE_DIR naming a bundle folder (schema.json)")
        return
    path = Path(spec)
    if not path.is_dir():
        raise UnknownNameError("agent", spec, agent_entries(system))
    if not is_bundle(spec) and not (path / "config.yaml").is_file():
        raise ConfigError(spec, "", "expected a scripted agent name, a bundle folder (schema.json) or a trained "
                                    "run folder (config.yaml)")


def agent_builder(system: System, spec: str) -> AgentBuilder:
    """Build ``spec`` for ``system`` (see :func:`check_spec`): a scripted agent is rebuilt per fight with the
    fight's own stream; a loaded policy (bundle, run folder, ``card:BUNDLE_DIR``) plays deterministically (its
    most probable legal move) and is shared by the fights of one process."""
    entries = agent_entries(system)
    if spec in entries:
        factory = entries[spec].factory
        return lambda engine, rng: factory(engine, rng)
    check_spec(system, spec)
    if is_search_spec(spec):  # seeded per rollout like a scripted agent; its policy is loaded once
        from npc_tactics.agents.resolve import factory_of

        return factory_of(system, spec)
    agent: Agent
    if is_bundle(spec):
        from npc_tactics.policy_io.onnx_agent import load_bundle_agent

        agent = load_bundle_agent(spec, deterministic=True)
    else:
        from npc_tactics.agents.resolve import resolve_agent

        agent = resolve_agent(system, spec, None, np.random.default_rng(0))  # a run folder or a card
    trained_for = getattr(agent, "system", system.name)
    if trained_for != system.name:
        raise ConfigError(spec, "system", f"this policy plays {trained_for!r}, not {system.name!r}")
    return lambda engine, rng: agent
