"""Encounter odds: what each figure counts, per-fight seeds (worker count and prefix independence) on every
system, a situation file, the command line, and POST /odds (validated body, 422 naming the field, caps)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from npc_tactics.evaluation.stats import wilson_interval
from npc_tactics.gm.encounter.fights import FightResult, run_fights
from npc_tactics.gm.encounter.odds import Lineup, odds_of, summarize
from npc_tactics.registry import get_system, make_engine
from tests.cli_helpers import run_cli

ROOT = Path(__file__).resolve().parents[2]
#: a small party and foes per system (template names from each bestiary)
LINEUPS = {
    "ose": ("fighter_2, cleric_2", "goblin x3, goblin_archer"),
    "runequest": ("humakti_swordsman, orlanthi_warrior", "broo x2"),
    "mrq": ("sword_and_shield", "wolf x2"),
    "dicepool": ("haru", "bandit x2"),
}


def _r(k: int, party: str, foes: str, dead: int, rounds: int) -> FightResult:
    return FightResult(0, k, k, party, foes, dead, rounds)


def test_what_each_figure_counts() -> None:
    fights = [_r(0, "win", "fled", 0, 3), _r(1, "win", "loss", 1, 5), _r(2, "loss", "win", 2, 4),
              _r(3, "fled", "win", 0, 2), _r(4, "draw", "draw", 2, 6)]
    odds = summarize(fights)
    assert (odds.win.count, odds.rout.count, odds.pc_death.count, odds.party_fled.count, odds.draw.count) == \
        (2, 1, 3, 1, 1)
    assert (odds.win.low, odds.win.high) == wilson_interval(2, 5)
    assert odds.rounds == 4.0
    half = 1.96 * (2.5 / 5) ** 0.5  # sample variance of 3, 5, 4, 2, 6 is 2.5
    assert odds.rounds_ci == pytest.approx((4.0 - half, 4.0 + half))


@pytest.mark.parametrize("system", sorted(LINEUPS))
def test_odds_do_not_depend_on_the_worker_count(system: str) -> None:
    party, foes = LINEUPS[system]
    one = odds_of(get_system(system), party=party, foes=foes, fights=40, seed=5, workers=1)
    two = odds_of(get_system(system), party=party, foes=foes, fights=40, seed=5, workers=2)
    assert one["odds"] == two["odds"]
    odds = one["odds"]
    assert odds["fights"] == 40 and odds["rounds"] >= 1
    for key in ("win", "rout", "pc_death", "party_fled", "draw"):
        assert 0 <= odds[key]["low"] <= odds[key]["rate"] <= odds[key]["high"] <= 1
    assert odds["win"]["count"] + odds["party_fled"]["count"] + odds["draw"]["count"] <= 40


def test_fight_k_does_not_depend_on_how_many_fights_or_which_first() -> None:
    from npc_tactics.gm.encounter.spec import parse_group

    lineup = Lineup(get_system("ose"), make_engine("ose"), (("fighter_2", 1), ("cleric_2", 1)))
    lineup.add(parse_group("goblin x4", ["goblin"]))
    lineup.add(parse_group("goblin x2", ["goblin"]))
    job = lineup.job("by-the-book", "by-the-book")
    long = run_fights(job, [0, 1], 30, seed=2, workers=1)
    short = run_fights(job, [0], 12, seed=2, workers=1)
    later = run_fights(job, [1], 18, seed=2, workers=2, first=12)
    assert short[0] == long[0][:12]
    assert later[1] == long[1][12:]
    # paired seeds: fight k of both candidates rolls from the same stream
    assert [r.seed for r in long[0]] == [r.seed for r in long[1]]
    assert len({r.seed for r in long[0]}) == 30


def test_odds_from_a_situation_file_count_rounds_from_its_round() -> None:
    out = odds_of(get_system("ose"), situation=ROOT / "examples" / "ose_situation.yaml", fights=60, seed=1, workers=1)
    assert out["party"] is None and out["situation"].endswith("ose_situation.yaml")
    assert out["odds"]["fights"] == 60 and out["odds"]["rounds"] >= 1
    assert out["odds"]["win"]["count"] > 0


def test_cli_json_and_french_text(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["odds", "--system", "ose", "--party", "fighter_2, cleric_2", "--foes", "goblin x4", "--fights", "30",
            "--workers", "1"]
    code, out, err = run_cli([*args, "--json"], capsys)
    assert code == 0, err
    data = json.loads(out)
    assert data["odds"] == odds_of(get_system("ose"), party="fighter_2, cleric_2", foes="goblin x4", fights=30,
                                   workers=1)["odds"]
    assert data["seconds"] > 0
    code, out, err = run_cli([*args, "--lang", "fr"], capsys)
    assert code == 0, err
    assert "victoire du groupe" in out and "au moins un PJ meurt" in out and "30 combats" in out


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> TestClient:
    from npc_tactics.gm.service.app import create_app

    return TestClient(create_app(tmp_path_factory.mktemp("bundles"), workers=1))


BODY = {"system": "ose", "party": [{"template": "fighter_2"}, {"template": "cleric_2"}],
        "foes": [{"template": "goblin", "count": 4}], "fights": 30}


def test_post_odds_gives_the_command_line_figures(client: TestClient) -> None:
    r = client.post("/odds", json={**BODY, "lang": "fr"})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["odds"] == odds_of(get_system("ose"), party="fighter_2, cleric_2", foes="goblin x4", fights=30,
                                   workers=1)["odds"]
    assert "victoire du groupe" in body["text"]
    assert body["text"].splitlines()[0] == "guerrier 2, clerc 2  contre  gobelin x4"  # the GM's words
    assert (body["party"], body["foes"]) == ("fighter_2, cleric_2", "goblin x4")  # the ids a request takes


@pytest.mark.parametrize(("change", "loc", "fragment"), [
    ({"foes": [{"template": "goblin"}, {"template": "gobbo"}]}, ["body", "foes", 1, "template"],
     "unknown template 'gobbo'"),
    ({"party": [{"template": "broo"}]}, ["body", "party", 0, "template"], "unknown template 'broo'; did you mean"),
    ({"foes": [{"template": "goblin", "count": 7}]}, ["body", "foes", 0, "count"], ""),
    ({"foes": [{"template": "goblin", "count": 4}, {"template": "orc", "count": 3}]}, ["body", "foes"],
     "at most 6 combatants"),
    ({"fights": 5001}, ["body", "fights"], "at most 5000 fights"),
    ({"fights": 0}, ["body", "fights"], ""),
    ({"foe_policy": "nobody"}, ["body", "foe_policy"], "unknown policy 'nobody'"),
    ({"party_policy": "../../etc"}, ["body", "party_policy"], ""),
    ({"system": "dnd"}, ["body", "system"], ""),
    ({"seed": -1}, ["body", "seed"], ""),
    ({"colour": "green"}, ["body", "colour"], ""),
])
def test_a_bad_body_is_a_422_naming_the_field(client: TestClient, change: dict[str, object], loc: list[object],
                                              fragment: str) -> None:
    r = client.post("/odds", json={**BODY, **change})
    assert r.status_code == 422, r.text
    detail = r.json()["detail"]
    assert any(d["loc"] == loc and fragment in d["msg"] for d in detail), detail


def test_a_huge_body_is_refused_before_parsing(client: TestClient) -> None:
    r = client.post("/odds", content=b'{"system": "ose", "party": [' + b" " * 70_000 + b"]}",
                    headers={"content-type": "application/json"})
    assert r.status_code == 413
