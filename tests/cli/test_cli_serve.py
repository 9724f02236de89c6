"""``serve``'s address is checked before uvicorn starts (issue 30 §6): a port already in use and an address of
another machine are one line on stderr and exit code 2, not uvicorn's six log lines and exit code 1 or 3."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def _serve(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(REPO))
    return subprocess.run([sys.executable, "-m", "npc_tactics.cli", "serve", *args], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=60)


def _one_line(proc: subprocess.CompletedProcess[str]) -> str:
    lines = [ln for ln in proc.stderr.splitlines() if not ln.startswith("npc-tactics: running the pure")]
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr and len(lines) == 1, proc.stderr
    return lines[0]


def test_a_port_in_use_is_one_line(tmp_path: Path) -> None:
    with socket.create_server(("127.0.0.1", 0)) as busy:
        port = busy.getsockname()[1]
        line = _one_line(_serve(tmp_path, "--host", "127.0.0.1", "--port", str(port)))
    assert f"--port: 127.0.0.1:{port} is already in use" in line


def test_an_address_of_another_machine_is_one_line(tmp_path: Path) -> None:
    line = _one_line(_serve(tmp_path, "--host", "192.0.2.1", "--port", "8799"))  # TEST-NET-1: nobody's
    assert "--host: cannot listen on 192.0.2.1:8799" in line
