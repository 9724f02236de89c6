"""simulate(): the JSON summary's schema and the consistency of its counts (fake system)."""

from __future__ import annotations

import gc
import json
import tracemalloc

import pytest

from npc_tactics.errors import UnknownNameError
from npc_tactics.evaluation import format_summary, simulate

OUTCOMES = ("win", "draw", "fled", "loss")


@pytest.fixture
def summary(fake_system: str) -> dict:
    return simulate(fake_system, "skirmish", ["brute", "random"], fights=60, seed=11)


def test_schema(summary: dict) -> None:
    json.dumps(summary)  # JSON-ready
    for key in (
        "system",
        "scenario",
        "agents",
        "fights",
        "seed",
        "seeds",
        "mean_rounds",
        "rounds",
        "event_counts",
        "unattributed_event_counts",
        "sides",
        "options",
        "reasons",
    ):
        assert key in summary, key
    assert summary["system"] == "fake" and summary["scenario"] == "skirmish"
    assert summary["fights"] == 60 and summary["seeds"] == [11, 70]
    assert summary["agents"] == ["brute", "random"]
    assert summary["options"] == {"hit_on": 11}
    assert len(summary["sides"]) == 2
    for side in summary["sides"]:
        assert set(side["rates"]) == set(OUTCOMES)
        for entry in side["rates"].values():
            assert set(entry) == {"count", "rate", "low", "high"}
            assert 0.0 <= entry["low"] <= entry["rate"] <= entry["high"] <= 1.0
        assert sum(e["count"] for e in side["rates"].values()) == 60
        assert set(side["tactic_profile"]) == {"attacks", "flees", "morale_breaks"}


def test_counts_consistent(summary: dict) -> None:
    ev = summary["event_counts"]
    assert set(ev["attack"]) <= {"hit", "miss", "natural_20", "natural_1"}
    assert set(ev["morale"]) <= {"passed", "failed"}
    sides = summary["sides"]
    # every event is attributed to exactly one of: side 0, side 1, no actor
    for kind, by_result in ev.items():
        for result, total in by_result.items():
            parts = [s["event_counts"].get(kind, {}).get(result, 0) for s in sides]
            parts.append(summary["unattributed_event_counts"].get(kind, {}).get(result, 0))
            assert sum(parts) == total, (kind, result)
    # attack events = attacks chosen = the profile's attack count, per side
    for s in sides:
        assert sum(s["event_counts"].get("attack", {}).values()) == s["actions"].get("attack", 0)
        assert s["tactic_profile"]["attacks"] == s["actions"].get("attack", 0)
    # one damage event per hit or natural 20
    assert sum(ev["damage"].values()) == ev["attack"].get("hit", 0) + ev["attack"].get(
        "natural_20", 0
    )
    # win of one side = loss or flight of the other (the fake has no draws here)
    wins0 = sides[0]["rates"]["win"]["count"]
    assert wins0 == sides[1]["rates"]["loss"]["count"] + sides[1]["rates"]["fled"]["count"]
    assert summary["rounds"]["min"] <= summary["mean_rounds"] <= summary["rounds"]["max"]


def test_deterministic_and_seed_sensitive(fake_system: str) -> None:
    a = simulate(fake_system, "duel", ["random", "random"], fights=20, seed=5)
    b = simulate(fake_system, "duel", ["random", "random"], fights=20, seed=5)
    c = simulate(fake_system, "duel", ["random", "random"], fights=20, seed=6)
    assert a == b
    assert a != c


def test_brute_beats_random(summary: dict) -> None:
    assert summary["sides"][0]["rates"]["win"]["low"] > 0.5


def test_format_summary(summary: dict) -> None:
    text = format_summary(summary)
    assert "brute" in text and "random" in text and "natural_20" in text and "morale" in text
    assert "[" in text  # intervals


def test_bad_inputs(fake_system: str) -> None:
    with pytest.raises(UnknownNameError, match="valid agents: brute, by-the-book, coward, random"):
        simulate(fake_system, "duel", ["brute", "nobody"], fights=2, seed=0)
    with pytest.raises(ValueError, match="one agent per side"):
        simulate(fake_system, "duel", ["brute"], fights=2, seed=0)
    with pytest.raises(UnknownNameError, match="scenario"):
        simulate(fake_system, "nowhere", ["brute", "brute"], fights=2, seed=0)
    with pytest.raises(UnknownNameError, match="system"):
        simulate("no-such-system", None, ["brute", "brute"], fights=2, seed=0)


def test_simulate_runs_in_constant_memory(fake_system: str) -> None:
    """Fights are summed as they are played: 20 times more fights cost no more memory (a list of
    records cost about 4.6 KB a fight: 2,000 fights would add megabytes)."""
    def peak(fights: int) -> int:
        gc.collect()
        tracemalloc.start()
        simulate(fake_system, "duel", ["brute", "random"], fights=fights, seed=0)
        _, top = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        return top

    peak(20)  # warm caches and imports
    small, large = peak(100), peak(2_000)
    # a per-fight record list would add ~9 MB here; garbage the cycle collector has not yet freed moves the peak by
    # ~0.1 MB depending on what ran before (test order), hence the margin
    assert large - small < 1_000_000, (small, large)
