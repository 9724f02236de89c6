"""Compiled and pure engines refuse a bad input with the same one-line error (issue 30 §7).

An impossible GM die in a ``pending:`` entry (a 7 on the d2 the rules ask for) gave the intended one-line error
with the pure engines and ``TypeError: IllegalActionError object expected; got ValueError`` with the compiled
ones: mypyc gives a name bound by ``except`` the type of its first binding, and checks it on every later binding
when that type is a native (compiled) class. The behaviour is checked through the real CLI with both engines,
and the cause statically over every compiled module's source, so that it is caught even where no build exists.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

from npc_tactics.compiled import COMPILED_MODULES, PURE_ENV, source_path, status

ROOT = Path(__file__).resolve().parents[2]
BUILT = status()["engines"] == "compiled"
BAD_DIE = "scripted roll #2 is 7, impossible on a d2"


def _bad_situation(folder: Path) -> Path:
    """examples/mrq_impale.yaml with a 7 for the damage roll on the d2."""
    text = (ROOT / "examples" / "mrq_impale.yaml").read_text(encoding="utf-8")
    assert "rolls: [5, 2, 2, 70, 30]" in text
    path = folder / "bad_die.yaml"
    path.write_text(text.replace("rolls: [5, 2, 2, 70, 30]", "rolls: [5, 7, 2, 70, 30]"), encoding="utf-8")
    return path


def _suggest(situation: Path, pure: bool) -> tuple[int, list[str]]:
    env = {k: v for k, v in os.environ.items() if k != PURE_ENV}
    env["PYTHONPATH"] = str(ROOT)
    if pure:
        env[PURE_ENV] = "1"
    proc = subprocess.run([sys.executable, "-m", "npc_tactics.cli.main", "suggest", "--system", "mrq", "--situation",
                           str(situation)], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    lines = [ln for ln in proc.stderr.splitlines() if not ln.startswith("npc-tactics: running the pure-Python")]
    return proc.returncode, lines


def test_pure_engines_refuse_an_impossible_pending_die_in_one_line(tmp_path: Path) -> None:
    code, lines = _suggest(_bad_situation(tmp_path), pure=True)
    assert code == 2 and len(lines) == 1, lines
    assert lines[0].endswith(f"bad_die.yaml: pending.impale: {BAD_DIE}"), lines


@pytest.mark.skipif(not BUILT, reason="the compiled engines are not built here (or stale: make install)")
def test_compiled_engines_give_the_same_error(tmp_path: Path) -> None:
    situation = _bad_situation(tmp_path)
    assert _suggest(situation, pure=False) == _suggest(situation, pure=True)


def _native_classes() -> set[str]:
    """Names of the classes the compiled modules define as native classes (not ``native_class=False``)."""
    names = set()
    for module in COMPILED_MODULES:
        for node in ast.walk(ast.parse(source_path(module).read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and "native_class=False" not in "".join(
                    ast.unparse(d) for d in node.decorator_list):
                names.add(node.name)
    return names


def _rebound_except_names(tree: ast.AST, native: set[str]) -> list[str]:
    """``function: name`` wherever one function binds an ``except ... as name`` to several exception types,
    the first of which is a native class (mypyc then refuses the others with TypeError)."""
    found = []
    for fn in ast.walk(tree):
        if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        first: dict[str, str] = {}
        for node in ast.walk(fn):
            if isinstance(node, ast.ExceptHandler) and node.name:
                kind = ast.unparse(node.type) if node.type is not None else "BaseException"
                bound = first.setdefault(node.name, kind)
                if bound != kind and bound.rpartition(".")[2] in native:
                    found.append(f"{fn.name}: {node.name} ({bound}, then {kind})")
    return found


def test_no_compiled_function_rebinds_a_native_exception_name() -> None:
    native = _native_classes()
    problems = [f"{module}.{p}" for module in COMPILED_MODULES
                for p in _rebound_except_names(ast.parse(source_path(module).read_text(encoding="utf-8")), native)]
    assert not problems, problems


def test_the_static_check_sees_the_original_bug() -> None:
    before = """
def drive():
    try:
        step()
    except IllegalActionError as exc:
        raise ConfigError(str(exc))
    except ValueError as exc:
        raise ConfigError(str(exc))
"""
    assert _rebound_except_names(ast.parse(before), {"IllegalActionError"}) == [
        "drive: exc (IllegalActionError, then ValueError)"]
