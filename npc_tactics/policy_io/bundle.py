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

Writing goes through a temporary sibling folder renamed into place, so a crash never leaves half a bundle.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from npc_tactics.errors import UserError

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

_STRICT = ConfigDict(extra="forbid", frozen=True)


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


def is_bundle_dir(path: str | Path) -> bool:
    """True for an exported policy bundle folder (``schema.json`` next to ``policy.onnx``)."""
    p = Path(path)
    return (p / SCHEMA_FILE).is_file() and (p / ONNX_FILE).is_file()


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _first_error(exc: ValidationError) -> str:
    err = exc.errors()[0]
    where = ".".join(str(p) for p in err["loc"]) or "(top level)"
    return f"{where}: {err['msg']}"


def read_bundle(path: str | Path, *, strict: bool = False, check_package: bool = True) -> Bundle:
    """Read the bundle in ``path`` and check it (see the module docstring). Raises :class:`BundleError`."""
    folder = Path(path)
    if not folder.is_dir():
        raise BundleError(f"{folder}: bundle folder not found")
    schema_path, onnx_path = folder / SCHEMA_FILE, folder / ONNX_FILE
    for p in (schema_path, onnx_path):
        if not p.is_file():
            raise BundleError(f"{folder}: not a policy bundle ({p.name} is missing)")
    try:
        raw = json.loads(schema_path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise BundleError(f"{schema_path}: unreadable JSON ({exc})") from None
    if isinstance(raw, dict) and raw.get("format") not in (None, BUNDLE_FORMAT):
        raise BundleError(f"{schema_path}: format {raw.get('format')!r} is not {BUNDLE_FORMAT!r} "
                          "(made by another npc-tactics version?)")
    try:
        schema = BundleSchema.model_validate(raw)
    except ValidationError as exc:
        raise BundleError(f"{schema_path}: {_first_error(exc)}") from None
    data = onnx_path.read_bytes()
    digest = sha256_hex(data)
    if digest != schema.onnx.sha256:
        raise BundleError(f"{onnx_path}: sha256 {digest[:16]}... does not match schema.json's "
                          f"{schema.onnx.sha256[:16]}... (the file was changed or damaged); re-export the bundle")
    if len(schema.observation.fields) != schema.observation.size:
        raise BundleError(f"{schema_path}: observation.fields lists {len(schema.observation.fields)} fields, "
                          f"observation.size says {schema.observation.size}")
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
    from npc_tactics.systems import SYSTEMS

    info = SYSTEMS.get(schema.system)
    if info is None:
        raise BundleError(f"{where}: system {schema.system!r} is not installed "
                          f"(installed: {', '.join(sorted(SYSTEMS))})")
    try:
        engine = info.load("engine")(dict(schema.options))
    except ValueError as exc:
        raise BundleError(f"{where}: the bundle's rules options are refused by the installed "
                          f"{schema.system} rules ({exc})") from None
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
    """Write a bundle atomically: a temporary sibling folder, fsynced, renamed to ``path``.

    An existing ``path`` is replaced only with ``force`` (and only if it is empty or a bundle: never a folder
    of other files). Raises :class:`BundleError`.
    """
    out = Path(path)
    if sha256_hex(onnx_bytes) != schema.onnx.sha256:
        raise BundleError(f"{out}: the schema's sha256 does not match the ONNX bytes (exporter bug)")
    if out.exists():
        if not out.is_dir():
            raise BundleError(f"{out}: exists and is not a folder")
        contents = {p.name for p in out.iterdir()}
        if contents and not force:
            raise BundleError(f"{out}: already exists; pass --force to replace it")
        if contents - {ONNX_FILE, SCHEMA_FILE, *CARD_FILES, *(extra_files or {})}:
            raise BundleError(f"{out}: holds files that are not part of a bundle; refusing to replace it")
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.", suffix=".tmp", dir=out.parent))
    old: Path | None = None
    try:
        files = {ONNX_FILE: onnx_bytes,
                 SCHEMA_FILE: (json.dumps(schema.model_dump(mode="json"), indent=2) + "\n").encode("utf-8")}
        files.update(extra_files or {})
        for name, data in files.items():
            with open(tmp / name, "wb") as fh:
                fh.write(data)
                fh.flush()
                os.fsync(fh.fileno())
        os.chmod(tmp, 0o777 & ~_umask())
        if out.exists():
            old = out.with_name(f".{out.name}.old-{os.getpid()}")
            os.replace(out, old)
        os.replace(tmp, out)
    except BaseException:
        if old is not None and not out.exists():
            os.rename(old, out)  # put the previous bundle back
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)
    return out


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
