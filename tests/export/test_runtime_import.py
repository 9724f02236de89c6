"""A bundle runs without the training stack: in a subprocess where torch, stable-baselines3, sb3-contrib,
gymnasium and pettingzoo cannot be imported, each system's bundle loads and ranks the moves of that system's
example situation, and the ranking equals the one of the SB3 policy in the run folder it came from."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from npc_tactics.gm.advice.suggest import suggest
from tests.export.conftest import PRESETS, Exported

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]
BLOCKED = ("torch", "stable_baselines3", "sb3_contrib", "gymnasium", "pettingzoo")

RUNTIME = """
import importlib.abc, json, sys

BLOCKED = {blocked!r}

class Blocker(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ImportError(f"{{name}} is blocked in the bundle runtime test")
        return None

sys.meta_path.insert(0, Blocker())
try:
    import torch  # noqa: F401
except ImportError:
    pass
else:
    raise SystemExit("the blocker does not block torch")

from npc_tactics.gm.advice.suggest import suggest
from npc_tactics.policy_io.onnx_agent import load_bundle_agent

out = {{}}
for system, (bundle, situation) in json.loads(sys.argv[1]).items():
    agent = load_bundle_agent(bundle)
    result = suggest(bundle, situation, policy=agent)
    out[system] = {{"moves": [[m.name, m.probability] for m in result.moves], "warnings": agent.warnings}}
out["loaded"] = sorted(m for m in sys.modules if m.split(".")[0] in BLOCKED)
print(json.dumps(out))
"""


def test_bundles_rank_moves_without_the_training_stack(exported: dict[str, Exported]) -> None:
    jobs = {s: [str(exported[s].bundle), str(ROOT / "examples" / f"{s}_situation.yaml")] for s in PRESETS}
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.run([sys.executable, "-c", RUNTIME.format(blocked=BLOCKED), json.dumps(jobs)],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300, check=False)
    assert proc.returncode == 0, proc.stderr[-3000:]
    got = json.loads(proc.stdout)
    assert got.pop("loaded") == []
    assert set(got) == set(PRESETS)
    for system, answer in got.items():
        assert answer["warnings"] == []
        moves = answer["moves"]
        assert len(moves) >= 2, system
        assert abs(sum(p for _, p in moves) - 1.0) < 1e-6
        reference = suggest(exported[system].run, jobs[system][1])
        assert sorted(m.name for m in reference.moves) == sorted(n for n, _ in moves)
        by_name = dict(moves)
        for m in reference.moves:
            assert abs(by_name[m.name] - m.probability) < 1e-5, (system, m.name)


def test_the_bundle_path_never_imports_torch_even_when_installed(exported: dict[str, Exported]) -> None:
    code = (
        "import sys\n"
        "from npc_tactics.gm.advice.suggest import suggest\n"
        "from npc_tactics.policy_io.onnx_agent import load_bundle_agent\n"
        f"suggest('', {str(ROOT / 'examples' / 'mrq_situation.yaml')!r}, "
        f"policy=load_bundle_agent({str(exported['mrq'].bundle)!r}))\n"
        "print(sorted(m for m in ('torch', 'stable_baselines3', 'sb3_contrib') if m in sys.modules))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)),
                          capture_output=True, text=True, timeout=300, check=False)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.strip() == "[]"
