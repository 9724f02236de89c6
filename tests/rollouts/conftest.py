"""A real (tiny) OSE bundle and its run folder: the batched-policy paths need a network on disk that worker
processes can load. The run trained for 1,024 steps is nearly uniform, so near-ties between moves are common:
the hardest case for results that must not depend on how decisions are batched."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def tiny_bundle(trained_run: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    from npc_tactics.export.bundle_export import export_bundle

    out = tmp_path_factory.mktemp("rollouts") / "goblin-bundle"
    export_bundle(trained_run, out, fights=10, seed=0)
    return out
