"""Tiny real bundles for the service, web page and latency tests: each system's default preset trained for
1,024 MaskablePPO steps and exported (a served bundle needs a real network, not a good one).

Built once per test session (memoised on the session's temporary root), whichever test module asks first."""

from __future__ import annotations

import functools
from pathlib import Path

PRESETS = {
    "ose": "ose_goblin_duel",
    "runequest": "runequest_parry_duel",
    "mrq": "mrq_shield_vs_greataxe",
    "dicepool": "dicepool_melee_duel",
}
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@functools.cache
def build_bundles(root: Path) -> Path:
    """Train and export one tiny bundle per system into ``root/bundles/<system>``; returns that folder."""
    from npc_tactics.export.bundle_export import export_bundle
    from tests.training.preset_helpers import train_tiny

    out = root / "bundles"
    out.mkdir(parents=True, exist_ok=True)
    for system, preset in PRESETS.items():
        run = train_tiny(preset, root / f"{system}-run")
        export_bundle(run, out / system, fights=10, seed=0)
    return out
