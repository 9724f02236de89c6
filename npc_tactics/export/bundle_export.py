"""``npc-tactics export RUN_DIR [RUN_DIR ...] --out BUNDLE_DIR``: a run folder's policy, or the ensemble of
several runs' policies, as a bundle (ONNX + schema.json).

Steps: load the run's SB3 policy (:func:`~npc_tactics.export._load_sb3.load_trained_policy`), export its actor to
ONNX, then measure the observation range the policy meets by playing ``fights`` fights with the exported network
(sampling from its probabilities, its training seat) against its training opponents in turn, and write the bundle
atomically. The range is what the GM-side out-of-distribution check compares a situation with.

An ensemble's members must agree on everything a bundle states once (system, seat, rules options, scenario or
encounter distribution, observation and action sizes); the range is measured with the ensemble itself, against
the first member's training opponents, and ``training.members`` records every run.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
from pydantic import ValidationError

from npc_tactics.errors import ConfigError, UserError
from npc_tactics.export.onnx_export import INPUTS, ONNX_OPSET, OUTPUTS, export_actor, half_weights
from npc_tactics.policy_io.bundle import (
    CARD_FILES,
    ONNX_FILE,
    SCHEMA_FILE,
    Bundle,
    BundleSchema,
    OnnxInfo,
    TrainingInfo,
    first_error,
    is_plain_name,
    observation_schema,
    read_bundle,
    sha256_hex,
    write_bundle,
)
from npc_tactics.policy_io.onnx_agent import OnnxAgent, OnnxPolicy

__all__ = ["DEFAULT_RANGE_FIGHTS", "ExportResult", "ObservationRange", "export_bundle", "measure_range"]

DEFAULT_RANGE_FIGHTS = 200
FIELD_NAMES_SOURCE = (
    "the installed encoder's declarations (Encoder.schema(): decision-kind one-hot over the system's kinds, "
    "CONTEXT fields, then the COMBATANT fields per slot labelled self / ally_i / enemy_i)"
)


@dataclass
class ObservationRange:
    """Per-feature minimum and maximum over the observations an agent was shown."""

    low: np.ndarray
    high: np.ndarray
    count: int = 0

    @classmethod
    def empty(cls, size: int) -> ObservationRange:
        return cls(np.full(size, np.inf, dtype=np.float64), np.full(size, -np.inf, dtype=np.float64))

    def add(self, vector: np.ndarray) -> None:
        np.minimum(self.low, vector, out=self.low)
        np.maximum(self.high, vector, out=self.high)
        self.count += 1


class _RangeRecorder:
    """Plays like ``inner`` and records every observation it is shown."""

    def __init__(self, inner: OnnxAgent, seen: ObservationRange) -> None:
        self.inner = inner
        self.seen = seen
        self.name = inner.name

    def act(self, observation: Any, mask: np.ndarray) -> int:
        self.seen.add(observation.vector)
        return self.inner.act(observation, mask)


@dataclass(frozen=True)
class ExportResult:
    bundle: Bundle
    fights: int
    observations: int
    size_bytes: int


def measure_range(agent: OnnxAgent, scenario: str, opponents: list[str], fights: int, seed: int,
                  encounter: str | None = None, into: ObservationRange | None = None) -> ObservationRange:
    """Play ``fights`` fights (seeds ``seed, seed+1, ...``): ``agent`` sampling in its seat, the other seat by
    ``opponents[i % len(opponents)]``; the range of the observations ``agent`` was shown (added to ``into`` when
    given). With ``encounter`` (a run trained on a distribution) fight i is the distribution's draw for training
    seed ``seed + i``."""
    from npc_tactics.agents.resolve import factory_of
    from npc_tactics.evaluation.arena import Arena
    from npc_tactics.evaluation.fight import agent_rngs, play_fight

    arena = Arena.build(agent.system, scenario, agent.options)
    draw = None
    if encounter is not None:
        from npc_tactics.encounters.generator import Generator, training_seed
        from npc_tactics.encounters.spec import load_encounter

        gen = Generator(load_encounter(encounter, arena.plugin))
        draw = lambda k: gen.draw(training_seed(k))  # noqa: E731
    seen = ObservationRange.empty(agent.obs_size) if into is None else into
    factories = []
    for name in opponents:
        try:
            factories.append(factory_of(arena.plugin, name))
        except (ConfigError, UserError) as exc:
            raise UserError(f"training opponent {name!r} cannot be loaded to measure the observation range: "
                            f"{exc}") from None
    for i in range(fights):
        fight_seed = seed + i
        rngs = agent_rngs(fight_seed, arena.sides)
        agent.rng = rngs[agent.side]
        agents: list[Any] = [None] * arena.sides
        agents[agent.side] = _RangeRecorder(agent, seen)
        foe = factories[i % len(factories)]
        for side in range(arena.sides):
            if side != agent.side:
                agents[side] = foe(arena.engine, rngs[side])
        fight = arena.scenario if draw is None else draw(fight_seed)
        play_fight(arena.engine, arena.encoder, fight, agents, fight_seed)
    return seen


def _training_info(run: Path, config: Any) -> TrainingInfo:
    from npc_tactics.training.run_dir import read_eval_rows, read_json

    meta = read_json(run / "meta.json") if (run / "meta.json").is_file() else {}
    rows = read_eval_rows(run / "eval_history.csv")
    last = max((int(r["timesteps"]) for r in rows), default=None)
    evaluation = [
        {"timesteps": int(r["timesteps"]), "opponent": r["opponent"], "episodes": int(r["episodes"]),
         **{k: float(r[k]) for k in ("win_rate", "draw_rate", "flee_rate", "loss_rate")}}
        for r in rows if last is not None and int(r["timesteps"]) == last
    ]
    return TrainingInfo(
        run=run.resolve().name,
        opponents=list(config.fixed_opponents),
        seed=int(config.seed),
        segment_seeds=[int(s["seed"]) for s in meta.get("segments", []) if "seed" in s],
        timesteps=meta.get("timesteps"),
        net_arch=list(config.ppo.net_arch),
        evaluation=evaluation,
        git_sha=str(meta.get("git_sha", "unknown")),
        encounter=config.encounter,
        teachers={str(k): str(v) for k, v in dict(meta.get("distilled", {}).get("teachers", {})).items()},
        search=int(meta.get("distilled", {}).get("search", 0) or 0),
        losing=str(meta.get("distilled", {}).get("losing", "") or ""),
    )


def _families(runs: list[Path]) -> dict[str, str]:
    """Label -> encounter distribution of the distribution teachers the runs were distilled with (in order)."""
    from npc_tactics.training.run_dir import read_json

    out: dict[str, str] = {}
    for run in runs:
        meta = read_json(run / "meta.json") if (run / "meta.json").is_file() else {}
        families = dict(meta.get("distilled", {}).get("families", {}))
        out.update({str(k): str(v) for k, v in families.items() if str(v) not in out.values()})
    return out


def _same_across_members(runs: list[Path], configs: list[Any]) -> None:
    """One line naming the first thing an ensemble's members disagree on (``UserError``)."""
    first = configs[0]
    for run, config in zip(runs[1:], configs[1:], strict=True):
        for what, mine, theirs in (("system", first.system, config.system), ("side", first.home_side, config.home_side),
                                   ("options", dict(first.options), dict(config.options)),
                                   ("scenario", first.scenario, config.scenario),
                                   ("encounter", first.encounter, config.encounter)):
            if mine != theirs:
                raise UserError(f"{run}: an ensemble's runs must share their {what}; {runs[0]} has {mine!r}, "
                                f"this one {theirs!r}")


def export_bundle(run_dir: str | Path | list[str | Path], out: str | Path, *, fights: int = DEFAULT_RANGE_FIGHTS,
                  seed: int = 0, force: bool = False, half: bool = False) -> ExportResult:
    """Export the final policy of ``run_dir`` (or the ensemble of a list of run folders) as a bundle in ``out``
    (see the module docstring); ``half`` stores the weights as float16.

    Raises :class:`~npc_tactics.errors.UserError` for an unreadable run, members that disagree, or an existing
    ``out`` without ``force``.
    """
    if fights < 1:
        raise UserError(f"--fights: expected at least 1 fight to measure the observation range, got {fights}")
    _check_out(Path(out), force)  # before torch is imported and any fight played
    from npc_tactics.configs import load_yaml
    from npc_tactics.export._load_sb3 import load_trained_policy
    from npc_tactics.training.config import is_bundle_dir, parse_train_config
    runs = [Path(r) for r in (run_dir if isinstance(run_dir, list) else [run_dir])]
    if not runs:
        raise UserError("export: name at least one run folder")
    if len(set(r.resolve() for r in runs)) != len(runs):
        raise UserError(f"export: a run folder is named twice ({', '.join(map(str, runs))})")
    for r in runs:
        if is_bundle_dir(r):
            raise UserError(f"{r}: an exported bundle, not a training run; export reads the run folder a bundle was "
                            "made from (schema.json's training.run names it). A bundle is shared by copying its "
                            "folder")
    policies = [load_trained_policy(r) for r in runs]  # checks each run folder first: one-line errors
    for r, policy in zip(runs, policies, strict=True):
        _finite_weights(r, policy)
    configs = [parse_train_config(load_yaml(r / "config.yaml"), str(r / "config.yaml")) for r in runs]
    _same_across_members(runs, configs)
    run, config = runs[0], configs[0]
    info = config.plugin
    engine = info.load("engine")(dict(config.options))
    encoder = info.load("encoder")(engine)
    scenario = str(config.scenario or info.default_scenario)
    if not is_plain_name(scenario):
        raise UserError(f"{run}: trained on the scenario file {scenario!r}; a bundle names a shipped scenario, "
                        "not a file (train on a shipped scenario or an encounter distribution to export)")
    for r, policy in zip(runs, policies, strict=True):
        if int(policy.observation_space.shape[0]) != encoder.size:
            raise UserError(f"{r}: the policy takes {policy.observation_space.shape[0]} observation values, the "
                            f"installed {config.system} encoder makes {encoder.size}; it cannot be exported by this "
                            "version")
    onnx_bytes = export_actor(*policies)
    if half:
        onnx_bytes = half_weights(onnx_bytes)
    agent = OnnxAgent(OnnxPolicy(onnx_bytes), system=info.name, scenario=scenario, side=config.home_side,
                      name=f"bundle:{Path(out).name}", options=dict(config.options), deterministic=False)
    # the pool's fixed members that agent names resolve (not 'self' snapshots, not other bundles)
    foes = [o for o in config.fixed_opponents if not is_bundle_dir(o)] or ["by-the-book"]
    seen = measure_range(agent, scenario, foes, fights, seed, encounter=config.encounter)
    where = scenario if config.encounter is None else f"fights drawn from the encounter distribution {config.encounter}"
    # a student distilled with distribution teachers was fitted on their fights too: each is measured as well
    families = _families(runs)
    for k, (name, encounter) in enumerate(families.items(), start=1):
        measure_range(agent, scenario, foes, fights, seed + k * fights, encounter=encounter, into=seen)
        where += f", then {fights} fights (seeds from {seed + k * fights}) of {encounter} (its {name} teacher's)"
    observation = observation_schema(
        encoder.schema(), seen.low, seen.high, field_names_source=FIELD_NAMES_SOURCE,
        observed_range_source=(
            f"measured at export: {fights} fights (seeds {seed}..{seed + fights - 1}) of the exported policy "
            f"sampling from its probabilities on side {config.home_side} of {where}, against its training "
            f"opponents in turn ({', '.join(foes)}); {seen.count} observations"
        ))
    training = _training_info(run, config)
    if len(runs) > 1:
        members = [_training_info(r, c) for r, c in zip(runs, configs, strict=True)]
        training = training.model_copy(update={"members": members})
    try:
        schema = _schema(info, engine, config, scenario, observation, training, onnx_bytes, half)
    except ValidationError as exc:
        raise UserError(f"{run}: the bundle's schema.json would be invalid ({first_error(exc)})") from None
    path = write_bundle(out, schema, onnx_bytes, force=force)
    bundle = read_bundle(path)
    return ExportResult(bundle, fights, seen.count, sum(p.stat().st_size for p in path.iterdir()))


def _schema(info: Any, engine: Any, config: Any, scenario: str, observation: Any, training: TrainingInfo,
            onnx_bytes: bytes, half: bool) -> BundleSchema:
    from npc_tactics import __version__
    from npc_tactics.training.run_dir import package_versions

    return BundleSchema(
        system=info.name,
        rules_version=engine.spec.version,
        options=dict(config.options),
        resolved_options=dict(engine.options),
        scenario=scenario,
        side=config.home_side,
        observation=observation,
        actions=list(engine.catalogue.names),
        training=training,
        package=package_versions(("npc-tactics", "torch", "stable-baselines3", "sb3-contrib", "onnx",
                                  "onnxruntime", "numpy")) | {"npc-tactics": __version__},
        exported_at=datetime.now(UTC).replace(microsecond=0).isoformat(),
        onnx=OnnxInfo(sha256=sha256_hex(onnx_bytes), opset=ONNX_OPSET, inputs=INPUTS, outputs=OUTPUTS,
                      weights="float16" if half else "float32"),
    )


def _check_out(out: Path, force: bool) -> None:
    """``--out``'s problems in milliseconds (see npc_tactics.policy_io.bundle_fs.check_destination)."""
    from npc_tactics.policy_io import bundle_fs

    bundle_fs.recover(out, (SCHEMA_FILE, ONNX_FILE))
    bundle_fs.check_destination(out, force=force, allowed={ONNX_FILE, SCHEMA_FILE, *CARD_FILES})


def _finite_weights(run: Path, policy: Any) -> None:
    """Refuse a policy with NaN or infinite weights (a diverged training) before anything is written."""
    import torch

    for name, param in policy.named_parameters():
        if not bool(torch.isfinite(param).all()):
            raise UserError(f"{run}: the policy's weights {name} hold NaN or infinite values (the training "
                            "diverged?); nothing was exported")
