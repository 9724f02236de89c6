"""Fixtures of the training tests: the tiny ``fake`` system (see ``fake_system.py``), registered
only for the tests that ask for it, so other test modules that loop over every system never see
it."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import gymnasium
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

FAKE_GYM_ID = "npc_tactics/Fake-v0"


@pytest.fixture
def fake_system(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    import npc_tactics.envs  # noqa: F401  (registers the real ids first)
    from npc_tactics.systems import SYSTEMS, SystemInfo

    info = SystemInfo(
        name="fake",
        title="Fake duel",
        gym_id=FAKE_GYM_ID,
        engine="fake_system:FakeEngine",
        encoder="fake_system:FakeEncoder",
        agents="fake_system",
        content="fake_system",
        default_scenario="duel",
    )
    monkeypatch.setitem(SYSTEMS, "fake", info)
    gymnasium.register(
        id=FAKE_GYM_ID,
        entry_point="npc_tactics.envs.tactics_env:TacticsEnv",
        kwargs={"system": "fake"},
        max_episode_steps=200,
    )
    try:
        yield "fake"
    finally:
        gymnasium.registry.pop(FAKE_GYM_ID, None)
