"""A flood of heavy requests does not stop the server (issue 30, denial of service).

Before: 44 queued 5,000-fight ``/odds`` requests each held a server thread, and ``/suggest`` waited more than
25 s. Now a few wait in line, the rest are told at once to come back (429 with ``Retry-After``), and a
question without rollouts is answered while the fights run. Traffic goes to loopback only, bounded in count."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest
import yaml

from tests.security.http_server import REPO, running_server

pytestmark = pytest.mark.integration

HEAVY = {"system": "runequest", "party": [{"template": "rune_lord", "count": 2}],
         "foes": [{"template": "broo", "count": 3}], "fights": 5000}
FLOOD = 30


def _situation() -> dict[str, object]:
    data = yaml.safe_load((REPO / "examples" / "ose_situation.yaml").read_text())
    assert isinstance(data, dict)
    return data


def _heavy_body() -> dict[str, object]:
    from npc_tactics.gm.encounter.odds import template_names
    from npc_tactics.registry import get_system

    names = template_names(get_system("runequest"))
    party, foes = names[0], names[-1]
    return {**HEAVY, "party": [{"template": party, "count": 2}], "foes": [{"template": foes, "count": 3}]}


def test_suggest_answers_while_odds_requests_flood_the_server(tmp_path: Path) -> None:
    body = _heavy_body()
    with running_server(tmp_path, tmp_path / "audit.log", max_waiting=2) as server, ThreadPoolExecutor(FLOOD) as pool:
        flood = [pool.submit(httpx.post, server.url + "/odds", json=body, timeout=300) for _ in range(FLOOD)]
        time.sleep(1.0)  # the flood is in: one runs, two wait, the rest are refused
        started = time.monotonic()
        answer = httpx.post(server.url + "/suggest", json={"bundle": "ose", "situation": _situation()}, timeout=60)
        took = time.monotonic() - started
        page = httpx.get(server.url + "/", timeout=60)
        responses = [f.result() for f in flood]
    assert answer.status_code == 200 and page.status_code == 200
    assert took < 20, f"/suggest took {took:.1f} s under the flood"
    codes = [r.status_code for r in responses]
    refused = [r for r in responses if r.status_code in (429, 503)]
    assert len(refused) >= FLOOD - 3 - 3, codes  # at most the running one and those in line (and a few that
    assert all(r.headers.get("retry-after", "").isdigit() for r in refused), codes  # found a free slot) got in
    assert set(codes) <= {200, 429, 503}, codes
    assert "waiting" in refused[0].json()["detail"] or "busy" in refused[0].json()["detail"]


def test_a_heavy_request_stops_at_the_time_limit(tmp_path: Path) -> None:
    body = {**_heavy_body(), "fights": 5000}
    with running_server(tmp_path, tmp_path / "audit.log", limit_s=0.5) as server:
        started = time.monotonic()
        r = httpx.post(server.url + "/odds", json=body, timeout=120)
        took = time.monotonic() - started
        after = httpx.post(server.url + "/odds", json={**body, "fights": 5}, timeout=60)
    assert r.status_code == 503 and r.headers.get("retry-after") == "1", r.text[:300]
    assert "limit of 0.5 s" in r.json()["detail"]
    assert took < 30, took  # stopped within a chunk or so of the limit, not after the 5,000 fights
    assert after.status_code == 200, after.text[:300]  # the slot was released
