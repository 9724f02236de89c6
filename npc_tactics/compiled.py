"""Pure or compiled engines: which modules the build compiles, which ones this process runs, and the switch.

The rules engines, the dice and the encoders are plain typed Python that the install (``setup.py``) also compiles
ahead of time with mypyc into extension modules next to their sources (docs/speed.md says why mypyc). Python
prefers an extension module over a ``.py`` of the same name, so a built tree runs compiled by itself. This module
decides when it must not:

* ``NPC_TACTICS_PURE=1`` in the environment: the ``.py`` files are used even though the ``.so`` files exist;
* the build failed or found no C compiler (``setup.py`` records why in :data:`MANIFEST`);
* a compiled module is stale: its source changed since the build (the manifest holds each source's SHA-256),
  e.g. after ``git pull`` without ``make install``. Running an old ``.so`` against an edited ``.py`` would
  silently play old rules, so the whole set falls back to pure Python (mypyc modules of one build call each
  other directly: mixing compiled and pure copies of them would give two copies of every class).

Falling back is done by :func:`install` (called from ``npc_tactics/__init__.py``, before any compiled module can
be imported): a finder placed first on ``sys.meta_path`` hands out the ``.py`` source of every module of
:data:`COMPILED_MODULES`. :func:`notice_once` prints one line on stderr the first time a fight starts in a
fallback process (never for a source tree that was simply not built), and :func:`status` is what
``npc-tactics systems --json`` reports. This module imports only the standard library: ``setup.py`` loads it
by path to learn the module list before anything is installed.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # kept out of the import path: every process imports this module first (docs/speed.md)
    from collections.abc import Sequence
    from types import ModuleType
    from typing import Any

__all__ = ["COMPILED_MODULES", "MANIFEST", "PURE_ENV", "install", "make_picklable", "notice_once", "source_digest",
           "status"]

PURE_ENV = "NPC_TACTICS_PURE"
PACKAGE_DIR = Path(__file__).resolve().parent
#: Written by ``setup.py`` after building (gitignored): ``{"compiled": bool, "reason": str, "sources": {...}}``.
MANIFEST = PACKAGE_DIR / "_compiled.json"

#: Modules compiled by the build, where the profile puts the time (random-legal play spends ~all its time in the
#: rules and the dice, a policy's decisions a third of theirs in the encoders). Left out: the package
#: ``__init__`` files (mypyc gains nothing there) and ``encoders/docs.py`` (documentation, not a hot path).
#: ``encoders/base.py``'s generic ``Field``/``OneHot`` stay normal Python classes (``native_class=False``), see
#: docs/speed.md.
def _system_modules() -> list[str]:
    """Every system package's encoder and rules modules (``systems/<name>/encoder.py``, ``rules/*.py``), found
    on disk so that a new system is compiled without naming it here."""
    root = PACKAGE_DIR / "systems"
    files = sorted([*root.glob("*/encoder.py"), *root.glob("*/rules/*.py")])
    return [".".join(("npc_tactics", *f.relative_to(PACKAGE_DIR).with_suffix("").parts))
            for f in files if f.name != "__init__.py"]


COMPILED_MODULES: tuple[str, ...] = (
    "npc_tactics.dice",
    "npc_tactics.rules.base",
    "npc_tactics.encoders.base",
    "npc_tactics.rules.loading",
    "npc_tactics.rules.outcome",
    "npc_tactics.rules.pending",
    *_system_modules(),
)

_COMPILED = frozenset(COMPILED_MODULES)
_state: dict[str, Any] = {"reason": None, "noticed": False, "installed": False}
_patched: set[str] = set()  #: compiled modules :func:`make_picklable` has seen


def source_path(module: str, root: Path = PACKAGE_DIR.parent) -> Path:
    return root.joinpath(*module.split(".")).with_suffix(".py")


def source_digest(modules: Sequence[str] = COMPILED_MODULES, root: Path = PACKAGE_DIR.parent) -> dict[str, str]:
    """SHA-256 of each module's source, as the build records it and :func:`install` checks it."""
    import hashlib

    return {m: hashlib.sha256(source_path(m, root).read_bytes()).hexdigest() for m in modules}


def _read_manifest() -> dict[str, Any] | None:
    import json

    try:
        data = json.loads(MANIFEST.read_text())
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _fallback_reason() -> str | None:
    """Why this process must run pure although a build may exist (None: run what is there)."""
    if os.environ.get(PURE_ENV, "") not in ("", "0"):
        return f"{PURE_ENV}={os.environ[PURE_ENV]}"
    manifest = _read_manifest()
    if manifest is None:
        return None  # never built (a source checkout): nothing compiled to avoid, nothing to report
    if not manifest.get("compiled"):
        return f"the build did not compile them ({manifest.get('reason', 'unknown reason')})"
    recorded = manifest.get("sources", {})
    try:
        current = source_digest([m for m in COMPILED_MODULES if m in recorded])
    except OSError:
        return "a compiled module's source is missing"
    if set(recorded) != _COMPILED or current != recorded:
        return "their sources changed since the build (run `make install`)"
    return None


class _SourceFinder:  # a meta path finder (not subclassing importlib.abc's: that import costs ~10 ms)
    """Finds the ``.py`` source of the compiled modules, ahead of the extension module Python would prefer."""

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if fullname not in _COMPILED:
            return None
        source = os.path.join(path[0] if path else str(PACKAGE_DIR.parent), fullname.rpartition(".")[2] + ".py")
        if not os.path.isfile(source):
            return None
        return importlib.util.spec_from_file_location(fullname, source)  # a SourceFileLoader: __file__ is the .py


def _frozen_setstate(self: Any, state: Any) -> None:
    """``__setstate__`` of a compiled frozen dataclass: the fields are set past the frozen ``__setattr__``."""
    if isinstance(state, tuple) and len(state) == 2:  # (dict state, slot state)
        state = {**(state[0] or {}), **(state[1] or {})}
    for name, value in state.items():
        object.__setattr__(self, name, value)


def make_picklable(module: ModuleType) -> None:
    """Let the compiled frozen dataclasses of ``module`` be unpickled (a Ray worker, a spawned process).

    mypyc's generated ``__setstate__`` assigns each field with ``setattr``, which a frozen dataclass refuses
    (``FrozenInstanceError``; mypyc issue 1213), so every frozen dataclass defined in the module gets one that
    goes past the frozen ``__setattr__``, as CPython's own dataclasses do for slots classes."""
    for obj in list(vars(module).values()):
        params = getattr(obj, "__dataclass_params__", None)
        if isinstance(obj, type) and obj.__module__ == module.__name__ and getattr(params, "frozen", False):
            obj.__setstate__ = _frozen_setstate  # type: ignore[attr-defined]  # a plain class attribute


class _PicklableLoader:
    """Wraps an extension module's loader: once the module has run, :func:`make_picklable` patches it."""

    def __init__(self, loader: Any) -> None:
        self.loader = loader

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> Any:
        return self.loader.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        self.loader.exec_module(module)
        # a compiled module imports its compiled siblings past sys.meta_path: patch every one loaded by now
        for name in COMPILED_MODULES:
            loaded = sys.modules.get(name)
            if loaded is not None and name not in _patched:
                make_picklable(loaded)
                _patched.add(name)


class _CompiledFinder:
    """Finds the compiled modules as Python would, with a loader that makes their frozen dataclasses picklable."""

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if fullname not in _COMPILED:
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path, target)
        if spec is not None and isinstance(spec.loader, importlib.machinery.ExtensionFileLoader):
            spec.loader = _PicklableLoader(spec.loader)  # type: ignore[assignment]  # same protocol, wrapped
        return spec


def install() -> None:
    """Decide pure or compiled for this process (once); when pure, make the compiled modules load from source;
    when compiled, make their frozen dataclasses picklable (:func:`make_picklable`)."""
    if _state["installed"]:
        return
    _state["installed"] = True
    reason = _fallback_reason()
    _state["reason"] = reason
    sys.meta_path.insert(0, _SourceFinder() if reason is not None else _CompiledFinder())


def _is_extension(module: ModuleType) -> bool:
    return str(getattr(module, "__file__", "")).endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


def status() -> dict[str, Any]:
    """``{"engines": "compiled"|"pure", "compiled_modules": [...], "reason": ...}`` of this process.

    Imports every module of :data:`COMPILED_MODULES` (numpy and the rules, no learning library) to see where it
    was loaded from: "compiled" means every one of them runs from its extension module."""
    install()
    compiled = [m for m in COMPILED_MODULES if _is_extension(importlib.import_module(m))]
    engines = "compiled" if len(compiled) == len(COMPILED_MODULES) else "pure"
    reason = _state["reason"]
    if engines == "pure" and reason is None:
        reason = "not built (a source checkout: run `make install`)" if not compiled else "partly built"
    return {"engines": engines, "compiled_modules": compiled, "reason": reason}


def notice_once() -> None:
    """One line on stderr, once per process, when the build's compiled engines are not used (see the module
    docstring). Called when a fight starts, so commands that play no fight print nothing."""
    if _state["noticed"]:
        return
    _state["noticed"] = True
    reason = _state["reason"]
    if reason is not None:
        print(f"npc-tactics: running the pure-Python engines: {reason}", file=sys.stderr)
