"""A policy bundle: ``policy.onnx`` + ``schema.json`` in one folder, read and written without torch.

A bundle is what a trained NPC becomes when it leaves the project: ONNX weights (the mask is applied in the
graph, the output is action probabilities) and a JSON description of what the network expects and where it
comes from. Nothing in it is unpickled. Reading a bundle checks, in order:

1. ``schema.json`` parses and has this reader's format (errors name the file and the field);
2. the sha256 of ``policy.onnx`` equals the one in the schema (a swapped or damaged file is refused);
3. against the installed package: the system exists, its action catalogue and observation size are the
   ones the network was trained on (refused otherwise: the network's inputs and outputs would mean other
   things); a different rules version or other observation field names are warnings, kept on the bundle
   (``Bundle.warnings``) so every caller can show them, and errors with ``strict=True``.

Reading never trusts the files: both go through :mod:`npc_tactics.configs.files` (regular files only, size
capped before reading, JSON depth bounded), every number must be finite, the scenario a plain name, and
``policy.onnx`` is inspected by :func:`~npc_tactics.policy_io.onnx_check.check_onnx` (no external data, finite
weights, the expected interface and widths) before onnxruntime ever parses it.

Writing goes through a temporary sibling folder swapped into place (:mod:`npc_tactics.policy_io.bundle_fs`), so
the destination always holds the old bundle or the new one, and a killed writer's leftovers are repaired.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from npc_tactics.configs.files import MAX_JSON_BYTES, check_path_allowed, paths_allowed, read_bytes, read_json
from npc_tactics.errors import ConfigError, UserError
from npc_tactics.plugin import System
from npc_tactics.policy_io import bundle_fs

__all__ = [
    "BUNDLE_FORMAT",
    "CARD_FILES",
    "ONNX_FILE",
    "SCHEMA_FILE",
    "Bundle",
    "BundleError",
    "BundleSchema",
    "ObservationField",
    "ObservationSchema",
    "observation_schema",
    "read_bundle",
    "sha256_hex",
    "write_bundle",
]

BUNDLE_FORMAT: Final = "npc-tactics-bundle/1"
ONNX_FILE: Final = "policy.onnx"
SCHEMA_FILE: Final = "schema.json"
#: The tactics card written into a bundle by ``npc-tactics card`` (replaced, as stale, when the bundle is).
CARD_FILES: Final = ("card.json", "card.md")

#: Largest policy.onnx read (the shipped generalists are under 1 MB; an ensemble of wide networks a few MB).
MAX_ONNX_BYTES: Final = 64 * 1024 * 1024
#: A scenario a bundle may name: a plain name, never a path (a bundle must not make a reader open a file).
_PLAIN_NAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}$")

_STRICT = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)


class BundleError(UserError):
    """A bundle that cannot be used: missing or malformed files, hash mismatch, incompatible package."""


class ObservationField(BaseModel):
    """One entry of the observation vector, in order, as the encoder declares it (``unit`` of the raw reading,
    ``scale`` it is divided by), with the range seen when the bundle was made. ``unit`` and ``scale`` are
    absent from bundles made before the encoders declared them."""

    model_config = _STRICT
    name: str
    description: str = ""
    unit: str | None = None
    scale: float | None = None
    min: float
    max: float

    @model_validator(mode="after")
    def _ordered(self) -> ObservationField:
        if self.min > self.max:
            raise ValueError(f"observed range of {self.name!r} is inverted (min {self.min:g} > max {self.max:g})")
        return self


class ObservationSchema(BaseModel):
    """The observation section: the encoder's layout (:meth:`~npc_tactics.encoders.base.Encoder.schema`) with
    the observed range of each field. The layout keys are absent from bundles made before it existed."""

    model_config = _STRICT
    size: int = Field(ge=1)
    fields: list[ObservationField]
    field_names_source: str
    observed_range_source: str
    value: str | None = None
    decision_kinds: list[str] | None = None
    slots: list[str] | None = None
    context_start: int | None = None
    block_start: int | None = None
    block_size: int | None = None


def observation_schema(layout: dict[str, Any], low: Any, high: Any, *, field_names_source: str,
                       observed_range_source: str) -> ObservationSchema:
    """The observation section of ``schema.json`` from an encoder's ``schema()`` and the per-field range seen
    (``low``/``high``, one value per field)."""
    fields = [ObservationField(name=f["name"], description=f["description"], unit=f["unit"], scale=f["scale"],
                               min=float(lo), max=float(hi))
              for f, lo, hi in zip(layout["fields"], low, high, strict=True)]
    return ObservationSchema(
        size=layout["size"], fields=fields, field_names_source=field_names_source,
        observed_range_source=observed_range_source, value=layout["value"],
        decision_kinds=list(layout["decision_kinds"]), slots=list(layout["slots"]),
        context_start=layout["context_start"], block_start=layout["block_start"], block_size=layout["block_size"])


class OnnxInfo(BaseModel):
    model_config = _STRICT
    file: Literal["policy.onnx"] = ONNX_FILE
    sha256: str = Field(pattern=r"^[0-9a-f]{64}$")
    opset: int = Field(ge=14)
    inputs: dict[str, str]
    outputs: dict[str, str]
    #: how the weights are stored: float16 halves the file (the graph casts them back and computes in float32)
    weights: Literal["float32", "float16"] = "float32"


class TrainingInfo(BaseModel):
    """Where the policy comes from: enough for a GM to judge how far to trust it."""

    model_config = _STRICT
    run: str
    opponents: list[str]
    seed: int
    segment_seeds: list[int] = Field(default_factory=list)
    timesteps: int | None = None
    net_arch: list[int] = Field(default_factory=list)
    evaluation: list[dict[str, Any]] = Field(default_factory=list)
    git_sha: str = "unknown"
    #: the encounter distribution the policy trained on (a generalist); ``scenario`` then only names where its
    #: card is distilled and its starting situation taken
    encounter: str | None = None
    #: an ensemble's runs, this record's own first (the network averages their log-probabilities); empty for
    #: a single policy
    members: list[TrainingInfo] = Field(default_factory=list)
    #: a distilled policy's specialists: scenario -> the run it follows on that scenario's fights (empty when
    #: not distilled; see npc_tactics.training.distill)
    teachers: dict[str, str] = Field(default_factory=dict)
    #: a distilled policy's losing teacher: the retreat specialist run it follows where the NPC is losing ("":
    #: none; npc_tactics.training.distill)
    losing: str = ""
    #: play-outs per decision of the search whose moves the policy was trained to play (expert iteration,
    #: npc_tactics.training.distill); 0: none
    search: int = Field(default=0, ge=0)


class BundleSchema(BaseModel):
    """The content of ``schema.json``."""

    model_config = _STRICT
    format: Literal["npc-tactics-bundle/1"] = BUNDLE_FORMAT
    system: str
    rules_version: str
    options: dict[str, Any] = Field(default_factory=dict)
    resolved_options: dict[str, Any] = Field(default_factory=dict)
    scenario: str
    side: int = Field(ge=0)
    observation: ObservationSchema
    actions: list[str] = Field(min_length=1)
    training: TrainingInfo
    package: dict[str, str]
    exported_at: str
    onnx: OnnxInfo

    @field_validator("scenario")
    @classmethod
    def _plain_scenario(cls, value: str) -> str:
        if not is_plain_name(value):
            raise ValueError("expected a scenario name (letters, digits, _ . -), not a path")
        return value

    @property
    def plugin(self) -> System:
        """The bundle's system: the one place its ``system`` name is resolved (:func:`check_against_package`
        refuses a bundle of a system not installed when it is read)."""
        from npc_tactics.registry import get_system

        return get_system(self.system)


@dataclass
class Bundle:
    """A read and checked bundle: its folder, schema, ONNX bytes and any compatibility warnings."""

    path: Path
    schema: BundleSchema
    onnx_bytes: bytes
    warnings: list[str] = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.path.name


def is_plain_name(value: str) -> bool:
    """True for a name a bundle may give as its scenario: never a path (``/``, ``\\``, ``..``)."""
    return bool(_PLAIN_NAME.match(value)) and ".." not in value


def is_bundle_dir(path: str | Path) -> bool:
    """True for an exported policy bundle folder (``schema.json`` next to ``policy.onnx``)."""
    p = Path(path)
    return (p / SCHEMA_FILE).is_file() and (p / ONNX_FILE).is_file()


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def first_error(exc: ValidationError) -> str:
    err = exc.errors()[0]
    where = ".".join(str(p) for p in err["loc"]) or "(top level)"
    return f"{where}: {err['msg']}"


def _non_finite(value: Any, where: str = "") -> str | None:
    """The dotted path of the first NaN or infinite number in parsed JSON (``1e999`` parses as inf), or None."""
    if isinstance(value, float) and not math.isfinite(value):
        return where or "(top level)"
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        found = _non_finite(item, f"{where}.{key}" if where else str(key))
        if found is not None:
            return found
    return None


def _read_schema(schema_path: Path) -> BundleSchema:
    try:
        raw = read_json(schema_path, MAX_JSON_BYTES, "bundle schema")
    except ConfigError as exc:
        raise BundleError(str(exc)) from None
    if isinstance(raw, dict) and raw.get("format") not in (None, BUNDLE_FORMAT):
        raise BundleError(f"{schema_path}: format {str(raw.get('format'))[:40]!r} is not {BUNDLE_FORMAT!r} "
                          "(made by another npc-tactics version?)")
    bad = _non_finite(raw)
    if bad is not None:
        raise BundleError(f"{schema_path}: {bad}: expected a finite number, got NaN or infinity")
    try:
        schema = BundleSchema.model_validate(raw)
    except ValidationError as exc:
        raise BundleError(f"{schema_path}: {first_error(exc)}") from None
    if len(schema.observation.fields) != schema.observation.size:
        raise BundleError(f"{schema_path}: observation.fields lists {len(schema.observation.fields)} fields, "
                          f"observation.size says {schema.observation.size}")
    return schema


def _check_network(onnx_path: Path, data: bytes, schema: BundleSchema) -> None:
    """The network's static checks (onnx_check), then its widths against the schema's."""
    from npc_tactics.policy_io.onnx_check import check_onnx

    try:
        shape = check_onnx(data, str(onnx_path))
    except UserError as exc:
        raise BundleError(str(exc)) from None
    if shape.obs_size != schema.observation.size:
        raise BundleError(f"{onnx_path}: input 'observation' takes {shape.obs_size} values, schema.json's "
                          f"observation.size says {schema.observation.size}")
    if shape.n_actions != len(schema.actions):
        raise BundleError(f"{onnx_path}: output 'probabilities' has {shape.n_actions} actions, schema.json's "
                          f"actions list {len(schema.actions)}")


def read_bundle(path: str | Path, *, strict: bool = False, check_package: bool = True) -> Bundle:
    """Read the bundle in ``path`` and check it (see the module docstring). Raises :class:`BundleError`."""
    folder = Path(path)
    check_path_allowed(folder, "policy bundle")
    if paths_allowed() and not os.path.lexists(folder):
        bundle_fs.recover(folder, (SCHEMA_FILE, ONNX_FILE))  # a writer killed between two renames
    if not folder.is_dir():
        raise BundleError(f"{folder}: bundle folder not found")
    schema_path, onnx_path = folder / SCHEMA_FILE, folder / ONNX_FILE
    for p in (schema_path, onnx_path):
        if not os.path.lexists(p):
            raise BundleError(f"{folder}: not a policy bundle ({p.name} is missing)")
    schema = _read_schema(schema_path)
    try:
        data = read_bytes(onnx_path, MAX_ONNX_BYTES, "policy network")
    except ConfigError as exc:
        raise BundleError(str(exc)) from None
    digest = sha256_hex(data)
    if digest != schema.onnx.sha256:
        raise BundleError(f"{onnx_path}: sha256 {digest[:16]}... does not match schema.json's "
                          f"{schema.onnx.sha256[:16]}... (the file was changed or damaged); re-export the bundle")
    _check_network(onnx_path, data, schema)
    bundle = Bundle(folder, schema, data)
    if check_package:
        bundle.warnings.extend(check_against_package(schema, where=str(folder)))
        if strict and bundle.warnings:
            raise BundleError(f"{folder}: {bundle.warnings[0]}")
    return bundle


def check_against_package(schema: BundleSchema, where: str) -> list[str]:
    """Compare ``schema`` with the installed rules and encoder: raise on what makes the network unusable,
    return warnings for what makes its advice doubtful."""
    from npc_tactics import __version__
    from npc_tactics.registry import SYSTEMS

    info = SYSTEMS.get(schema.system)
    if info is None:
        raise BundleError(f"{where}: system {schema.system!r} is not installed "
                          f"(installed: {', '.join(sorted(SYSTEMS))})")
    try:
        engine = info.load("engine")(dict(schema.options))
    except ValueError as exc:
        raise BundleError(f"{where}: the bundle's rules options are refused by the installed "
                          f"{schema.system} rules ({exc})") from None
    sides = int(engine.spec.sides)
    if not schema.side < sides:
        raise BundleError(f"{where}: schema.json: side: expected a side of {schema.system} (0 to {sides - 1}), "
                          f"got {schema.side}")
    encoder = info.load("encoder")(engine)
    names = list(engine.catalogue.names)
    if names != schema.actions:
        diff = next((i for i, (a, b) in enumerate(zip(names, schema.actions, strict=False)) if a != b),
                    min(len(names), len(schema.actions)))
        raise BundleError(f"{where}: the bundle's action catalogue ({len(schema.actions)} actions) differs from "
                          f"the installed {schema.system} rules' ({len(names)}) from entry {diff}; "
                          "re-export it from its run with this version")
    if int(encoder.size) != schema.observation.size:
        raise BundleError(f"{where}: the bundle expects {schema.observation.size} observation values, the "
                          f"installed {schema.system} encoder makes {encoder.size}; re-export it from its run "
                          "with this version")
    warnings: list[str] = []
    version = engine.spec.version
    if version != schema.rules_version:
        warnings.append(f"trained under {schema.system} rules {schema.rules_version}, installed rules are "
                        f"{version}: the advice may not fit the rules as now played")
    warnings.extend(_field_warnings(encoder.fields, schema.observation))
    if schema.package.get("npc-tactics") not in (None, __version__):
        warnings.append(f"exported by npc-tactics {schema.package['npc-tactics']}, installed {__version__}")
    return warnings


def _field_warnings(installed: Any, obs: ObservationSchema) -> list[str]:
    """Where the installed encoder's layout differs from the bundle's (same size): the first renamed field, the
    first field scaled differently, other decision kinds. Older bundles without scales are compared by name."""
    out: list[str] = []
    for k, (mine, theirs) in enumerate(zip(installed, obs.fields, strict=True)):
        if mine.name != theirs.name:
            out.append(f"observation field {k} is {theirs.name!r} in the bundle but {mine.name!r} in the "
                       "installed encoder: the network may read the situation wrongly")
            break
    for k, (mine, theirs) in enumerate(zip(installed, obs.fields, strict=True)):
        if theirs.scale is not None and mine.name == theirs.name and mine.scale != theirs.scale:
            out.append(f"observation field {k} ({mine.name}) is divided by {theirs.scale:g} in the bundle but by "
                       f"{mine.scale:g} in the installed encoder: the network may read the situation wrongly")
            break
    return out


def write_bundle(path: str | Path, schema: BundleSchema, onnx_bytes: bytes, *, force: bool = False,
                 extra_files: dict[str, bytes] | None = None) -> Path:
    """Write a bundle atomically: a temporary sibling folder, fsynced, swapped into ``path`` (see
    :mod:`~npc_tactics.policy_io.bundle_fs`: ``path`` holds the old or the new bundle at every moment).

    An existing ``path`` is replaced only with ``force`` (and only if it is empty or a bundle: never a folder
    of other files). A file that cannot be written (full disk) is named, and nothing is left behind. Raises
    :class:`BundleError`.
    """
    out = Path(path)
    if sha256_hex(onnx_bytes) != schema.onnx.sha256:
        raise BundleError(f"{out}: the schema's sha256 does not match the ONNX bytes (exporter bug)")
    bundle_fs.recover(out, (SCHEMA_FILE, ONNX_FILE))
    try:
        bundle_fs.check_destination(out, force=force, allowed={ONNX_FILE, SCHEMA_FILE, *CARD_FILES,
                                                                *(extra_files or {})})
    except UserError as exc:
        raise BundleError(str(exc).removeprefix("--out: ")) from None
    files = {ONNX_FILE: onnx_bytes,
             SCHEMA_FILE: (json.dumps(schema.model_dump(mode="json"), indent=2) + "\n").encode("utf-8")}
    files.update(extra_files or {})
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        tmp = bundle_fs.make_temp(out)
    except OSError as exc:
        raise BundleError(f"{out}: cannot create the bundle folder ({exc.strerror or exc})") from None
    try:
        for name, data in files.items():
            _write_file(tmp / name, data, shown=out / name)
        os.chmod(tmp, 0o777 & ~_umask())
        bundle_fs.install(tmp, out)
    except OSError as exc:
        raise BundleError(f"{out}: cannot put the new bundle in place ({exc.strerror or exc})") from None
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return out


def _write_file(path: Path, data: bytes, *, shown: Path) -> None:
    """Write and fsync ``path``; a failure (ENOSPC ...) is a BundleError naming the bundle file ``shown``."""
    try:
        with open(path, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
    except OSError as exc:
        raise BundleError(f"{shown}: cannot be written ({exc.strerror or exc}); nothing was changed") from None


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
