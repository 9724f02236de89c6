"""The lockstep runner asks once per call whether an agent has a batched network, not at every decision: the
check (``isinstance`` against the runtime-checkable ``Policy`` protocol) cost about 40% of a search's time."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from npc_tactics.agents import lockstep
from npc_tactics.agents.lockstep import Fight, play_chunk
from npc_tactics.dice import RngRoller
from npc_tactics.evaluation.arena import Arena
from npc_tactics.registry import available_systems


def _fights(arena: Arena, seeds: range) -> list[Fight]:
    from npc_tactics.agents.resolve import agent_factory

    make = [agent_factory(arena.system, "by-the-book"), agent_factory(arena.system, "aggressive")]
    out = []
    for seed in seeds:
        roller = RngRoller(np.random.default_rng(seed))
        state, _ = arena.engine.new_combat(arena.scenario, roller)
        agents = [m(arena.engine, np.random.default_rng([seed, s])) for s, m in enumerate(make)]
        out.append(Fight(0, seed, seed, state, roller, agents, 1))
    return out


@pytest.mark.parametrize("system", sorted(available_systems()))
def test_each_agent_is_resolved_once_per_call(system: str, monkeypatch: pytest.MonkeyPatch) -> None:
    arena = Arena.build(system)
    asked: list[int] = []
    real = lockstep.batched_policy

    def counting(agent: Any) -> Any:
        asked.append(id(agent))
        return real(agent)

    monkeypatch.setattr(lockstep, "batched_policy", counting)
    fights = _fights(arena, range(6))
    play_chunk(arena.engine, arena.encoder, fights, 100_000)
    assert all(arena.engine.outcome(f.state) is not None for f in fights)
    decisions = sum(f.decisions for f in fights)
    agents = {id(a) for f in fights for a in f.agents}
    assert len(asked) == len(set(asked)) <= len(agents) < decisions, (len(asked), len(agents), decisions)
