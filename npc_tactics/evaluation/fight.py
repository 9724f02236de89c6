"""One fight between agents outside any environment: the unit of simulation and tournaments.

Paired seeds (STYLE.md §7): the dice come from ``RngRoller(np.random.default_rng(seed))`` and
nothing else, so two pairs of agents given the same seed roll from the same dice stream; each
agent's own randomness is a separate stream the caller spawns with :func:`agent_rngs`
(``np.random.SeedSequence(seed).spawn``), so an agent's choices never shift the dice of the other
side.

The record itself is built by :mod:`npc_tactics.rollouts.record` and the fight is played by the lockstep
player of :mod:`npc_tactics.agents.lockstep` (a chunk of one), so a fight played here, in a tournament's
worker process or in a chunk of 256 gives the same record.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import numpy as np

from npc_tactics.agents.base import Agent
from npc_tactics.agents.lockstep import Fight, play_chunk
from npc_tactics.dice import RngRoller
from npc_tactics.rollouts.fights import MAX_DECISIONS
from npc_tactics.rollouts.record import (
    NO_RESULT,
    FightRecord,
    ProfileFn,
    agent_rngs,
    build_record,
    event_result,
    find_profile,
)
from npc_tactics.rules.base import Engine

__all__ = [
    "MAX_DECISIONS",
    "NO_RESULT",
    "FightRecord",
    "ProfileFn",
    "agent_rngs",
    "event_result",
    "find_profile",
    "play_fight",
]


def play_fight(
    engine: Engine[Any],
    encoder: Any,
    scenario: Any,
    agents: Sequence[Agent],
    seed: int,
    *,
    keep_events: bool = False,
    profile: ProfileFn | None = None,
) -> FightRecord:
    """Play one fight to its end: side ``k`` is played by ``agents[k]``, dice from
    ``default_rng(seed)``.

    ``profile`` overrides the system's tactic-profile function (default: :func:`find_profile`).
    Raises ``RuntimeError`` if the engine stops without an outcome or exceeds :data:`MAX_DECISIONS`.
    """
    roller = RngRoller(np.random.default_rng(seed))
    start = getattr(scenario, "start_combat", None)  # a drawn encounter (npc_tactics.encounters) adds wear
    state, opening = start(engine, roller) if start is not None else engine.new_combat(scenario, roller)
    sides = max(int(engine.spec.sides), 1 + max(int(c.side) for c in state.combatants))
    if len(agents) != sides:
        raise ValueError(f"play_fight needs one agent per side ({sides}), got {len(agents)}")
    fight = Fight(0, 0, int(seed), state, roller, list(agents), 1, 0, list(opening), [0] * sides,
                  [Counter() for _ in range(sides)])
    play_chunk(engine, encoder, [fight], MAX_DECISIONS, record=True)
    assert fight.events is not None and fight.per_side is not None and fight.actions is not None
    return build_record(engine, fight.state, fight.events, agents, seed, decisions=fight.decisions,
                        decisions_per_side=fight.per_side, actions=fight.actions, keep_events=keep_events,
                        profile=profile)
