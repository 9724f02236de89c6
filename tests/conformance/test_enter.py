"""Clause 7 of the contract: a GM's situation enters the fight through the public ``Engine.enter`` hook.

Every shipped example situation (``examples/<system>_*.yaml``) of every registered system, and the test fake's,
is loaded; the load
must call ``enter`` and leave a state that keeps the contract (fresh mask, clone sharing nothing, step leaving
its input alone). The loaders of the rules packages may not reach into an engine's private members.
"""

from __future__ import annotations

import os
import pickle
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from npc_tactics.dice import RngRoller
from npc_tactics.registry import available_systems
from tests.conformance.helpers import mutables
from tests.fakesys import NAME as FAKE
from tests.fakesys import registered

ROOT = Path(__file__).resolve().parents[2]
#: (system, situation file): every shipped example of every registered system, then the test fake's
EXAMPLES = sorted((system, f"examples/{path.name}") for system in available_systems()
                  for path in (ROOT / "examples").glob(f"{system}_*.yaml")) + [(FAKE, "tests/fakesys/situation.yaml")]
SYSTEMS = ROOT / "npc_tactics" / "systems"
#: ``engine._run(...)``, ``self.engine._explicit`` ...: a private member reached through an engine object
PRIVATE = re.compile(r"\bengine\._[a-z]\w*")


@pytest.fixture(autouse=True)
def _fake_registered() -> Iterator[None]:
    with registered():
        yield


def test_every_system_ships_example_situations() -> None:
    assert {system for system, _ in EXAMPLES} == set(available_systems())


@pytest.mark.parametrize(("system", "example"), EXAMPLES)
def test_example_situations_enter_through_the_public_hook_and_keep_the_contract(system: str, example: str
                                                                                 ) -> None:
    info = available_systems()[system]
    engine = info.load("engine")(None)
    calls: list[Any] = []
    real = engine.enter

    def spy(state: Any, roller: Any, **kw: Any) -> Any:
        calls.append(state)
        return real(state, roller, **kw)

    engine.enter = spy
    state = info.load("content").load_situation(engine, str(ROOT / example),
                                                RngRoller(np.random.default_rng(3)), notes=[])
    assert calls, "the situation was not entered through Engine.enter"
    decision = engine.pending(state)
    assert decision is not None
    mask = engine.legal_mask(state, decision)
    assert mask.dtype == np.bool_ and mask.shape == (len(engine.catalogue),) and mask.flags.writeable
    assert mask.any()
    again = engine.legal_mask(state, decision)
    assert again is not mask and np.array_equal(again, mask)
    clone = engine.clone(state)
    orig_ids: dict[int, str] = {}
    clone_ids: dict[int, str] = {}
    mutables(state, set(), orig_ids)
    mutables(clone, set(), clone_ids)
    shared = set(orig_ids) & set(clone_ids)
    assert not shared, f"clone shares {sorted(orig_ids[i] for i in shared)[:5]}"
    before = pickle.dumps(state)
    engine.step(state, int(np.flatnonzero(mask)[0]), RngRoller(np.random.default_rng(4)))
    assert pickle.dumps(state) == before


def test_enter_is_abstract_in_the_base_engine() -> None:
    # checked on the pure engine: mypyc's native classes keep no __abstractmethods__ (docs/speed.md)
    code = "from npc_tactics.rules.base import Engine; assert '_enter' in Engine.__abstractmethods__"
    root = Path(__file__).resolve().parents[2]
    subprocess.run([sys.executable, "-c", code], check=True, cwd=root,
                   env={**os.environ, "NPC_TACTICS_PURE": "1", "PYTHONPATH": str(root)})


RULES_FILES = sorted(p.relative_to(SYSTEMS).as_posix() for p in SYSTEMS.glob("*/rules/*.py")
                     if p.name != "engine.py")


def test_every_system_s_rules_are_checked() -> None:
    shipped = {name for name in available_systems() if name != FAKE}
    assert {path.split("/")[0] for path in RULES_FILES} == shipped and len(RULES_FILES) > 40


@pytest.mark.parametrize("path", RULES_FILES)
def test_rules_loaders_use_no_private_engine_member(path: str) -> None:
    text = (SYSTEMS / path).read_text(encoding="utf-8")
    assert not PRIVATE.findall(text), f"{path} reaches into the engine: {sorted(set(PRIVATE.findall(text)))}"
