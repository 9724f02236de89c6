"""Every command of ``npc-tactics`` on the ``fake`` system (tests/fakesys), in process, end to end (issue 25):
a system that lives outside the package, registered by one line, goes through simulate, replay, train, export,
suggest with odds, play, card, probe, leaderboard, odds, build-encounter and every HTTP endpoint of ``serve``.

The steps share one tiny run, its bundle and its card (module fixtures, in that order). Each step checks what
it printed (the fake's names, its numbers), not only the exit code. Commands run through
:func:`npc_tactics.cli.main.main` in this process with ``--workers 1`` wherever there are workers, so every
part of the fake is imported through the registration of this module, never by a child process.
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable, Iterator
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

import pytest
import yaml
from fastapi.testclient import TestClient

from npc_tactics.cli.main import main
from tests.fakesys import registered
from tests.fakesys.bestiary import TEMPLATES

pytestmark = pytest.mark.integration

DATA = Path(__file__).resolve().parents[1] / "fakesys" / "data"
SITUATION = DATA / "situation_npc.yaml"  # the orc (side 0, the side the bundle plays) decides
#: the tiny training run: a few hundred steps, one small layer (as tests/training does on the fake)
TINY = {
    "system": "fake", "scenario": "duel", "side": 0, "opponents": ["by-the-book", "brute"], "seed": 0,
    "ppo": {"n_steps": 64, "batch_size": 64, "n_epochs": 2, "net_arch": [16]},
    "budget": {"timesteps": 256, "n_envs": 2, "eval_every": 256, "eval_episodes": 8, "checkpoint_every": 256},
}


def npc(*args: str | int | Path, stdin: str | None = None, code: int = 0) -> str:
    """``npc-tactics ARGS`` through the real entry point: its stdout (stderr shown when the exit code is wrong)."""
    out, err = io.StringIO(), io.StringIO()
    argv = [str(a) for a in args]
    with pytest.MonkeyPatch.context() as mp:
        if stdin is not None:
            mp.setattr("sys.stdin", io.StringIO(stdin))
        with redirect_stdout(out), redirect_stderr(err):
            try:
                main(argv)
                got = 0
            except SystemExit as exc:
                got = int(exc.code or 0)
    assert got == code, f"npc-tactics {' '.join(argv)}: exit {got}\n{err.getvalue()}\n{out.getvalue()[-2000:]}"
    return out.getvalue() + (err.getvalue() if code else "")


@pytest.fixture(scope="module", autouse=True)
def fake() -> Iterator[str]:
    with registered() as name:
        yield name


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fake-smoke")


@pytest.fixture(scope="module")
def run(work: Path) -> Path:
    config = work / "tiny.yaml"
    config.write_text(yaml.safe_dump(TINY), encoding="utf-8")
    out = npc("train", config, "--out", work / "run", "--no-progress")
    assert f"run directory: {work / 'run'}" in out
    return work / "run"


@pytest.fixture(scope="module")
def bundle(run: Path, work: Path) -> Path:
    folder = work / "bundles" / "fake-duel"
    out = npc("export", run, "--out", folder, "--fights", 50)
    assert "fake rules 0.1, duel, side 0" in out and "4 actions" in out, out
    return folder


@pytest.fixture(scope="module")
def carded(bundle: Path) -> tuple[Path, str]:
    """The bundle with its tactics card (``card`` run once: the serve tests read card.json)."""
    return bundle, npc("card", bundle, "--fights", 100, "--depths", "2")


# ----- without a trained policy --------------------------------------------------------------------------------
def test_discovery_lists_the_fake() -> None:
    assert "npc_tactics/Fake-v0" in npc("systems")
    assert "skirmish" in npc("scenarios", "fake")
    assert "brute" in npc("agents", "fake")


def test_simulate() -> None:
    summary = json.loads(npc("simulate", "fake", "skirmish", "--agents", "brute,coward", "--fights", 30, "--json"))
    assert summary["fights"] == 30 and summary["agents"] == ["brute", "coward"]
    assert summary["sides"][1]["actions"] == {"flee": summary["sides"][1]["decisions"]}  # the coward only flees
    assert summary["sides"][0]["actions"]["attack"] > 0
    table = npc("simulate", "fake", "duel", "--fights", 10, "-o", "hit_on=8")
    assert "by-the-book" in table and "attacks" in table  # the tactic profile of the fake's tactics hook


@pytest.mark.parametrize(("lang", "end"), [("en", "End of the fight after"), ("fr", "Fin du combat après")])
def test_replay(lang: str, end: str) -> None:
    story = npc("replay", "fake", "duel", "--seed", 3, "--lang", lang)
    assert end in story and "orc" in story and "elf" in story
    assert "[attack]" not in story and "[damage]" not in story  # every event told in words, none raw
    verbose = npc("replay", "fake", "duel", "--seed", 3, "--lang", lang, "--verbose")
    assert "1d6" in verbose  # the damage rolls, told only with --verbose


def test_odds() -> None:
    result = json.loads(npc("odds", "--system", "fake", "--party", "elf", "--foes", "orc, goblin",
                            "--fights", 200, "--workers", 1, "--json"))
    assert result["party"] == "elf" and result["foes"] == "orc, goblin" and result["odds"]["fights"] == 200
    assert 0.0 < result["odds"]["win"]["rate"] < 0.5  # one elf against two is the worse side
    text = npc("odds", "--system", "fake", "--situation", DATA.parent / "situation.yaml", "--fights", 100,
               "--workers", 1)
    assert "100 fights" in text and "party wins:" in text


def test_build_encounter() -> None:
    result = json.loads(npc("build-encounter", "--system", "fake", "--party", "elf, dwarf", "--target", "win=0.5",
                            "--budget", 300, "--top", 2, "--max-foes", 3, "--workers", 1, "--json"))
    assert result["groups_refused"] > 0  # groups of three: more than a fake side holds (the adapter says no)
    assert len(result["proposals"]) == 2
    for proposal in result["proposals"]:
        assert {name for name, _ in proposal["groups"]} <= set(TEMPLATES)
        assert sum(count for _, count in proposal["groups"]) <= 2
    text = npc("build-encounter", "--system", "fake", "--party", "elf", "--target", "win=0.5", "--budget", 100,
               "--top", 1, "--max-foes", 2, "--workers", 1, "--lang", "fr")
    assert "1." in text and "elf" in text


def test_leaderboard(work: Path) -> None:
    out = npc("leaderboard", DATA / "suite.yaml", "--out", work / "leaderboard", "--workers", 1, "--no-progress")
    assert "fake: best" in out and "fights in" in out
    results = json.loads((work / "leaderboard" / "results.json").read_text(encoding="utf-8"))
    (section,) = results["sections"]
    assert section["scenarios"] == ["duel", "skirmish", "encounters:fake_mix"]  # and draws of the distribution
    assert {row["agent"] for row in section["leaderboard"]} == {"by-the-book", "brute", "coward"}
    assert set(section["profiles"]) == {"by-the-book", "brute", "coward"}


def test_bestiary_is_optional() -> None:
    out = npc("bestiary", "fake", code=2)  # the fake's content offers no stat-line bestiary: one line, no trace
    assert "the fake system has no stat-line bestiary" in out and "Traceback" not in out


# ----- with the tiny run, its bundle and its card ----------------------------------------------------------------
def test_train_writes_a_fake_run(run: Path) -> None:
    meta = json.loads((run / "meta.json").read_text(encoding="utf-8"))
    assert (run / "policy.pt").is_file() and "fake" in json.dumps(meta)


def test_export_writes_a_fake_bundle(bundle: Path) -> None:
    schema = json.loads((bundle / "schema.json").read_text(encoding="utf-8"))
    assert schema["system"] == "fake" and schema["scenario"] == "duel" and schema["side"] == 0
    assert schema["actions"] == ["attack:enemy_0", "attack:enemy_1", "defend:self", "flee:self"]


def test_suggest_with_odds(bundle: Path) -> None:
    result = json.loads(npc("suggest", "--situation", SITUATION, "--bundle", bundle, "--odds", 40,
                            "--workers", 1, "--json"))
    moves = result["moves"]
    assert sorted(m["label"] for m in moves) == ["attack elf", "defend", "flee"], moves  # legal moves, in words
    assert sum(m["probability"] for m in moves) == pytest.approx(1.0, abs=1e-3)
    assert all(m["odds"]["rollouts"] == 40 for m in moves)
    text = npc("suggest", "--situation", SITUATION, "--bundle", bundle, "--odds", 20, "--workers", 1,
               "--lang", "fr")
    assert "orc" in text and "elf" in text and "%" in text


def test_play_with_scripted_input(bundle: Path) -> None:
    out = npc("play", "fake", "duel", "--bundle", bundle, "--seed", 2, stdin="nonsense\n" + "1\n" * 60)
    assert "End of the fight after" in out
    assert "orc (NPC) chooses:" in out and "Your move for elf" in out
    assert "Please type a number from 1 to" in out  # "nonsense" was asked again


def test_card(carded: tuple[Path, str]) -> None:
    bundle, out = carded
    card = json.loads((bundle / "card.json").read_text(encoding="utf-8"))
    assert card["system"] == "fake" and card["rules"]
    assert "Facing: elf" in out and f"card: {bundle / 'card.json'}" in out
    assert "Win rate over 100 fights" in out


def test_probe(bundle: Path, work: Path) -> None:
    result = json.loads(npc("probe", bundle, DATA / "probes", "--rollouts", 40, "--workers", 1, "--json"))
    assert result["probes"] == 1 and 0 <= result["passed"] <= 1, result
    text = npc("probe", "brute", DATA / "probes" / "fake.yaml", "--rollouts", 40, "--workers", 1,
               "--out", work / "probes")
    assert "PASS fake/finish_the_elf" in text and "attack elf" in text  # brute attacks: the best move
    assert (work / "probes" / "probes.md").is_file()


def test_probe_by_system_name() -> None:
    """The fake's shipped probes are found through its plugin's content folder (tests/fakesys/data)."""
    assert "fake/finish_the_elf" in npc("probe", "brute", "fake", "--rollouts", 20, "--workers", 1)


# ----- serve: one request per endpoint, the routes read from the app ---------------------------------------------
BODY_SUGGEST = {"bundle": "fake-duel", "situation": yaml.safe_load(SITUATION.read_text(encoding="utf-8")),
                "odds": 20}
BODY_ODDS = {"system": "fake", "party": [{"template": "elf"}], "foes": [{"template": "goblin", "count": 2}],
             "fights": 100}


def _start(body: Any) -> bool:
    return bool(body["system"] == "fake" and body["situation"]["acting"] == "orc")


#: (method, route) -> (the request's path, its JSON body or None, a check of the answer)
REQUESTS: dict[tuple[str, str], tuple[str, dict[str, Any] | None, Callable[[Any], bool]]] = {
    ("GET", "/"): ("/", None, lambda r: '<option value="fake">fake</option>' in r.text),  # the odds panel
    ("GET", "/static"): ("/static/app.js", None, lambda r: "/bestiary/" in r.text),
    ("GET", "/openapi.json"): ("/openapi.json", None,
                               lambda r: "fake" in r.json()["components"]["schemas"]["OddsRequest"]["properties"]
                               ["system"]["enum"]),
    ("GET", "/docs"): ("/docs", None, lambda r: "swagger" in r.text.lower()),
    ("GET", "/docs/oauth2-redirect"): ("/docs/oauth2-redirect", None, lambda r: "oauth2" in r.text.lower()),
    ("GET", "/redoc"): ("/redoc", None, lambda r: "redoc" in r.text.lower()),
    ("GET", "/bundles"): ("/bundles", None, lambda r: r.json()["bundles"][0]["system"] == "fake"),
    ("GET", "/bundles/{bundle_id}/schema"): ("/bundles/fake-duel/schema", None,
                                             lambda r: r.json()["system"] == "fake"),
    ("GET", "/bundles/{bundle_id}/card"): ("/bundles/fake-duel/card?lang=fr", None,
                                           lambda r: r.json()["card"]["system"] == "fake" and "elf" in r.json()
                                           ["markdown"]),
    ("GET", "/bundles/{bundle_id}/start"): ("/bundles/fake-duel/start", None, lambda r: _start(r.json())),
    ("GET", "/bestiary/{system}"): ("/bestiary/fake", None,
                                    lambda r: {t["name"] for t in r.json()["templates"]} == set(TEMPLATES)),
    ("GET", "/i18n/{lang}"): ("/i18n/fr", None, lambda r: r.json()["lang"] == "fr" and r.json()["messages"]),
    ("POST", "/suggest"): ("/suggest", BODY_SUGGEST,
                           lambda r: r.json()["bundle"] == "fake-duel" and "elf" in r.json()["situation_text"]
                           and all(m["odds"]["rollouts"] == 20 for m in r.json()["moves"])),
    ("POST", "/odds"): ("/odds", BODY_ODDS,
                        lambda r: r.json()["odds"]["fights"] == 100 and "goblin" in r.json()["text"]),
}


@pytest.fixture(scope="module")
def app(carded: tuple[Path, str]) -> Any:
    from npc_tactics.gm.service.app import create_app

    return create_app(carded[0].parent, workers=1)


def _routes(app: Any) -> set[tuple[str, str]]:
    inner = app.app  # create_app wraps the FastAPI app in its body limit
    out = set()
    for route in inner.routes:
        for method in sorted(getattr(route, "methods", None) or {"GET"}):  # a mount (static files) has none
            if method != "HEAD":
                out.add((method, route.path))
    return out


def test_every_route_has_a_request(app: Any) -> None:
    assert _routes(app) == set(REQUESTS)


@pytest.mark.parametrize("route", sorted(REQUESTS), ids=[f"{m} {p}" for m, p in sorted(REQUESTS)])
def test_serve_endpoint(app: Any, route: tuple[str, str]) -> None:
    path, body, check = REQUESTS[route]
    client = TestClient(app)
    got = client.post(path, json=body) if route[0] == "POST" else client.get(path)
    assert got.status_code == 200, (route, got.text[:500])
    assert check(got), (route, got.text[:500])
