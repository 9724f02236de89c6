"""Compiled and pure engines play the same fights: byte for byte, against the digest stored from the pure run.

For every system, 1,000 seeded fights with every scripted agent (see ``tests/compiled/fights.py``) are digested
in this process (compiled engines when the build is there, else pure) and compared with
``tests/compiled/pure_digest.json``, written from the pure engines before any speed work. When this process
runs compiled, the same fights are also played in a subprocess with ``NPC_TACTICS_PURE=1`` (in parallel, on the
other core) and must give the same digest too.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from npc_tactics.compiled import PURE_ENV, status
from npc_tactics.registry import get_system
from tests.compiled.fights import FIGHTS, FIXTURE, system_digests

ROOT = Path(__file__).resolve().parents[2]
STORED = json.loads(FIXTURE.read_text())
SYSTEMS = sorted(STORED["digests"])


def pure_subprocess(system: str) -> subprocess.Popen[str]:
    env = {**os.environ, PURE_ENV: "1", "PYTHONPATH": str(ROOT)}
    return subprocess.Popen([sys.executable, "-m", "tests.compiled.fights", "--systems", system], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_the_stored_digest_covers_every_system_and_agent() -> None:
    from npc_tactics.agents import agent_entries
    from npc_tactics.registry import available_systems

    assert STORED["fights"] == FIGHTS
    assert set(STORED["digests"]) == set(available_systems())
    for system, digests in STORED["digests"].items():
        assert set(digests) == set(agent_entries(get_system(system))), system


@pytest.mark.parametrize("system", SYSTEMS)
def test_seeded_fights_match_the_pure_digest(system: str) -> None:
    compiled = status()["engines"] == "compiled"
    child = pure_subprocess(system) if compiled else None  # the pure replay runs while this process plays
    here = system_digests(system)
    assert here == STORED["digests"][system], f"{system}: {status()['engines']} engines differ from the pure digest"
    if child is not None:
        out, err = child.communicate(timeout=600)
        assert child.returncode == 0, err[-3000:]
        pure = json.loads(out)
        assert pure["engines"] == "pure"
        assert pure["digests"][system] == STORED["digests"][system], f"{system}: pure engines differ from the digest"
