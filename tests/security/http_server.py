"""A real ``npc-tactics`` HTTP server in its own process, for the trust tests, with Python's audit hooks
recording every file the server opens or lists below a watched folder (the canary), so a test can prove that no
request made the server read a file it names.

The server serves the shipped generalist bundles (no training needed) through ``create_app`` and uvicorn, the
same objects ``npc-tactics serve`` runs; the gate's queue length and time limit are the test's to set."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx

REPO = Path(__file__).resolve().parents[2]
SHIPPED_BUNDLES = REPO / "npc_tactics" / "policies"

LAUNCHER = r'''
import os, sys
sys.path[:] = [p for p in sys.path if p not in ("", ".")]  # imports never look in the watched working folder
watched, log, bundles, port, waiting, limit = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), \
    int(sys.argv[5]), float(sys.argv[6])
fd = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)

def hook(event, args):
    if event in ("open", "os.listdir", "os.scandir") and args and args[0] is not None:
        try:
            path = os.fsdecode(args[0]) if not isinstance(args[0], int) else ""
        except Exception:
            return
        if path in sys.path:  # the import system probing its own path entries, not a request
            return
        if watched in os.path.abspath(path):
            os.write(fd, (event + " " + path + "\n").encode())

sys.addaudithook(hook)
import uvicorn
from npc_tactics.gm.service.app import create_app
from npc_tactics.gm.service.limits import HeavyGate
app = create_app(bundles, workers=1, gate=HeavyGate(max_waiting=waiting, wait_s=30.0, limit_s=limit))
uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning")
'''


@dataclass
class Server:
    url: str
    audit_log: Path
    process: subprocess.Popen[bytes]

    def files_touched(self) -> list[str]:
        """Every open/list of a watched path the server made so far."""
        return self.audit_log.read_text().splitlines() if self.audit_log.exists() else []


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def running_server(watched: Path, log: Path, *, bundles: Path = SHIPPED_BUNDLES, max_waiting: int = 4,
                   limit_s: float = 120.0) -> Iterator[Server]:
    """Start the server (loopback only), wait until it answers, stop it afterwards."""
    port = free_port()
    env = {**os.environ, "NPC_TACTICS_PURE": os.environ.get("NPC_TACTICS_PURE", "")}
    proc = subprocess.Popen([sys.executable, "-c", LAUNCHER, str(watched), str(log), str(bundles), str(port),
                             str(max_waiting), str(limit_s)], cwd=str(watched), env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"server died: {proc.stderr.read().decode()[-2000:] if proc.stderr else ''}")
            try:
                if httpx.get(url + "/bundles", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("server did not start in 120 s")
            time.sleep(0.2)
        yield Server(url, log, proc)
    finally:
        proc.kill()
        proc.wait(timeout=30)
