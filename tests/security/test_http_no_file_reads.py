"""No request makes the server read, list or block on a file it names (issue 30, security).

A real server process runs with its working directory in a canary folder and an audit hook that logs every
``open``, ``listdir`` and ``scandir`` below that folder. Every field a client controls is then given paths to
the canary (absolute, relative, ``..``, a FIFO, ``/dev/stdin``): the answers never quote the canary, never say
whether a path exists, never are a server error, and the audit log stays empty."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from npc_tactics.errors import shown
from tests.security.http_server import REPO, Server, running_server

pytestmark = pytest.mark.integration

SECRET = "CANARY-4f1c: do not read me"
EXAMPLES = {"ose": "ose_situation.yaml", "runequest": "runequest_situation.yaml", "mrq": "mrq_situation.yaml",
            "dicepool": "dicepool_situation.yaml"}


@pytest.fixture(scope="module")
def canary(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("canary-watched")
    (folder / "secret.yaml").write_text(f"{SECRET}\nkey: value\n")
    (folder / "secret.txt").write_text(SECRET + "\n")
    os.mkfifo(folder / "pipe.yaml")
    (folder / "sub").mkdir()
    return folder


@pytest.fixture(scope="module")
def server(canary: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    log = tmp_path_factory.mktemp("audit") / "audit.log"
    with running_server(canary, log) as srv:
        yield srv


def path_strings(canary: Path) -> list[str]:
    """Every way a client might name the canary or a blocking file."""
    return [str(canary / "secret.yaml"), str(canary / "secret.txt"), "secret.yaml", "./secret.yaml",
            "sub/../secret.yaml", f"{canary}/sub/../secret.yaml", str(canary / "pipe.yaml"), "pipe.yaml",
            "/dev/stdin", "/dev/ptmx", "/dev/zero", "/proc/self/environ", "/etc/passwd", "file:///etc/passwd",
            "../" * 12 + "etc/passwd", str(canary / "missing.yaml"), str(canary)]


def example(system: str) -> dict[str, Any]:
    data = yaml.safe_load((REPO / "examples" / EXAMPLES[system]).read_text())
    assert isinstance(data, dict)
    return data


def assert_clean(response: httpx.Response, canary: Path) -> None:
    assert response.status_code < 500, response.text[:300]
    assert SECRET not in response.text and "key: value" not in response.text
    assert "No such file" not in response.text and "file not found" not in response.text


def test_scenario_field_names_only_shipped_scenarios(server: Server, canary: Path) -> None:
    answers = set()
    for path in path_strings(canary):
        body = {"bundle": "ose", "situation": {**example("ose"), "scenario": path}}
        r = httpx.post(server.url + "/suggest", json=body, timeout=30)
        assert r.status_code == 422, r.text[:300]
        assert_clean(r, canary)
        msg = r.json()["detail"][0]["msg"]
        assert "unknown scenario" in msg and "valid scenarios: caster_duel" in msg
        answers.add(msg.replace(shown(path), "<path>"))
    assert len(answers) == 1, answers  # the same words whether the file exists, is a FIFO or is missing
    assert server.files_touched() == []


def test_a_shipped_or_inline_scenario_still_works(server: Server) -> None:
    body = {"bundle": "ose", "situation": {**example("ose"), "scenario": "goblin_duel"}}
    assert httpx.post(server.url + "/suggest", json=body, timeout=30).status_code == 200
    inline = yaml.safe_load((REPO / "npc_tactics/systems/ose/content/scenarios/goblin_duel.yaml").read_text())
    body = {"bundle": "ose", "situation": {**example("ose"), "scenario": inline}}
    r = httpx.post(server.url + "/suggest", json=body, timeout=30)
    assert r.status_code == 200, r.text[:300]
    inline["sides"] = []
    r = httpx.post(server.url + "/suggest", json={"bundle": "ose", "situation": {**example("ose"),
                                                                                "scenario": inline}}, timeout=30)
    assert r.status_code == 422 and r.json()["detail"][0]["loc"][:4] == ["body", "situation", "scenario", "sides"]


def test_forty_one_fifo_requests_do_not_stop_the_server(server: Server, canary: Path) -> None:
    body = {"bundle": "ose", "situation": {**example("ose"), "scenario": str(canary / "pipe.yaml")}}
    with ThreadPoolExecutor(8) as pool:
        codes = list(pool.map(lambda _: httpx.post(server.url + "/suggest", json=body, timeout=60).status_code,
                              range(41)))
    assert set(codes) == {422}
    assert httpx.get(server.url + "/bundles", timeout=10).status_code == 200
    ok = {"bundle": "ose", "situation": example("ose")}
    assert httpx.post(server.url + "/suggest", json=ok, timeout=10).status_code == 200
    assert server.files_touched() == []


def _leaves(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _leaves(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _leaves(v, (*path, i))
    else:
        yield path, value


def _set(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        return {**value, head: _set(value[head], rest, new)}
    out = list(value)
    out[head] = _set(out[head], rest, new)
    return out


def hostile_values(canary: Path) -> st.SearchStrategy[Any]:
    deep: Any = "x"
    for _ in range(40):
        deep = [deep]
    return st.one_of(st.sampled_from(path_strings(canary)), st.sampled_from([True, None, [], {}, "", "5", 1e308,
                                                                              -1, 2**70, deep, {"a": deep}]),
                     st.text(max_size=30))


def test_fuzz_every_string_field_of_every_endpoint(server: Server, canary: Path) -> None:
    """Path-like strings, wrong types, non-finite numbers and deep nesting at random leaves of valid bodies of
    every endpoint; 0 server errors, nothing of the canary read."""
    starts: list[tuple[str, dict[str, Any]]] = [("/suggest", {"bundle": system, "situation": example(system)})
                                                for system in EXAMPLES]
    starts.append(("/odds", {"system": "ose", "party": [{"template": "fighter_1", "count": 1}],
                             "foes": [{"template": "goblin", "count": 2}], "fights": 5,
                             "party_policy": "by-the-book", "foe_policy": "by-the-book"}))
    calls = {"n": 0}
    lock = threading.Lock()

    @given(start=st.sampled_from(starts), pick=st.integers(0, 10_000), value=hostile_values(canary),
           raw_nan=st.booleans())
    @settings(max_examples=300, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    def check(start: tuple[str, dict[str, Any]], pick: int, value: Any, raw_nan: bool) -> None:
        route, body = start
        leaves = list(_leaves(body))
        where, _ = leaves[pick % len(leaves)]
        changed = _set(body, where, value)
        if raw_nan:  # a literal JSON does not allow, which Python's parser would take
            import json

            text = json.dumps(changed).replace("5", "NaN", 1) if "5" in json.dumps(changed) else json.dumps(changed)
            r = httpx.post(server.url + route, content=text, headers={"content-type": "application/json"},
                           timeout=60)
        else:
            r = httpx.post(server.url + route, json=changed, timeout=60)
        assert_clean(r, canary)
        with lock:
            calls["n"] += 1

    check()
    for path in path_strings(canary):  # the GET routes: every path parameter and query
        for url in (f"/bundles/{path}/schema", f"/bundles/{path}/card", f"/bundles/{path}/start",
                    f"/bestiary/{path}", f"/i18n/{path}", f"/bundles/ose/card?lang={path}", f"/static/{path}"):
            assert_clean(httpx.get(server.url + url, timeout=30), canary)
    assert calls["n"] >= 300
    assert server.files_touched() == []
