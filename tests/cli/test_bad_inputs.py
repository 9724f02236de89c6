"""The bad-input corpus (issue 8 §2): every file in ``bad_inputs/`` is one hostile or mistaken command line,
run through the real CLI in a subprocess. Each must end with exactly one line on stderr containing the
expected fragment, exit code 2, no traceback, in under 5 s of CPU.

A case file (YAML) holds ``args`` (the command line after ``npc-tactics``), ``expect`` (a fragment of the
error line), optional ``files`` (``{name: text}`` written into a fresh folder first; a text may be
``{repeat: TEXT, times: N}`` for big files, or ``{bytes_hex: ...}`` for binary ones), and optional
``needs: run`` (a tiny trained OSE run exists as ``{run}``, and ``{mrq_config_run}``: the same run whose
config.yaml was edited to say MRQ, so config and model disagree). Placeholders in args and files: ``{tmp}``
(the folder), ``{repo}`` (the repository root), ``{run}``, ``{mrq_config_run}``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from npc_tactics.configs import load_yaml

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
CASES = sorted((HERE / "bad_inputs").glob("*.yaml"))
#: The promise: every bad input is refused within seconds, measured as the child's CPU time so that a busy
#: machine does not fail the test; a hang is caught by the wall-clock timeout.
CPU_LIMIT_S = 5.0
WALL_TIMEOUT_S = 60.0


def _case(path: Path) -> dict[str, Any]:
    data = load_yaml(path)
    assert isinstance(data, dict) and {"args", "expect"} <= set(data), path
    return data


@pytest.fixture(scope="module")
def runs(trained_run: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The tiny trained OSE run, and a copy whose config.yaml claims MRQ (config and model disagree)."""
    mixed = tmp_path_factory.mktemp("mixed") / "mrq_config_run"
    shutil.copytree(trained_run, mixed)
    text = (mixed / "config.yaml").read_text()
    lines = [("system: mrq" if ln.startswith("system:") else "scenario: shield_vs_greataxe"
              if ln.startswith("scenario:") else ln) for ln in text.splitlines()]
    (mixed / "config.yaml").write_text("\n".join(lines) + "\n")
    return {"run": str(trained_run), "mrq_config_run": str(mixed)}


def _fill(text: str, values: dict[str, str]) -> str:
    for key, value in values.items():
        text = text.replace("{" + key + "}", value)
    return text


def _write_files(folder: Path, files: dict[str, Any], values: dict[str, str]) -> None:
    for name, content in files.items():
        path = folder / _fill(name, values)
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, dict) and "bytes_hex" in content:
            path.write_bytes(bytes.fromhex(content["bytes_hex"]))
        elif isinstance(content, dict) and "repeat" in content:
            path.write_text(str(content["repeat"]) * int(content["times"]))
        elif isinstance(content, dict) and "dir" in content:
            path.mkdir(exist_ok=True)
        else:
            path.write_text(_fill(str(content), values))


@dataclass(frozen=True)
class Outcome:
    code: int
    stderr: str
    cpu_s: float
    wall_s: float


def _run(args: list[str], cwd: Path) -> Outcome:
    """Run the CLI in a subprocess; the child's own CPU time comes from ``os.wait4`` (so the limit holds
    whatever else the machine is doing), the wall clock only guards against hangs."""
    env = dict(os.environ, PYTHONPATH=str(REPO), COLUMNS="100")
    started = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "npc_tactics.cli.main", *args], cwd=cwd, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    timer = threading.Timer(WALL_TIMEOUT_S, proc.kill)
    timer.start()
    with ThreadPoolExecutor(2) as pool:
        out = pool.submit(proc.stdout.read)  # type: ignore[union-attr]
        err = pool.submit(proc.stderr.read)  # type: ignore[union-attr]
        _, status, usage = os.wait4(proc.pid, 0)
        stderr = err.result()
        out.result()
    timer.cancel()
    proc.returncode = os.waitstatus_to_exitcode(status)
    return Outcome(proc.returncode, stderr, usage.ru_utime + usage.ru_stime, time.perf_counter() - started)


def _prepare(path: Path, folder: Path, values: dict[str, str]) -> list[str]:
    case = _case(path)
    values = {"tmp": str(folder), "repo": str(REPO), **values}
    _write_files(folder, case.get("files") or {}, values)
    return [_fill(str(a), values) for a in case["args"]]


def _run_all(paths: list[Path], root: Path, values: dict[str, str]) -> dict[str, Outcome]:
    """Every selected case, a few at a time (each is one short-lived process)."""
    jobs = {}
    for path in paths:
        folder = root / path.stem
        folder.mkdir()
        jobs[path.stem] = (_prepare(path, folder, values), folder)
    with ThreadPoolExecutor(3) as pool:
        futures = {name: pool.submit(_run, args, folder) for name, (args, folder) in jobs.items()}
        return {name: f.result() for name, f in futures.items()}


def _selected(request: pytest.FixtureRequest, test_name: str) -> list[Path]:
    names = {item.callspec.id for item in request.session.items
             if getattr(item, "originalname", "") == test_name and hasattr(item, "callspec")}
    return [c for c in CASES if c.stem in names]


def _check(path: Path, outcome: Outcome) -> None:
    expect = str(_case(path)["expect"])
    lines = outcome.stderr.strip().splitlines()
    assert "Traceback" not in outcome.stderr, outcome.stderr[-3000:]
    assert outcome.code == 2, (outcome.code, outcome.stderr[-2000:])
    assert len(lines) == 1, outcome.stderr[-2000:]
    assert expect in lines[0], lines[0]
    assert len(lines[0]) <= 700, len(lines[0])
    assert outcome.cpu_s < CPU_LIMIT_S, f"{outcome.cpu_s:.1f} s of CPU"


PLAIN = [c for c in CASES if _case(c).get("needs") != "run"]
WITH_RUN = [c for c in CASES if _case(c).get("needs") == "run"]


@pytest.fixture(scope="module")
def plain_outcomes(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Outcome]:
    return _run_all(_selected(request, "test_bad_input"), tmp_path_factory.mktemp("bad"), {})


@pytest.fixture(scope="module")
def run_outcomes(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory, runs: dict[str, str]
) -> dict[str, Outcome]:
    return _run_all(_selected(request, "test_bad_input_with_a_trained_run"), tmp_path_factory.mktemp("badrun"), runs)


def test_corpus_is_large() -> None:
    assert len(CASES) >= 60


@pytest.mark.parametrize("path", PLAIN, ids=[c.stem for c in PLAIN])
def test_bad_input(path: Path, plain_outcomes: dict[str, Outcome]) -> None:
    _check(path, plain_outcomes[path.stem])


@pytest.mark.integration
@pytest.mark.parametrize("path", WITH_RUN, ids=[c.stem for c in WITH_RUN])
def test_bad_input_with_a_trained_run(path: Path, run_outcomes: dict[str, Outcome]) -> None:
    _check(path, run_outcomes[path.stem])
