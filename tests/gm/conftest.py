"""A real (tiny) OSE bundle exported from the shared trained run: suggest's odds, trust and fallback need a
policy on disk that worker processes can load."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def ose_bundle(trained_run: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    from npc_tactics.export.bundle_export import export_bundle

    out = tmp_path_factory.mktemp("gm") / "goblin-bundle"
    export_bundle(trained_run, out, fights=10, seed=0)
    return out
