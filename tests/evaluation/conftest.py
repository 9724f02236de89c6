"""Registers the fake ``evalfake`` system (tests/evaluation/evalfake) for the evaluation tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from evalfake import FAKE

from npc_tactics.systems import SYSTEMS


@pytest.fixture
def fake_system(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    monkeypatch.setitem(SYSTEMS, "evalfake", FAKE)
    yield "evalfake"
