"""``npc-tactics serve`` started in a subprocess, as a GM starts it, for the HTTP and browser tests: one helper
instead of a copy of the start-and-wait loop per test module."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

from tests.security.http_server import free_port

ROOT = Path(__file__).resolve().parents[1]


@contextmanager
def served(*args: str, timeout: float = 90.0) -> Iterator[str]:
    """The base URL of a real server (``serve --port P --workers 1 ARGS``) once ``/bundles`` answers; stopped on
    exit. A server that dies or does not answer in ``timeout`` seconds fails with its output."""
    port = free_port()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "npc_tactics.cli.main", "serve", "--port", str(port),
                             "--workers", "1", *args], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + timeout
        while True:
            try:
                if httpx.get(f"{base}/bundles", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"the server did not start: {proc.stdout.read() if proc.stdout else ''}")
            time.sleep(0.2)
        yield base
    finally:
        proc.terminate()
        proc.wait(timeout=20)
