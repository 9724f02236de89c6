"""run_tournament on the fake system: files, paired seeds, per-seat rates, sensible ratings."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from npc_tactics.evaluation import run_tournament
from npc_tactics.evaluation.ratings import rate_fights
from npc_tactics.evaluation.tournament import unique_labels
from tests.fakesys import registered


@pytest.fixture(scope="module")
def out_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("tournament") / "out"


@pytest.fixture(scope="module")
def result(out_dir: Path):
    with registered() as fake:
        return run_tournament(
            fake,
            "skirmish",
            ["random", "brute", "coward"],
            fights_per_pairing=60,
            seed=100,
            out_dir=out_dir,
            progress=False,
        )


def test_files_written(result, out_dir: Path) -> None:
    out = out_dir
    for name in ("report.md", "results.json", "win_rates.png", "ratings.png", "tactics.png"):
        path = out / name
        assert path.is_file() and path.stat().st_size > 0, name
    assert (out / "win_rates.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    report = (out / "report.md").read_text()
    for text in (
        "## Pairings",
        "## Ratings",
        "## Tactic profiles",
        "## Reproduce",
        "npc-tactics evaluate",
        "--seed 100",
        "![win rates](win_rates.png)",
        "brute | random",
    ):
        assert text in report, text
    data = json.loads((out / "results.json").read_text())
    assert data["seeds"] == list(range(100, 160))
    assert len(data["pairings"]) == 6
    assert {r["agent"] for r in data["ratings"]} == {"random", "brute", "coward"}
    assert "brute" in data["tactic_profiles"] and "side0" in data["tactic_profiles"]["brute"]
    assert result.report_path == out / "report.md"


def test_paired_seeds_and_per_seat_rates(result) -> None:
    seed_lists = {tuple(r.seed for r in p.records) for p in result.pairings}
    assert seed_lists == {tuple(range(100, 160))}
    assert [p.agents for p in result.pairings] == [
        ("random", "brute"),
        ("random", "coward"),
        ("brute", "random"),
        ("brute", "coward"),
        ("coward", "random"),
        ("coward", "brute"),
    ]
    p = result.pairing("brute", "random")
    assert p.fights == 60
    assert sum(e["count"] for e in p.rates(0).values()) == 60
    assert p.rates(0)["win"]["low"] > 0.5
    assert result.pairing("coward", "brute").rates(0)["fled"]["rate"] == 1.0
    # both seats recorded: side 1's flights are counted, not folded into side 0's win
    seats = p.to_dict()["rates"]
    assert (
        len(seats) == 2
        and seats[0]["win"]["count"] >= seats[1]["fled"]["count"] + seats[1]["loss"]["count"]
    )


def test_ratings_order(result) -> None:
    order = [r.agent for r in result.ratings]
    assert order == ["brute", "random", "coward"]
    brute, rnd = result.rating("brute"), result.rating("random")
    assert brute.mu - brute.sigma > rnd.mu + rnd.sigma
    assert brute.fights == 4 * 60


def test_rate_fights_ties_and_mirrors() -> None:
    ratings = rate_fights(
        ["a", "b"], [(("a", "b"), ("draw", "draw"))] * 10 + [(("a", "a"), ("win", "loss"))]
    )
    by = {r.agent: r for r in ratings}
    assert by["a"].mu == pytest.approx(by["b"].mu)
    assert by["a"].fights == 10
    with pytest.raises(ValueError, match="unknown agents"):
        rate_fights(["a"], [(("a", "z"), ("win", "loss"))])


def test_self_play_and_validation(fake_system: str, tmp_path: Path) -> None:
    res = run_tournament(
        fake_system,
        "duel",
        ["brute"],
        5,
        0,
        tmp_path / "mirror",
        progress=False,
        include_self=True,
        plots=False,
        command="custom line",
    )
    assert [p.agents for p in res.pairings] == [("brute", "brute")]
    assert "custom line" in (tmp_path / "mirror" / "report.md").read_text()
    with pytest.raises(ValueError, match="at least two agents"):
        run_tournament(fake_system, "duel", ["brute"], 5, 0, tmp_path / "x", progress=False)
    with pytest.raises(ValueError, match="repeated: brute"):
        unique_labels(["brute", "brute"])
    assert unique_labels(["a/run", "b/run", "random"]) == ["a/run", "b/run", "random"]
