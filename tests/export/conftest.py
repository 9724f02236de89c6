"""One tiny real training run per system (each system's default preset, 2,048 MaskablePPO steps) and its
exported bundle, shared by the export tests. Agreement needs a trained network, not a good one."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from npc_tactics.export.bundle_export import export_bundle
from npc_tactics.training.config import load_train_config
from npc_tactics.training.train import train
from tests.training.preset_helpers import TINY

#: Each system's default preset (the one README and docs quote), with its default network.
PRESETS = {
    "ose": "ose_goblin_duel",
    "runequest": "runequest_parry_duel",
    "mrq": "mrq_shield_vs_greataxe",
    "dicepool": "dicepool_melee_duel",
}
RANGE_FIGHTS = 30


@dataclass(frozen=True)
class Exported:
    system: str
    run: Path
    bundle: Path


@pytest.fixture(scope="session")
def exported(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Exported]:
    root = tmp_path_factory.mktemp("export")
    out: dict[str, Exported] = {}
    for system, preset in PRESETS.items():
        cfg = load_train_config(preset).with_overrides(**(TINY | {"budget.timesteps": 2048}))
        run = train(cfg, root / f"{system}-run", progress=False, config_source="test")
        bundle = root / f"{system}-bundle"
        export_bundle(run, bundle, fights=RANGE_FIGHTS, seed=0)
        out[system] = Exported(system, run, bundle)
    return out
