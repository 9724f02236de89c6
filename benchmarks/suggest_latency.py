"""Latency of ``POST /suggest`` through a real ``npc-tactics serve`` (uvicorn on 127.0.0.1, HTTP over loopback):
p50 and p95 without odds and with N rollouts per legal move, for each bundle of a folder.

    python benchmarks/suggest_latency.py BUNDLES_DIR [--calls 200] [--odds 200] [--odds-calls 10] [--json]

Each bundle is asked about its system's shipped example situation (examples/<system>_situation.yaml), or about
its training scenario's start when there is no example. Targets (issue 11 §4): p50 below 50 ms without odds,
below 2 s with 200 rollouts per move on a 2-core machine. Odds need a ``suggest`` that takes ``odds``; on a
version without it the odds figures are reported as unavailable, not measured. A situation outside the range
the bundle was trained on is answered with rollouts even without odds (``rolled_out`` in --json): measure on a
bundle trained on the example's scenario (``make bench-suggest`` uses the demo bundle of ``make run``).
"""

from __future__ import annotations

import argparse
import json
import socket
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import numpy as np
import yaml

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(folder: Path, workers: int | None) -> tuple[str, Any]:
    """uvicorn serving ``folder`` in a background thread; returns the base URL and the server (to stop)."""
    import uvicorn

    from npc_tactics.gm.service.app import create_app

    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(create_app(folder, workers=workers), host="127.0.0.1", port=port,
                                           log_level="warning"))
    threading.Thread(target=server.run, daemon=True).start()
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline:
            raise RuntimeError("the server did not start in 30 s")
        time.sleep(0.05)
    return base, server


def situation_for(client: httpx.Client, bundle: dict[str, Any]) -> dict[str, Any]:
    example = EXAMPLES / f"{bundle['system']}_situation.yaml"
    if example.is_file():
        data: dict[str, Any] = yaml.safe_load(example.read_text(encoding="utf-8"))
        return data
    start: dict[str, Any] = client.get(f"/bundles/{bundle['id']}/start").raise_for_status().json()["situation"]
    return start


def timed(client: httpx.Client, body: dict[str, Any], calls: int) -> dict[str, Any]:
    """p50 / p95 / mean in milliseconds over ``calls`` requests after one warm-up; a refused request stops it."""
    first = client.post("/suggest", json=body)
    if first.status_code != 200:
        detail = first.json().get("detail")
        reason = detail[0].get("msg") if isinstance(detail, list) and detail else detail
        return {"available": False, "status": first.status_code, "reason": reason}
    ms = []
    for _ in range(calls):
        t0 = time.perf_counter()
        response = client.post("/suggest", json=body)
        ms.append(1000 * (time.perf_counter() - t0))
        response.raise_for_status()
    a = np.array(ms)
    return {"available": True, "calls": calls, "p50_ms": round(float(np.percentile(a, 50)), 2),
            "p95_ms": round(float(np.percentile(a, 95)), 2), "mean_ms": round(float(a.mean()), 2),
            "legal_moves": len(first.json()["moves"]),
            # a situation outside the bundle's training range is answered by rollouts even without odds
            "rolled_out": any(m.get("odds") for m in first.json()["moves"])}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("bundles", type=Path, help="a folder of bundles (what `npc-tactics serve --bundles` takes)")
    parser.add_argument("--calls", type=int, default=200, help="requests without odds per bundle (200)")
    parser.add_argument("--odds", type=int, default=200, help="rollouts per legal move (200; 0: skip)")
    parser.add_argument("--odds-calls", type=int, default=10, help="requests with odds per bundle (10)")
    parser.add_argument("--workers", type=int, default=None, help="rollout processes (default: CPU count)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    base, server = start_server(args.bundles, args.workers)
    results = []
    try:
        with httpx.Client(base_url=base, timeout=600) as client:
            for bundle in client.get("/bundles").json()["bundles"]:
                body = {"bundle": bundle["id"], "situation": situation_for(client, bundle), "seed": 0}
                row = {"bundle": bundle["id"], "system": bundle["system"],
                       "no_odds": timed(client, body, args.calls)}
                if args.odds:
                    row["odds"] = {"rollouts_per_move": args.odds,
                                   **timed(client, {**body, "odds": args.odds}, args.odds_calls)}
                results.append(row)
    finally:
        server.should_exit = True
    if args.json:
        print(json.dumps({"results": results}, indent=2))
        return 0
    for r in results:
        line = f"{r['bundle']:<20} {r['system']:<10} "
        n = r["no_odds"]
        line += f"no odds: p50 {n['p50_ms']:.1f} ms p95 {n['p95_ms']:.1f} ms" if n["available"] else "no odds: n/a"
        if n.get("rolled_out"):
            line += " (out of distribution: answered with rollouts)"
        if "odds" in r:
            o = r["odds"]
            line += (f" | {o['rollouts_per_move']} rollouts/move: p50 {o['p50_ms']:.0f} ms p95 {o['p95_ms']:.0f} ms"
                     if o["available"] else f" | odds unavailable ({o['reason']})")
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
