"""Shared fixtures: which systems and scenarios exist, so generic tests cover every one of them."""

from __future__ import annotations

import os
from collections.abc import Iterator

import matplotlib
from hypothesis import settings

matplotlib.use("Agg")
os.environ.setdefault("MPLBACKEND", "Agg")

# No per-example deadline for property tests: CI machines have run the suite up to four times slower than this
# one, and a deadline there measures the machine, not the code (the slow ones already said deadline=None).
settings.register_profile("npc-tactics", deadline=None)
settings.load_profile("npc-tactics")


def system_scenarios() -> list[tuple[str, str]]:
    """(system, scenario) for every shipped scenario of every available system."""
    from npc_tactics.registry import available_systems

    pairs = []
    for name, info in available_systems().items():
        for scenario, _ in info.load("content").list_scenarios():
            pairs.append((name, scenario))
    return pairs


def system_names() -> list[str]:
    from npc_tactics.registry import available_systems

    return list(available_systems())


import pytest  # noqa: E402


@pytest.fixture(scope="session")
def trained_run(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    """A real (tiny) MaskablePPO run on the default OSE scenario, shared by the integration tests."""
    from npc_tactics.training.config import load_train_config
    from npc_tactics.training.train import train

    config = load_train_config("ose_goblin_duel").with_overrides(
        **{"budget.n_envs": 2, "budget.eval_every": 512, "budget.eval_episodes": 10, "budget.checkpoint_every": 512}
    )
    return train(config, tmp_path_factory.mktemp("runs") / "goblin", timesteps=1024, seed=1, progress=False)


@pytest.fixture
def fake_system() -> Iterator[str]:
    """The tiny ``fake`` system (tests/fakesys), registered for this test only, so tests that loop over
    every system never see it."""
    from tests.fakesys import registered

    with registered() as name:
        yield name
