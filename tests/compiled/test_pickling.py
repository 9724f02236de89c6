"""Fight jobs cross process boundaries (Ray workers, spawned processes): every system's engine, scenario, state
and a fight job pickle in this process and unpickle in a fresh one, compiled or pure. With the mypyc-compiled
engines, frozen dataclasses could not be unpickled (mypyc's ``__setstate__`` goes through the frozen
``__setattr__``); :func:`npc_tactics.compiled.make_picklable` mends them at import."""

from __future__ import annotations

import pickle
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from npc_tactics.compiled import status
from npc_tactics.dice import RngRoller
from npc_tactics.registry import get_system

ROOT = Path(__file__).resolve().parents[2]
SYSTEMS = ["ose", "runequest", "mrq", "dicepool"]

LOAD = """
import pickle, sys
objects = pickle.loads(sys.stdin.buffer.read())
from npc_tactics.compiled import status
sys.stdout.write(status()["engines"] + " " + str(len(objects)) + "\\n")
sys.stdout.buffer.write(pickle.dumps(objects))
"""


def _objects(system: str) -> list[object]:
    from npc_tactics.rollouts import FromEncounter

    info = get_system(system)
    engine = info.load("engine")()
    scenario = info.load("content").load_scenario(info.default_scenario)
    state, events = engine.new_combat(scenario, RngRoller(np.random.default_rng(0)))
    decision = engine.pending(state)
    return [engine.spec, scenario, state, events, decision, FromEncounter.heldout(system)]


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_fresh_process_unpickles_what_this_one_pickled(system: str) -> None:
    objects = _objects(system)
    proc = subprocess.run([sys.executable, "-c", LOAD], input=pickle.dumps(objects), capture_output=True,
                          cwd=ROOT, timeout=120)
    assert proc.returncode == 0, proc.stderr.decode()[-2000:]
    head, _, body = proc.stdout.partition(b"\n")
    engines, count = head.decode().split()
    assert engines == status()["engines"] and int(count) == len(objects)
    back = pickle.loads(body)  # and the round trip back (a worker's results)
    assert repr(back[2]) == repr(objects[2]) and back[4] == objects[4] and back[0] == objects[0]
