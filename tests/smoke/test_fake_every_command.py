"""Every command of ``npc-tactics`` on the ``fake`` system (tests/fakesys), in process, end to end (issue 25):
a system that lives outside the package, registered by one line, goes through simulate, replay, train, export,
evaluate, distill, suggest with odds, play, card, probe, leaderboard, odds, build-encounter and every HTTP
endpoint of ``serve``; :data:`STEPS` names the test of each command of ``npc-tactics --help``, and a command
with none fails :func:`test_every_command_has_a_step`.

The steps share one tiny run, its bundle and its card (module fixtures, in that order); distill adds a tiny
generalist run on the fake's encounter distribution. Each step checks what it printed (the fake's names, its
numbers), not only the exit code. Commands run through
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
from npc_tactics.evaluation.tactic_profile import derive
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
#: the tiny generalist distill starts from: the same run, on fights drawn from the fake's encounter distribution
TINY_GENERALIST = {**{k: v for k, v in TINY.items() if k != "scenario"}, "encounter": "fake_mix"}


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
def generalist(work: Path) -> Path:
    config = work / "generalist.yaml"
    config.write_text(yaml.safe_dump(TINY_GENERALIST), encoding="utf-8")
    npc("train", config, "--out", work / "generalist", "--no-progress")
    return work / "generalist"


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


def test_presets() -> None:
    """Training presets are shipped per real system (none for the fake): the listing still runs beside it."""
    presets = json.loads(npc("presets", "--json"))
    assert presets and "fake" not in json.dumps(presets)


def test_evaluate(work: Path) -> None:
    out = npc("evaluate", "--system", "fake", "--scenario", "duel", "--agents", "by-the-book,brute,coward",
              "--fights", 12, "--workers", 1, "--no-progress", "--tactics", "--out", work / "evaluate")
    assert "by-the-book (side 1) vs coward: win 100.0%" in out and "over 12 fights" in out, out  # it flees at once
    results = json.loads((work / "evaluate" / "results.json").read_text(encoding="utf-8"))
    assert results["system"] == "fake" and results["scenario"] == "duel"
    assert set(results["tactic_profiles"]) == {"by-the-book", "brute", "coward"}
    players = results["tactics"]["players"]  # the named tactics of the fake's tactics hook, per agent
    assert set(players) == {"by-the-book", "brute", "coward"}
    assert {"retreat_when_losing", "focus_fire"} <= set(players["brute"])
    assert (work / "evaluate" / "report.md").is_file()


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
    # the figure of the fake's own leaderboard counter (tactics hook): the coward flees at once, never choosing;
    # the common figures beside it, and none of another system's
    assert section["profiles"]["coward"]["all"]["defend_share"] is None
    assert 0.0 <= section["profiles"]["brute"]["all"]["defend_share"] <= 1.0
    common = set(derive({}, 1)) | {"flee_rate_ci", "with_flight", "without_flight"}
    assert set(section["profiles"]["brute"]["all"]) == common | {"defend_share"}


def test_bestiary_is_optional() -> None:
    out = npc("bestiary", "fake", code=2)  # the fake's content offers no stat-line bestiary: one line, no trace
    assert "the fake system has no stat-line bestiary" in out and "Traceback" not in out


# ----- with the tiny run, its bundle and its card ----------------------------------------------------------------
def test_train_writes_a_fake_run(run: Path) -> None:
    meta = json.loads((run / "meta.json").read_text(encoding="utf-8"))
    assert (run / "policy.pt").is_file() and "fake" in json.dumps(meta)


def test_distill(generalist: Path, run: Path, work: Path) -> None:
    student = work / "student"
    out = npc("distill", generalist, "--teacher", f"duel={run}", "--out", student, "--fights", 8,
              "--scenario-fights", 6, "--rounds", 2, "--epochs", 2)
    assert f"student: {student}" in out and "agrees with its teacher: " in out, out
    report = json.loads((student / "distill.json").read_text(encoding="utf-8"))
    assert set(report["teachers"]) == {"duel"} and len(report["rounds"]) == 2
    assert set(report["rounds"][-1]["decisions"]) == {"base", "duel"}  # fights drawn from fake_mix, and duels
    meta = json.loads((student / "meta.json").read_text(encoding="utf-8"))
    assert meta["distilled"]["teachers"] == {"duel": "run"} and "fake" in json.dumps(meta)
    exported = npc("export", student, "--out", work / "bundles" / "fake-student", "--fights", 10)
    assert "fake rules 0.1" in exported, exported


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


#: the combat tracker's routes, run in order on one fake fight by :func:`test_a_tracker_fight_on_the_fake`
TRACKER_ROUTES = {("POST", "/fights"), ("GET", "/fights/templates/{system}"), ("GET", "/fights/formats"),
                  ("GET", "/fights/{fight_id}"), ("DELETE", "/fights/{fight_id}"),
                  ("POST", "/fights/{fight_id}/combatants"), ("DELETE", "/fights/{fight_id}/combatants/{index}"),
                  ("PATCH", "/fights/{fight_id}/combatants/{index}"), ("POST", "/fights/{fight_id}/import"),
                  ("POST", "/fights/{fight_id}/start"), ("POST", "/fights/{fight_id}/step"),
                  ("POST", "/fights/{fight_id}/advise"), ("POST", "/fights/{fight_id}/die"),
                  ("POST", "/fights/{fight_id}/undo"), ("GET", "/fights/{fight_id}/save"),
                  ("POST", "/fights/load"), ("GET", "/tracker"),
                  ("PATCH", "/fights/{fight_id}/sides/{side}"), ("GET", "/fights/{fight_id}/log")}


def test_every_route_has_a_request(app: Any) -> None:
    assert _routes(app) == set(REQUESTS) | TRACKER_ROUTES


def test_a_tracker_fight_on_the_fake(app: Any) -> None:
    """Every tracker route on a fake fight: set up, edit, advise, play by the advisor and by hand, a typed die, undo,
    save and load (the fake imports no other program's files: that route names the formats it lacks)."""
    client = TestClient(app)
    assert "tracker" in client.get("/tracker").text.lower()
    names = [t["name"] for t in client.get("/fights/templates/fake").json()["templates"]]
    assert set(names) >= set(TEMPLATES)
    assert all(f["system"] != "fake" for f in client.get("/fights/formats").json()["formats"])
    sides = [{"name": "orcs"}, {"name": "heroes", "control": "pc"}]
    made = client.post("/fights", json={"system": "fake", "sides": sides, "seed": 3, "bundle": "fake-duel",
                                        "dice": "pcs"})
    assert made.status_code == 201, made.text[:500]
    fid = made.json()["id"]
    for side, name in ((0, "orc"), (1, "elf"), (1, "elf")):
        got = client.post(f"/fights/{fid}/combatants", json={"side": side, "template": name})
        assert got.status_code == 200, got.text[:500]
    assert client.delete(f"/fights/{fid}/combatants/2").status_code == 200
    assert client.patch(f"/fights/{fid}/combatants/1", json={"fields": {"name": "Elwe"}}).status_code in (200, 422)
    renamed = client.patch(f"/fights/{fid}/sides/1", json={"name": "the heroes", "control": "pc"})
    assert renamed.status_code == 200, renamed.text[:500]
    refused = client.post(f"/fights/{fid}/import", json={"format": "no-such-format", "data": {}})
    assert refused.status_code == 422 and "format" in str(refused.json()["detail"][0]["loc"])
    assert client.post(f"/fights/{fid}/start").status_code == 200
    played = set()
    for _ in range(200):
        now = client.get(f"/fights/{fid}").json()
        if now.get("decision") is None and now.get("die") is None:
            break
        if now.get("die"):
            got, kind = client.post(f"/fights/{fid}/die", json={"face": 1}), "die"
        elif now["decision"].get("side") == 0:
            assert client.post(f"/fights/{fid}/advise", json={"odds": 2}).status_code == 200
            got, kind = client.post(f"/fights/{fid}/step", json={"advice": True, "odds": 2, "by": "advisor"}), "npc"
        else:
            got, kind = client.post(f"/fights/{fid}/step", json={"action": now["decision"]["moves"][0]["action"]}), "pc"
        assert got.status_code == 200, got.text[:500]
        played.add(kind)
    assert played == {"die", "npc", "pc"}, played
    assert client.post(f"/fights/{fid}/undo").status_code == 200
    saved = client.get(f"/fights/{fid}/save")
    assert saved.status_code == 200
    log = client.get(f"/fights/{fid}/log?lang=fr")
    assert log.status_code == 200 and log.text.startswith("Journal du combat") and "orcs" in log.text
    loaded = client.post("/fights/load", json={"fight": saved.json()})
    assert loaded.status_code == 201, loaded.text[:500]
    assert client.delete(f"/fights/{fid}").json() == {"deleted": fid}


@pytest.mark.parametrize("route", sorted(REQUESTS), ids=[f"{m} {p}" for m, p in sorted(REQUESTS)])
def test_serve_endpoint(app: Any, route: tuple[str, str]) -> None:
    path, body, check = REQUESTS[route]
    client = TestClient(app)
    got = client.post(path, json=body) if route[0] == "POST" else client.get(path)
    assert got.status_code == 200, (route, got.text[:500])
    assert check(got), (route, got.text[:500])


# ----- the commands of `npc-tactics --help` ----------------------------------------------------------------------
#: each command -> the test that runs it on the fake (serve: its app, every endpoint in process)
STEPS: dict[str, str] = {
    "systems": "test_discovery_lists_the_fake", "scenarios": "test_discovery_lists_the_fake",
    "agents": "test_discovery_lists_the_fake", "presets": "test_presets", "train": "test_train_writes_a_fake_run",
    "evaluate": "test_evaluate", "simulate": "test_simulate", "replay": "test_replay",
    "export": "test_export_writes_a_fake_bundle", "card": "test_card", "suggest": "test_suggest_with_odds",
    "play": "test_play_with_scripted_input", "serve": "test_serve_endpoint", "probe": "test_probe",
    "distill": "test_distill", "leaderboard": "test_leaderboard", "odds": "test_odds",
    "build-encounter": "test_build_encounter", "bestiary": "test_bestiary_is_optional",
}
#: commands that cannot take the fake, and why
NOT_ON_THE_FAKE: dict[str, str] = {
    "import": "its formats are other programs' exports of real systems' creatures (no program writes the fake's)",
}


def test_every_command_has_a_step() -> None:
    import typer.main

    from npc_tactics.cli.main import app

    commands = set(typer.main.get_command(app).commands)  # type: ignore[attr-defined]
    missing = sorted(commands - set(STEPS) - set(NOT_ON_THE_FAKE))
    assert not missing, f"commands with no smoke step on the fake (add one to STEPS): {missing}"
    stale = sorted(set(STEPS) - commands)
    assert not stale, f"STEPS names commands that are gone: {stale}"
    assert all(callable(globals().get(test)) for test in STEPS.values())
