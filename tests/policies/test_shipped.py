"""The shipped generalist bundles: one per system, small, and fit for the installed rules.

A rules change that invalidates a shipped policy (another rules version, action catalogue or observation
layout) fails here until `make policies` retrains and re-exports it.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from npc_tactics.dice import RngRoller
from npc_tactics.encounters.heldout import load_heldout
from npc_tactics.gm.advice.suggest import SHIPPED_DIR, shipped_bundle
from npc_tactics.policy_io.agent import Observation
from npc_tactics.policy_io.bundle import read_bundle
from npc_tactics.policy_io.onnx_agent import load_bundle_agent
from npc_tactics.registry import SYSTEMS, get_system, make_engine
from npc_tactics.rules.base import Engine
from npc_tactics.training.config import load_train_config

SYSTEM_NAMES = sorted(SYSTEMS)
#: "a few hundred kB each" (issue 13): the bundle must stay small enough to keep in git
MAX_BUNDLE_BYTES = 600_000

#: the encounter distribution a system's shipped generalist trains on when it is not ``generalist`` (issue 28)
TRAINED_ON = {"ose": "bestiary", "dicepool": "bestiary"}


@pytest.mark.parametrize("system", SYSTEM_NAMES)
def test_shipped_bundle_fits_the_installed_rules(system: str) -> None:
    path = shipped_bundle(system)
    bundle = read_bundle(path)  # raises on another action catalogue or observation size
    s = bundle.schema
    engine = make_engine(system, dict(s.options))
    assert s.system == system and s.side == 0
    assert s.rules_version == engine.spec.version, (
        f"{path} was trained under {system} rules {s.rules_version}; installed {engine.spec.version}: "
        "retrain with `make policies`")
    problems = [w for w in bundle.warnings if not w.startswith("exported by npc-tactics")]
    assert problems == [], problems  # renamed or rescaled observation fields
    size = sum(p.stat().st_size for p in path.iterdir())
    assert size <= MAX_BUNDLE_BYTES, f"{path}: {size} bytes"
    assert {p.name for p in path.iterdir()} >= {"policy.onnx", "schema.json", "card.md", "card.json"}


@pytest.mark.parametrize("system", SYSTEM_NAMES)
def test_shipped_bundle_answers_held_out_fights_legally(system: str) -> None:
    agent = load_bundle_agent(shipped_bundle(system))
    engine: Engine = make_engine(system)  # type: ignore[type-arg]
    encoder = get_system(system).load("encoder")(engine)
    for enc in load_heldout(system)[:5]:
        state, _ = enc.start_combat(engine, RngRoller(np.random.default_rng(enc.seed)))
        decision = engine.pending(state)
        assert decision is not None
        mask = engine.legal_mask(state, decision)
        if decision.side == 0:
            action = agent.act(Observation(None, state, decision, engine, encoder), mask)
            assert mask[action]


def test_every_system_ships_a_bundle() -> None:
    assert sorted(p.name for p in SHIPPED_DIR.iterdir() if (p / "schema.json").is_file()) == SYSTEM_NAMES


POLICY_CONFIGS = Path(__file__).resolve().parents[2] / "npc_tactics" / "configs" / "policies"


@pytest.mark.parametrize("path", sorted(POLICY_CONFIGS.glob("*.yaml")) + sorted(POLICY_CONFIGS.glob("teachers/*.yaml")),
                         ids=lambda p: p.relative_to(POLICY_CONFIGS).as_posix())
def test_make_policies_configs_load_and_teachers_name_their_scenario(path: Path) -> None:
    """`make policies` trains every config here: <system>[.<n>].yaml on an encounter distribution (the generalist,
    or OSE's bestiary), and teachers/<system>.<name>.yaml on the scenario or the encounter distribution of that
    name (the name is how the Makefile tells distill; a distribution teacher's fights are drawn from it)."""
    config = load_train_config(path)
    system, _, rest = path.stem.partition(".")
    assert config.system == system and config.side == 0
    if path.parent.name == "teachers":
        assert (config.scenario, config.encounter) in ((rest, None), (None, rest))
    else:
        assert config.encounter == TRAINED_ON.get(system, "generalist") and config.scenario is None
