"""Playing a trained run needs neither the training package nor stable-baselines3's loader (issue 9: one
``RunDir``, ``agents/policy.py`` does not import ``npc_tactics.training``)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = """
import sys
from npc_tactics.agents.policy import load_policy_agent
agent = load_policy_agent(sys.argv[1])
assert agent.system == "ose"
loaded = sorted(m for m in sys.modules if m.startswith("npc_tactics.training"))
print(",".join(loaded) or "none")
"""


def test_loading_a_policy_does_not_import_training(ose_run: Path) -> None:
    out = subprocess.run([sys.executable, "-c", SCRIPT, str(ose_run)], capture_output=True, text=True, cwd=ROOT,
                         timeout=120, check=False)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "none"
