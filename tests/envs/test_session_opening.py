"""The opening events of ``new_combat`` reach the environments: counted and rendered from the reset on, and handed
out once, with the first step's events (so reward shaping sees damage done before the first decision)."""

from __future__ import annotations

import numpy as np
import pytest

from npc_tactics.dice import RngRoller
from npc_tactics.envs.session import FightSession
from tests.conftest import system_names


@pytest.mark.parametrize("system", system_names())
def test_opening_events_are_counted_at_start_and_returned_once(system: str) -> None:
    session = FightSession(system)
    session.start(5)
    _, opening = session.engine.new_combat(session.scenario, RngRoller(np.random.default_rng(5)))  # same dice
    start = next(i for i, e in enumerate(opening) if e.kind == "round_start")
    assert session.event_counts["round_start"] == 1 and session.round_events == opening[start:]  # rendered
    action = int(np.flatnonzero(session.mask())[0])
    first = session.apply(action)
    assert first[: len(opening)] == opening
    if session.decision is not None:
        second = session.apply(int(np.flatnonzero(session.mask())[0]))
        assert not any(e is o for e in second for o in first[: len(opening)]), "opening events handed out twice"
