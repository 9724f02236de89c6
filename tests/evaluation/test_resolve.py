"""resolve_agent: scripted names, run directories, clear errors."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from npc_tactics.agents.resolve import agent_factory, agent_label, resolve_agent
from npc_tactics.errors import ConfigError, UnknownNameError
from npc_tactics.registry import get_system, make_engine


def test_scripted(fake_system: str) -> None:
    engine = make_engine(fake_system)
    agent = resolve_agent(get_system(fake_system), "brute", engine, np.random.default_rng(0))
    assert agent.name == "brute"
    assert resolve_agent(get_system(fake_system), "random", engine, np.random.default_rng(0)).name == "random"


def test_unknown_name_lists_agents(fake_system: str) -> None:
    with pytest.raises(UnknownNameError) as err:
        resolve_agent(get_system(fake_system), "berserker", make_engine(fake_system), np.random.default_rng(0))
    assert "unknown agent 'berserker'" in str(err.value)
    assert err.value.choices == ["brute", "by-the-book", "coward", "random"]
    with pytest.raises(UnknownNameError):
        agent_factory(fake_system, "berserker")


def test_run_dir_errors(fake_system: str, tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="run directory not found"):
        resolve_agent(
            get_system(fake_system),
            str(tmp_path / "missing"),
            make_engine(fake_system),
            np.random.default_rng(0),
        )
    f = tmp_path / "model.zip"
    f.write_text("x")
    with pytest.raises(ConfigError, match="expected a trained run directory"):
        agent_factory(fake_system, str(f))


def test_labels() -> None:
    assert agent_label("by-the-book") == "by-the-book"
    assert agent_label("runs/ose-duel/") == "ose-duel"


class _FakePolicy:
    def __init__(self, system: str) -> None:
        self.name = "policy:run"
        self.system = system

    def act(self, observation, mask):  # type: ignore[no-untyped-def]
        return int(np.flatnonzero(mask)[0])


def test_run_dir_loaded_once_and_checked(
    fake_system: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import npc_tactics.agents.policy as policy

    calls: list[Path] = []

    def fake_load(run_dir, deterministic=True):  # type: ignore[no-untyped-def]
        calls.append(Path(run_dir))
        return _FakePolicy("fake" if Path(run_dir).name == "good" else "ose")

    monkeypatch.setattr(policy, "load_policy_agent", fake_load)
    (tmp_path / "good").mkdir()
    (tmp_path / "other").mkdir()
    make = agent_factory(fake_system, str(tmp_path / "good"))
    engine = make_engine(fake_system)
    a = make(engine, np.random.default_rng(0))
    b = make(engine, np.random.default_rng(1))
    assert a is b and len(calls) == 1
    assert resolve_agent(get_system(fake_system), str(tmp_path / "good"), engine, np.random.default_rng(0)).name
    with pytest.raises(ConfigError, match="trained for 'ose'"):
        agent_factory(fake_system, str(tmp_path / "other"))
