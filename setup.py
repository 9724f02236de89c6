"""Build the compiled engines (mypyc) as part of the install; everything else is in pyproject.toml.

``pip install -e .`` (``make install``) compiles :data:`npc_tactics.compiled.COMPILED_MODULES` into extension
modules next to their sources. The build is optional: no C compiler, no mypyc, ``NPC_TACTICS_PURE=1`` at install
time or any build error leaves a pure-Python install that works the same, and ``npc_tactics/_compiled.json``
records what happened (read at run time by :mod:`npc_tactics.compiled`, which also notices stale builds).
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
import traceback
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location("_npc_compiled", ROOT / "npc_tactics" / "compiled.py")
assert _spec is not None and _spec.loader is not None
compiled = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(compiled)


#: the sources' digest as mypyc reads them (taken before translating: an edit during the C build makes it stale)
SOURCES: dict[str, str] = {}


def write_manifest(ok: bool, reason: str) -> None:
    data: dict[str, Any] = {"compiled": ok, "reason": reason, "backend": "mypyc"}
    if ok:
        data["sources"] = SOURCES
    tmp = compiled.MANIFEST.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n")
    os.replace(tmp, compiled.MANIFEST)


def note(message: str) -> None:
    print(f"npc-tactics build: {message}", file=sys.stderr)


def extensions() -> list[Any]:
    """mypyc's extension modules, or [] (and the manifest says why) when they cannot be generated."""
    if os.environ.get(compiled.PURE_ENV, "") not in ("", "0"):
        write_manifest(False, f"{compiled.PURE_ENV} was set at install time")
        return []
    try:
        from mypyc.build import mypycify
    except ImportError as exc:
        write_manifest(False, f"mypyc is not available ({exc})")
        return []
    paths = [str(compiled.source_path(m, ROOT).relative_to(ROOT)) for m in compiled.COMPILED_MODULES]
    # The build env (PEP 517 isolation) holds only the build requirements: the modules the engines import for
    # their types only (the plugin's hook types, pydantic models ...) are followed but their errors not
    # reported, or mypyc would stop on "pydantic not found" in code it does not compile.
    paths.append("--follow-imports=silent")
    SOURCES.update(compiled.source_digest(root=ROOT))
    try:
        return list(mypycify(paths, opt_level="3", debug_level="0", group_name="npc_tactics._engines"))
    except BaseException as exc:  # mypyc exits through SystemExit on type errors
        note("mypyc could not translate the engines; installing pure Python")
        traceback.print_exc()
        write_manifest(False, f"mypyc failed ({type(exc).__name__}: {exc})"[:300])
        return []


class OptionalBuildExt(build_ext):
    """build_ext that never fails the install: a failed compile leaves (and records) a pure-Python install."""

    def run(self) -> None:
        if not self.extensions:
            return
        try:
            super().run()
        except BaseException as exc:  # no compiler: CCompilerError, DistutilsExecError, DistutilsPlatformError...
            note(f"compiling the engines failed ({type(exc).__name__}: {exc}); installing pure Python")
            for ext in self.extensions:  # remove what a half-finished build left next to the sources
                for path in [self.get_ext_fullpath(ext.name)]:
                    Path(path).unlink(missing_ok=True)
            write_manifest(False, f"the C build failed ({type(exc).__name__}: {exc})"[:300])
            return
        write_manifest(True, "built")


setup(ext_modules=extensions(), cmdclass={"build_ext": OptionalBuildExt})
