"""Real Ray for the RLlib backend and the Ray executor: one local instance with 2 CPUs for the tests of this
folder (shut down when they are done, so its daemons do not share the cores with the rest of the suite), and one
tiny RLlib run per system (each system's default preset, two PPO iterations of 64 env steps) with its exported
bundle, shared by the tests here. Skipped when the ``[ray]`` extra is not installed (``make test`` installs it).

Every test here has a 300 s limit and is run once more only if it hit that limit: on a loaded CI machine one
driver-to-GCS call of Ray's own (``internal_kv_put`` from RLlib's usage tags, which has no timeout) once never
returned, and the rest of the session's Ray calls went on working. A test that fails any other way, or hangs
twice, fails the run.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("ray.rllib", reason="the [ray] extra is not installed (pip install -e '.[ray]')")

#: Each system's default preset (as tests/export uses).
PRESETS = {
    "ose": "ose_goblin_duel",
    "runequest": "runequest_parry_duel",
    "mrq": "mrq_shield_vs_greataxe",
    "dicepool": "dicepool_melee_duel",
}
#: Two PPO updates of 64 env steps (2 fights stepped together, 32 steps each), a 2-fight evaluation.
TINY_RLLIB = {
    "backend": "rllib",
    "budget.timesteps": 128,
    "budget.n_envs": 2,
    "budget.eval_every": 0,
    "budget.eval_episodes": 2,
    "budget.checkpoint_every": 0,
    "ppo.n_steps": 32,
    "ppo.batch_size": 32,
    "ppo.n_epochs": 1,
}
RANGE_FIGHTS = 5
#: Seconds a test here may take, its fixtures' setup included (the slowest takes ~10 s on this machine).
TIME_LIMIT = 300


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if here in item.path.parents:
            item.add_marker(pytest.mark.timeout(TIME_LIMIT))
            item.add_marker(pytest.mark.flaky(reruns=1, only_rerun=["Timeout"]))


@pytest.fixture(scope="package")
def ray_local() -> Iterator[Any]:
    import ray

    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")  # as npc_tactics.cluster starts it
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level="ERROR")
    yield ray
    ray.shutdown()


@dataclass(frozen=True)
class RllibRun:
    system: str
    run: Path
    bundle: Path


@pytest.fixture(scope="package")
def rllib_runs(ray_local: Any, tmp_path_factory: pytest.TempPathFactory) -> dict[str, RllibRun]:
    from npc_tactics.export.bundle_export import export_bundle
    from npc_tactics.training.config import load_train_config
    from npc_tactics.training.train import train

    root = tmp_path_factory.mktemp("rllib")
    out = {}
    for system, preset in PRESETS.items():
        cfg = load_train_config(preset).with_overrides(**TINY_RLLIB)
        run = train(cfg, root / f"{system}-run", progress=False, config_source="test")
        bundle = root / f"{system}-bundle"
        export_bundle(run, bundle, fights=RANGE_FIGHTS, seed=0)
        out[system] = RllibRun(system, run, bundle)
    return out
