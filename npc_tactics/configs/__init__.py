"""Shipped YAML content shared by the systems (training presets, policy configs, suites) and safe loading helpers.

Layout: ``configs/presets/<name>.yaml`` for training presets, ``configs/policies/`` for the shipped generalists'
runs, ``configs/suites/`` for leaderboard suites; a system's own content (bestiary, scenarios, encounter
distributions, probes) is in its package, ``systems/<system>/content/`` (:func:`system_dir`).
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

import yaml

from npc_tactics.errors import ConfigError, shown

CONFIG_DIR = Path(__file__).resolve().parent


#: Largest YAML file read (bytes): shipped content is a few KB; anything this big is a mistake or an attack.
MAX_YAML_BYTES = 2 * 1024 * 1024
#: Largest document after alias expansion (nodes, counting every use of an alias): stops "billion laughs"
#: documents before any validator or error message walks the expanded value.
MAX_YAML_NODES = 100_000
#: Deepest nesting of lists and mappings accepted.
MAX_YAML_DEPTH = 64

_FLOAT_WITHOUT_DOT = re.compile(r"^[-+]?[0-9][0-9_]*[eE][-+]?[0-9]+$")


class _YamlLimitError(yaml.YAMLError):
    """A document that is valid YAML but breaks one of the limits above (or has a duplicate key)."""

    def __init__(self, problem: str, mark: Any = None) -> None:
        super().__init__(problem)
        self.problem = problem
        self.problem_mark = mark


class StrictLoader(yaml.SafeLoader):
    """``yaml.SafeLoader`` that rejects duplicate keys, non-finite numbers (``.nan``, ``.inf``),
    documents whose alias expansion exceeds :data:`MAX_YAML_NODES` or nesting :data:`MAX_YAML_DEPTH`,
    and reads ``1e-3`` as a number (YAML 1.2; YAML 1.1 reads it as text)."""

    def compose_document(self) -> Any:
        node = super().compose_document()
        _check_expansion(node)
        return node

    def construct_mapping(self, node: Any, deep: bool = False) -> dict[Any, Any]:
        if isinstance(node, yaml.MappingNode):
            seen: dict[Any, Any] = {}
            for key_node, _ in node.value:
                if key_node.tag == "tag:yaml.org,2002:merge":
                    continue  # merged keys may be overridden (that is what ``<<:`` is for)
                key = self.construct_object(key_node, deep=True)
                try:
                    first = seen.get(key)
                except TypeError:
                    continue  # an unhashable key: SafeConstructor reports it
                if first is not None:
                    raise _YamlLimitError(
                        f"duplicate key {shown(key)} (first given at line {first.line + 1})",
                        key_node.start_mark,
                    )
                seen[key] = key_node.start_mark
        return super().construct_mapping(node, deep=deep)

    def construct_yaml_float(self, node: Any) -> float:
        value = super().construct_yaml_float(node)
        if not math.isfinite(value):
            raise _YamlLimitError(f"expected a finite number, got {shown(node.value)}", node.start_mark)
        return value


StrictLoader.add_constructor("tag:yaml.org,2002:float", StrictLoader.construct_yaml_float)
StrictLoader.add_implicit_resolver("tag:yaml.org,2002:float", _FLOAT_WITHOUT_DOT, list("-+0123456789"))


def _check_expansion(root: Any) -> None:
    """Count the nodes of ``root`` as if every alias were copied in; reject cycles, depth and size."""
    sizes: dict[int, int] = {}
    active: set[int] = set()

    def size(node: Any, depth: int) -> int:
        key = id(node)
        if key in sizes:
            return sizes[key]
        if depth > MAX_YAML_DEPTH:
            raise _YamlLimitError(f"nested more than {MAX_YAML_DEPTH} levels deep", node.start_mark)
        if key in active:
            raise _YamlLimitError("an alias refers to the value that contains it", node.start_mark)
        total = 1
        if isinstance(node, yaml.SequenceNode | yaml.MappingNode):
            active.add(key)
            children = node.value if isinstance(node, yaml.SequenceNode) else [n for kv in node.value for n in kv]
            for child in children:
                total += size(child, depth + 1)
                if total > MAX_YAML_NODES:
                    raise _YamlLimitError(
                        f"the document expands to more than {MAX_YAML_NODES} values (aliases included)",
                        node.start_mark,
                    )
            active.discard(key)
        sizes[key] = total
        return total

    if root is not None:
        size(root, 0)


def parse_yaml(text: str, file: str = "<yaml>") -> Any:
    """Parse YAML ``text`` with :class:`StrictLoader`; any problem is a one-line ConfigError naming
    ``file`` and the line and column."""
    loader = StrictLoader(text)
    try:
        return loader.get_single_data()
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise ConfigError(file, where, f"invalid YAML: {problem}") from None
    except RecursionError:
        raise ConfigError(file, "", f"invalid YAML: nested more than {MAX_YAML_DEPTH} levels deep") from None
    finally:
        loader.dispose()


def load_yaml(path: str | Path) -> Any:
    """Read and :func:`parse_yaml` a file; a missing, unreadable, oversized or malformed file, or one that is not
    a regular file (a FIFO or device would block), becomes a one-line ConfigError."""
    from npc_tactics.configs.files import read_text

    return parse_yaml(read_text(path, MAX_YAML_BYTES, "YAML file"), str(path))


#: Where the systems' packages live: each keeps its content (bestiary, scenarios, encounters, probes) in
#: ``systems/<system>/content/``. Only a path: nothing of a system is imported from here.
SYSTEMS_DIR = CONFIG_DIR.parent / "systems"


def system_dir(system: str) -> Path:
    """The content folder of ``system`` (its plugin's ``content_dir()``: ``npc_tactics/systems/<system>/content``
    for a shipped system); for a name no system has, the folder it would have (empty)."""
    from npc_tactics.registry import SYSTEMS

    plugin = SYSTEMS.get(system)
    return plugin.content_dir() if plugin is not None and plugin.package else SYSTEMS_DIR / system / "content"


def named_files(folder: Path) -> dict[str, Path]:
    """``{stem: path}`` of the YAML files in ``folder`` (empty if it does not exist)."""
    if not folder.is_dir():
        return {}
    return {p.stem: p for p in sorted(folder.glob("*.yaml"))}


def resolve_named(name_or_path: str | Path, folder: Path, what: str) -> Path:
    """A path to an existing file, or the shipped file called ``name`` in ``folder``.

    Raises :class:`~npc_tactics.errors.UnknownNameError` listing the shipped names.
    """
    from npc_tactics.configs.files import paths_allowed
    from npc_tactics.errors import UnknownNameError

    candidate = Path(name_or_path)
    files = named_files(folder)
    if not paths_allowed():  # a request names shipped content only: never ask the file system about its path
        if str(name_or_path) not in files:
            raise UnknownNameError(what, str(name_or_path), files)
        return files[str(name_or_path)]
    if candidate.suffix in (".yaml", ".yml") or candidate.exists():
        if not candidate.exists():
            raise ConfigError(str(candidate), "", "file not found")
        return candidate
    if str(name_or_path) not in files:
        raise UnknownNameError(what, str(name_or_path), files)
    return files[str(name_or_path)]
