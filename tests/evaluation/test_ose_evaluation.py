"""Evaluation on the real OSE engine: determinism, counts, a small tournament, ratings order."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from npc_tactics.agents.resolve import agent_factory
from npc_tactics.evaluation import run_tournament, simulate
from npc_tactics.evaluation.arena import Arena
from npc_tactics.rules.base import events_to_jsonl


@pytest.fixture(scope="module")
def arena() -> Arena:
    return Arena.build("ose", None)


def test_same_seed_identical_fight(arena: Arena) -> None:
    specs = ["by-the-book", "random"]
    for seed in (0, 1, 2):
        a = arena.fight([agent_factory("ose", s) for s in specs], seed, keep_events=True)
        b = arena.fight([agent_factory("ose", s) for s in specs], seed, keep_events=True)
        assert a.to_dict() == b.to_dict()
        assert events_to_jsonl(a.events) == events_to_jsonl(b.events)


def test_counts_match_events(arena: Arena) -> None:
    rec = arena.fight(
        [agent_factory("ose", s) for s in ["random", "by-the-book"]], 5, keep_events=True
    )
    assert rec.events is not None
    assert sum(rec.event_counts.values()) == len(rec.events)
    for kind in {e.kind for e in rec.events}:
        n = sum(1 for e in rec.events if e.kind == kind)
        assert sum(v for (s, k, r), v in rec.event_counts.items() if k == kind) == n, kind


def test_simulate_schema_and_consistency() -> None:
    summary = simulate("ose", None, ["by-the-book", "random"], fights=30, seed=3)
    json.dumps(summary)
    assert summary["fights"] == 30
    for side in summary["sides"]:
        assert sum(e["count"] for e in side["rates"].values()) == 30
    for kind, by_result in summary["event_counts"].items():
        for result, total in by_result.items():
            parts = [s["event_counts"].get(kind, {}).get(result, 0) for s in summary["sides"]]
            parts.append(summary["unattributed_event_counts"].get(kind, {}).get(result, 0))
            assert sum(parts) == total, (kind, result)


def test_simulate_same_across_processes() -> None:
    code = (
        "import json; from npc_tactics.evaluation import simulate; "
        "s = simulate('ose', None, ['by-the-book', 'random'], fights=8, seed=21); "
        "print(json.dumps(s, sort_keys=True))"
    )
    here = simulate("ose", None, ["by-the-book", "random"], fights=8, seed=21)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == json.loads(json.dumps(here, sort_keys=True))


def test_tournament_ratings(tmp_path: Path) -> None:
    result = run_tournament(
        "ose",
        None,
        ["random", "by-the-book"],
        fights_per_pairing=60,
        seed=0,
        out_dir=tmp_path,
        progress=False,
    )
    for name in ("report.md", "results.json", "win_rates.png", "ratings.png", "tactics.png"):
        assert (tmp_path / name).is_file(), name
    for seat in (0, 1):
        assert result.seat_ratings(seat)[0].agent == "by-the-book"
        assert result.rating("by-the-book", seat).mu > result.rating("random", seat).mu


DIGEST = """
import hashlib
from npc_tactics.agents.resolve import agent_factory
from npc_tactics.evaluation.arena import Arena
from npc_tactics.rules.base import events_to_jsonl
arena = Arena.build("ose", "goblin_band")
agents = [agent_factory("ose", s) for s in ("random", "cautious")]
record = arena.fight(agents, 77, keep_events=True)
digest = hashlib.sha256(events_to_jsonl(record.events).encode()).hexdigest()
"""


def test_event_log_byte_identical_across_processes() -> None:
    arena = Arena.build("ose", "goblin_band")
    agents = [agent_factory("ose", s) for s in ("random", "cautious")]
    record = arena.fight(agents, 77, keep_events=True)
    digest = hashlib.sha256(events_to_jsonl(record.events).encode()).hexdigest()
    out = subprocess.run(
        [sys.executable, "-c", DIGEST + "print(digest)"], capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == digest
