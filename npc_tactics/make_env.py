"""``make_env``: a :class:`~npc_tactics.envs.tactics_env.TacticsEnv` whose opponents may be given by name.

The constructor the Gymnasium ids name (``gymnasium.make("npc_tactics/OSE-v0", opponents=["aggressive"])``).
It lives above both the environments and the agents (import-linter layers), because it is where one meets
the other: names and run folders become the opponent factories the env takes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from npc_tactics.agents.resolve import agent_factory
from npc_tactics.envs.tactics_env import Opponent, TacticsEnv
from npc_tactics.registry import DEFAULT_SYSTEM

DEFAULT_OPPONENT = "by-the-book"


def make_env(system: str = DEFAULT_SYSTEM, scenario: str | None = None, side: int = 0,
             opponents: str | Opponent | Sequence[str | Opponent] = DEFAULT_OPPONENT, **kwargs: Any) -> TacticsEnv:
    """A :class:`TacticsEnv`; each opponent is an Agent, a factory ``(engine, rng) -> Agent``, a scripted
    agent name or a trained run folder (resolved by :func:`npc_tactics.agents.resolve.agent_factory`, whose
    errors name the valid agents). Other keyword arguments go to :class:`TacticsEnv`."""
    pool = [opponents] if isinstance(opponents, str) or not isinstance(opponents, Sequence) else list(opponents)
    resolved = [agent_factory(system, spec) if isinstance(spec, str) else spec for spec in pool]
    return TacticsEnv(system, scenario, side, resolved, **kwargs)
