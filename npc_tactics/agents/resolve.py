"""Turn an agent spec from the command line into an agent: a scripted name, a trained run directory,
``card:BUNDLE_DIR`` (a bundle's tactics card) or ``search:POLICY[@BUDGET]`` (decision-time search over the
policy ``POLICY``, any spec but another search, with ``BUDGET`` play-outs a decision: docs/search.md).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from npc_tactics.agents import agent_entries, make_agent
from npc_tactics.agents.base import Agent, AgentFactory
from npc_tactics.errors import ConfigError, UnknownNameError
from npc_tactics.plugin import System
from npc_tactics.policy_io.bundle import is_bundle_dir

__all__ = [
    "AgentFactory",
    "agent_factory",
    "agent_label",
    "factory_of",
    "is_card_spec",
    "is_search_spec",
    "looks_like_path",
    "parse_search_spec",
    "resolve_agent",
    "trained_side",
]


def looks_like_path(spec: str) -> bool:
    """A spec names a run directory when it exists on disk or is written like a path."""
    return Path(spec).exists() or "/" in spec or "\\" in spec or spec.startswith(".")


def _load_policy(system: System, spec: str) -> Agent:
    path = Path(spec)
    if not path.exists():
        raise ConfigError(spec, "", "run directory not found")
    if not path.is_dir():
        raise ConfigError(spec, "", "expected a trained run directory, got a file")
    if is_bundle_dir(path):  # an exported bundle (or ensemble): onnxruntime, no torch
        from npc_tactics.policy_io.bundle import BundleError
        from npc_tactics.policy_io.onnx_agent import load_bundle_agent

        try:
            agent: Any = load_bundle_agent(path)
        except BundleError as exc:
            raise ConfigError(spec, "", str(exc)) from None
        what = "bundle was exported"
    else:
        from npc_tactics.agents.policy import load_policy_agent  # lazy: pulls in torch and SB3

        agent = load_policy_agent(path, deterministic=True)
        what = "run was trained"
    trained_for = getattr(agent, "system", system.name)
    if trained_for != system.name:
        raise ConfigError(
            spec, "system", f"this {what} for {trained_for!r}, not {system.name!r}"
        )
    return agent


def is_card_spec(spec: str) -> bool:
    """``card:BUNDLE_DIR`` names the tactics card of a bundle (see :mod:`npc_tactics.agents.card`)."""
    return spec.startswith("card:")


def _load_card(system: System, spec: str) -> Agent:
    from npc_tactics.agents.card import load_card_agent

    agent = load_card_agent(spec.removeprefix("card:"))
    if agent.system != system.name:
        raise ConfigError(spec, "system", f"this card was made for {agent.system!r}, not {system.name!r}")
    return agent


def is_search_spec(spec: str) -> bool:
    """``search:POLICY[@BUDGET]`` names a search agent over ``POLICY`` (see :mod:`npc_tactics.agents.search`)."""
    return spec.startswith("search:")


def parse_search_spec(spec: str) -> tuple[str, int | None]:
    """``search:POLICY[@BUDGET]`` -> ``(POLICY, BUDGET or None)``. The budget is what follows the last ``@``
    (a policy folder whose name holds an ``@`` needs an explicit budget after it); one-line ``ConfigError`` s
    for an empty policy, a search of a search, or a budget that is not a whole number of at least 1."""
    inner = spec.removeprefix("search:")
    budget: int | None = None
    if "@" in inner:
        inner, _, text = inner.rpartition("@")
        budget = int(text) if text.isascii() and text.isdigit() else 0
        if budget < 1:
            raise ConfigError(spec, "budget", f"expected a whole number of play-outs, at least 1, after '@', "
                                              f"got {text!r}")
    if not inner:
        raise ConfigError(spec, "", "expected search:POLICY[@BUDGET], POLICY an agent spec (a bundle folder, a "
                                    "trained run folder, a scripted agent or card:BUNDLE_DIR)")
    if is_search_spec(inner):
        raise ConfigError(spec, "", "a search cannot search over another search: name the policy itself")
    return inner, budget


def _search_factory(system: System, spec: str) -> AgentFactory:
    from npc_tactics.agents.search import DEFAULT_BUDGET, search_factory

    inner, budget = parse_search_spec(spec)
    policy = factory_of(system, inner)  # validates the policy spec (unknown name, missing folder ...)
    opponent = factory_of(system, "by-the-book")
    return search_factory(policy, opponent, budget=DEFAULT_BUDGET if budget is None else budget, system=system)


def resolve_agent(system: System, spec: str, engine: Any, rng: np.random.Generator) -> Agent:
    """The scripted agent called ``spec`` of ``system`` (seeded by ``rng``) or the policy of a
    trained run directory ``spec`` (deterministic), a card, or a search agent (``search:POLICY[@BUDGET]``, seeded
    by ``rng``). Unknown names raise ``UnknownNameError`` listing
    the valid agents; a missing or unreadable run directory raises ``ConfigError`` naming it."""
    entries = agent_entries(system)
    if spec in entries:
        return make_agent(system, spec, engine, rng)
    if is_card_spec(spec):
        return _load_card(system, spec)
    if is_search_spec(spec):
        return _search_factory(system, spec)(engine, rng)
    if looks_like_path(spec):
        return _load_policy(system, spec)
    raise UnknownNameError("agent", spec, entries)


def agent_factory(system: str, spec: str) -> AgentFactory:
    """:func:`factory_of` the system named ``system`` (``play`` passes its arena's name; an unknown name lists
    the valid ones)."""
    from npc_tactics.registry import get_system

    return factory_of(get_system(system), spec)


def factory_of(system: System, spec: str) -> AgentFactory:
    """A builder ``(engine, rng) -> Agent`` for ``spec``, validated now: scripted agents are rebuilt
    per fight with that fight's RNG stream; a trained policy is loaded once and shared (it is
    deterministic)."""
    entries = agent_entries(system)
    if spec in entries:
        entry = entries[spec]
        return lambda engine, rng: entry.factory(engine, rng)
    if is_card_spec(spec):
        card = _load_card(system, spec)
        return lambda engine, rng: card
    if is_search_spec(spec):  # rebuilt per fight: its play-outs are seeded by the fight's stream
        return _search_factory(system, spec)
    if looks_like_path(spec):
        agent = _load_policy(system, spec)
        return lambda engine, rng: agent
    raise UnknownNameError("agent", spec, entries)


def trained_side(spec: str) -> int | None:
    """The side a trained run directory's policy learned to play (None for scripted agents, which play
    either seat). Read from the run's ``config.yaml`` (through ``RunDir``, which rejects a malformed side);
    the policy's seat is part of what it learned. A search plays its policy's side."""
    if is_search_spec(spec):
        return trained_side(parse_search_spec(spec)[0])
    if is_card_spec(spec):
        from npc_tactics.agents.card import load_card_agent

        return load_card_agent(spec.removeprefix("card:")).side
    if not looks_like_path(spec):
        return None
    if is_bundle_dir(spec):
        import json

        try:
            return int(json.loads((Path(spec) / "schema.json").read_text(encoding="utf-8"))["side"])
        except (OSError, ValueError, KeyError, TypeError):
            return None  # unreadable: loading the agent says why
    from npc_tactics.runs import RunDir

    run = RunDir(Path(spec))
    return run.config().side if run.is_run() else None


def agent_label(spec: str) -> str:
    """A short display name: the scripted name, a run directory's folder name, ``card:<bundle folder>``, or
    ``search:<policy's label>[@<budget>]``."""
    if is_search_spec(spec):
        inner, budget = parse_search_spec(spec)
        return "search:" + agent_label(inner) + ("" if budget is None else f"@{budget}")
    if is_card_spec(spec):
        return "card:" + (Path(spec.removeprefix("card:")).name or spec)
    if looks_like_path(spec):
        return Path(spec).name or spec
    return spec
