"""The training config: one YAML file (system, scenario, opponents, reward terms, PPO
hyperparameters, budget, seed) validated by pydantic v2 with unknown keys forbidden (STYLE.md §6).

Schedules are data, never strings to evaluate: ``learning_rate: {kind: linear, start: 3e-4, end:
0.0}``. YAML anchors and merge keys (``&defaults`` / ``<<: *defaults``) work because
``yaml.safe_load`` resolves them; top-level keys starting with ``x-`` or ``_`` are reserved to hold
such shared blocks and are dropped before validation (every other unknown key is an error). Every
validation error becomes one :class:`~npc_tactics.errors.ConfigError` naming the file and the dotted
field (``ppo.learning_rate``); unknown system, scenario or opponent names list the valid choices.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, create_model, model_validator

from npc_tactics.configs import CONFIG_DIR, load_yaml, named_files, resolve_named
from npc_tactics.envs.rewards import RewardConfig
from npc_tactics.errors import ConfigError, UnknownNameError
from npc_tactics.limits import (
    MAX_EVAL_EPISODES,
    MAX_LAYERS,
    MAX_REWARD,
    MAX_ROLLOUT,
    MAX_TIMESTEPS,
    MAX_WIDTH,
    SEED_MAX,
)
from npc_tactics.plugin import System
from npc_tactics.policy_io.bundle import is_bundle_dir

__all__ = [
    "PRESET_DIR",
    "BudgetConfig",
    "OpponentPoolConfig",
    "PPOConfig",
    "PoolEntry",
    "RewardTerms",
    "Schedule",
    "TrainConfig",
    "is_run_dir",
    "list_presets",
    "load_train_config",
    "validate_names",
]

PRESET_DIR = CONFIG_DIR / "presets"

# strict: no bool -> int/float (``side: true``) and no str -> number coercion; NaN and infinities refused.
_STRICT = ConfigDict(extra="forbid", frozen=True, strict=True, allow_inf_nan=False)


class Schedule(BaseModel):
    """A value that changes with training progress: ``linear`` goes from ``start`` to ``end`` over
    the first ``end_fraction`` of the budget (SB3 ``LinearSchedule``); ``constant`` stays at
    ``start``."""

    model_config = _STRICT
    kind: Literal["linear", "constant"]
    start: float = Field(gt=0)
    end: float = Field(default=0.0, ge=0)
    end_fraction: float = Field(default=1.0, gt=0, le=1)

    def build(self) -> Any:
        """The SB3 schedule object (picklable, so checkpoints keep it)."""
        from stable_baselines3.common.utils import ConstantSchedule, LinearSchedule

        if self.kind == "constant":
            return ConstantSchedule(self.start)
        return LinearSchedule(self.start, self.end, self.end_fraction)


def as_schedule(value: float | Schedule) -> Any:
    return value.build() if isinstance(value, Schedule) else float(value)


# The env's RewardConfig terms as a strict pydantic model: one list of terms, defined once in envs/rewards.py.
if TYPE_CHECKING:  # the checker sees a model class; the fields are made at run time from RewardConfig's
    class RewardTerms(BaseModel):
        pass
else:
    RewardTerms = create_model(
        "RewardTerms",
        __config__=_STRICT,
        __doc__="The env's ``RewardConfig`` terms (``npc_tactics/envs/rewards.py``): terminal results plus shaping.",
        **{f.name: (float, Field(default=f.default, ge=-MAX_REWARD, le=MAX_REWARD)) for f in fields(RewardConfig)},
    )


class PPOConfig(BaseModel):
    """MaskablePPO hyperparameters. Defaults suit short discrete fights (tens of decisions per
    episode)."""

    model_config = _STRICT
    learning_rate: float | Schedule = Field(default=3e-4)
    n_steps: int = Field(default=256, ge=8, le=MAX_ROLLOUT)
    batch_size: int = Field(default=256, ge=8, le=MAX_ROLLOUT)
    n_epochs: int = Field(default=5, ge=1, le=1000)
    gamma: float = Field(default=0.99, gt=0, le=1)
    gae_lambda: float = Field(default=0.95, ge=0, le=1)
    ent_coef: float = Field(default=0.01, ge=0, le=10)
    clip_range: float | Schedule = Field(default=0.2)
    vf_coef: float = Field(default=0.5, ge=0, le=100)
    max_grad_norm: float = Field(default=0.5, gt=0)
    net_arch: list[int] = Field(default_factory=lambda: [64, 64], min_length=1)

    @model_validator(mode="after")
    def _check(self) -> PPOConfig:
        for name, high in (("learning_rate", 1.0), ("clip_range", 10.0)):
            value = getattr(self, name)
            if not isinstance(value, Schedule) and value <= 0:
                raise _FieldError(name, f"expected a positive number, got {value!r}")
            top = max(value.start, value.end) if isinstance(value, Schedule) else value
            if top > high:  # a learning rate of 1e30 turns the weights into NaN on the first update
                raise _FieldError(name, f"expected at most {high}, got {top!r}")
        if len(self.net_arch) > MAX_LAYERS or any(not 1 <= w <= MAX_WIDTH for w in self.net_arch):
            raise _FieldError(
                "net_arch",
                f"expected positive layer widths (1 to {MAX_LAYERS} layers of at most {MAX_WIDTH} units), "
                f"got {_describe_input(self.net_arch)}",
            )
        return self


class BudgetConfig(BaseModel):
    """How long to train and how often to evaluate and checkpoint (all in environment timesteps)."""

    model_config = _STRICT
    timesteps: int = Field(default=200_000, ge=1, le=MAX_TIMESTEPS)
    n_envs: int = Field(default=8, ge=1, le=256)
    eval_every: int = Field(default=20_000, ge=0)  #: 0 = evaluate only at the end
    eval_episodes: int = Field(default=100, ge=1, le=MAX_EVAL_EPISODES)
    checkpoint_every: int = Field(default=20_000, ge=0)  #: 0 = checkpoint only at the end
    keep_checkpoints: int = Field(default=3, ge=1, le=1000)


SELF = "self"
#: snapshot defaults of a ``self`` pool entry: a frozen copy every 20,000 timesteps, the last 5 kept
SELF_EVERY, SELF_KEEP = 20_000, 5


class PoolEntry(BaseModel):
    """One member of an opponent pool (docs/selfplay.md): a scripted agent name, ``self`` (frozen
    snapshots of the policy being trained, one every ``every`` timesteps, the last ``keep`` kept), a
    training run folder or an exported bundle folder. ``weight`` is its share of the episodes."""

    model_config = _STRICT
    agent: str = Field(min_length=1, max_length=1000)
    weight: float = Field(default=1.0, gt=0, le=1e6)
    every: int | None = Field(default=None, ge=1, le=MAX_TIMESTEPS)
    keep: int | None = Field(default=None, ge=1, le=100)

    @model_validator(mode="after")
    def _check(self) -> PoolEntry:
        if self.agent != SELF:
            for key in ("every", "keep"):
                if getattr(self, key) is not None:
                    raise _FieldError(key, f"only a '{SELF}' entry takes snapshots; {self.agent!r} cannot have {key}")
        return self

    @property
    def snapshot_every(self) -> int:
        return self.every if self.every is not None else SELF_EVERY

    @property
    def snapshot_keep(self) -> int:
        return self.keep if self.keep is not None else SELF_KEEP


class OpponentPoolConfig(BaseModel):
    """``opponents: {pool: [...]}``: the weighted pool one opponent is drawn from per episode."""

    model_config = _STRICT
    pool: list[PoolEntry] = Field(min_length=1, max_length=64)

    @model_validator(mode="after")
    def _check(self) -> OpponentPoolConfig:
        selves = [i for i, e in enumerate(self.pool) if e.agent == SELF]
        if len(selves) > 1:
            raise _FieldError(f"pool.{selves[1]}.agent", f"at most one '{SELF}' entry (got {len(selves)})")
        return self


class TrainConfig(BaseModel):
    """One training run. ``opponents`` is either a plain list (scripted agent names of ``system`` or
    paths to earlier run dirs; one drawn uniformly per episode) or a weighted pool
    (:class:`OpponentPoolConfig`, with self-play snapshots). ``side: both`` trains one policy on both
    sides, the side drawn per episode (docs/selfplay.md)."""

    model_config = _STRICT
    description: str = Field(default="", max_length=500)
    system: str
    scenario: str | None = None
    #: an encounter distribution (name in systems/<system>/content/encounters or YAML path): each episode draws its
    #: own fight from it (npc_tactics.encounters); exactly one of scenario and encounter
    encounter: str | None = Field(default=None, min_length=1, max_length=500)
    side: int | Literal["both"] = Field(default=0)
    opponents: list[str] | OpponentPoolConfig = Field(default_factory=lambda: ["by-the-book"])
    reward: RewardTerms = Field(default_factory=RewardTerms)
    options: dict[str, Any] = Field(default_factory=dict)
    ppo: PPOConfig = Field(default_factory=PPOConfig)
    budget: BudgetConfig = Field(default_factory=BudgetConfig)
    seed: int = Field(default=0, ge=0, le=SEED_MAX)
    #: who trains: ``sb3`` (MaskablePPO, local, the default) or ``rllib`` (RLlib PPO on a Ray cluster, the
    #: optional ``[ray]`` extra; :mod:`npc_tactics.training.rllib`). Both write the same run folder.
    backend: Literal["sb3", "rllib"] = "sb3"

    @model_validator(mode="after")
    def _check_rollout(self) -> TrainConfig:
        from npc_tactics.configs.validate import control_character

        if (bad := control_character(self.description)) is not None:  # shown in reports and the run's meta
            raise _FieldError("description", bad)
        if isinstance(self.side, int) and not 0 <= self.side <= 1:
            raise _FieldError("side", f"expected 0, 1 (a number >= 0 and <= 1) or 'both', got {self.side!r}")
        if isinstance(self.opponents, list) and not 1 <= len(self.opponents) <= 64:
            raise _FieldError("opponents", f"expected at least 1 and at most 64 opponents, got {len(self.opponents)}")
        if self.encounter is not None and self.scenario is not None:
            raise _FieldError("encounter", "give either scenario (one fight) or encounter (a distribution), not both")
        if self.ppo.n_steps * self.budget.n_envs > MAX_ROLLOUT:
            raise _FieldError(
                "ppo.n_steps",
                f"n_steps x budget.n_envs = {self.ppo.n_steps * self.budget.n_envs} transitions per update; "
                f"expected at most {MAX_ROLLOUT}",
            )
        return self

    @property
    def plugin(self) -> System:
        """The run's system: the one place its ``system`` name is resolved (an unknown name lists the valid
        ones; :func:`validate_names` reports it at the ``system`` field)."""
        from npc_tactics.registry import get_system

        return get_system(self.system)

    @property
    def both_sides(self) -> bool:
        """True when one policy is trained on both sides (``side: both``)."""
        return self.side == "both"

    @property
    def home_side(self) -> int:
        """The side the policy sits on by default: ``side``, or 0 for ``side: both`` (it plays either)."""
        return 0 if self.side == "both" else int(self.side)

    def pool_entries(self) -> list[PoolEntry]:
        """The opponents as weighted entries (a plain list: weight 1 each)."""
        if isinstance(self.opponents, OpponentPoolConfig):
            return list(self.opponents.pool)
        return [PoolEntry(agent=name) for name in self.opponents]

    @property
    def fixed_opponents(self) -> list[str]:
        """The opponents that are not snapshots of the policy itself: what evaluation and export play
        against (``by-the-book`` when the pool is self-play only)."""
        names = [e.agent for e in self.pool_entries() if e.agent != SELF]
        return names or ["by-the-book"]

    def label(self) -> str:
        """What the run trains on, for folder names and progress: the scenario, or ``encounter-<name>``."""
        if self.encounter is not None:
            return f"encounter-{Path(self.encounter).stem}"
        return str(self.scenario)

    def to_yaml_dict(self) -> dict[str, Any]:
        """Plain data for ``config.yaml`` (round-trips through :func:`parse_train_config`)."""
        return self.model_dump(mode="json")

    def with_overrides(self, **changes: Any) -> TrainConfig:
        """A copy with dotted-path overrides, e.g. ``{"budget.timesteps": 1000}``, re-validated."""
        data = self.model_dump(mode="python")
        for dotted, value in changes.items():
            node = data
            *parents, leaf = dotted.split(".")
            for p in parents:
                node = node[p]
            node[leaf] = value
        return TrainConfig.model_validate(data)


class _FieldError(ValueError):
    """Raised inside validators to name the offending sub-field precisely."""

    def __init__(self, field: str, message: str) -> None:
        self.field = field
        self.message = message
        super().__init__(message)


def _describe_input(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _error_message(err: Mapping[str, Any]) -> str:
    kind = err.get("type", "")
    value = err.get("input")
    ctx = err.get("ctx") or {}
    if kind == "extra_forbidden":
        return "unknown key"
    if kind == "missing":
        return "required field is missing"
    if kind in ("int_type", "int_parsing", "int_from_float"):
        return f"expected an integer, got {_describe_input(value)}"
    if kind in ("float_type", "float_parsing"):
        return f"expected a number, got {_describe_input(value)}"
    if kind == "finite_number":
        return f"expected a finite number, got {_describe_input(value)}"
    if kind == "too_long":
        return f"expected at most {ctx.get('max_length')} item(s) or characters, got {_describe_input(value)}"
    if kind in ("greater_than", "greater_than_equal", "less_than", "less_than_equal"):
        bound = {
            "greater_than": "> {gt}",
            "greater_than_equal": ">= {ge}",
            "less_than": "< {lt}",
            "less_than_equal": "<= {le}",
        }[kind].format(**{k: ctx.get(k) for k in ("gt", "ge", "lt", "le")})
        return f"expected a number {bound}, got {_describe_input(value)}"
    if kind in (
        "list_type",
        "dict_type",
        "model_type",
        "model_attributes_type",
        "string_type",
        "bool_type",
    ):
        what = {
            "list_type": "a list",
            "dict_type": "a mapping",
            "model_type": "a mapping",
            "model_attributes_type": "a mapping",
            "string_type": "a string",
            "bool_type": "true or false",
        }
        return f"expected {what[kind]}, got {_describe_input(value)}"
    if kind == "too_short":
        return f"expected at least {ctx.get('min_length', 1)} item(s), got {_describe_input(value)}"
    if kind == "literal_error":
        return f"expected one of {ctx.get('expected')}, got {_describe_input(value)}"
    msg = str(err.get("msg", "invalid value"))
    return msg.removeprefix("Value error, ")


_NUMBER_OR_SCHEDULE = {"learning_rate", "clip_range"}


def _first_error(exc: ValidationError) -> tuple[str, str]:
    """The dotted field path and message of the most useful pydantic error."""
    errors = exc.errors()
    err = errors[0]
    loc = [str(p) for p in err["loc"]]
    union = _union_error(errors, loc)
    if union is not None:
        return union
    # ``float | Schedule`` unions report one error per branch: prefer the plain-number reading of a
    # scalar.
    if len(loc) >= 2 and loc[-2] in _NUMBER_OR_SCHEDULE or (len(loc) >= 1 and loc[-1] in ("float", "Schedule")):
        loc = [p for p in loc if p not in ("float", "Schedule")]
        value = err.get("input")
        if not isinstance(value, dict):
            return ".".join(loc), f"expected a positive number or a schedule mapping, got {_describe_input(value)}"
        sched = [e for e in errors if "Schedule" in [str(p) for p in e["loc"]]]
        if sched:
            sloc = [str(p) for p in sched[0]["loc"] if str(p) != "Schedule"]
            return ".".join(sloc), _error_message(sched[0])
    loc = [p for p in loc if p not in ("float", "Schedule")]
    ctx_err = (err.get("ctx") or {}).get("error")
    if isinstance(ctx_err, _FieldError):
        loc = loc + [ctx_err.field]
        return ".".join(loc), ctx_err.message
    return ".".join(loc), _error_message(err)




def _is_opponent_tag(tag: str) -> bool:
    """A union-branch tag of ``opponents`` (pydantic names the pool branch after its validator)."""
    return tag == "list[str]" or "OpponentPoolConfig" in tag


def _union_error(errors: list[Any], loc: list[str]) -> tuple[str, str] | None:
    """``side: int | 'both'`` and ``opponents: list | {pool: ...}`` report one error per branch: keep
    the branch the input was written for (a mapping is a pool, anything else a list)."""
    if not loc or loc[0] not in ("side", "opponents") or len(loc) < 2:
        return None
    if loc[0] == "side":
        got = _describe_input(errors[0].get("input"))
        return "side", f"expected 0, 1 (a number >= 0 and <= 1) or 'both', got {got}"
    if not _is_opponent_tag(loc[1]):
        return None
    value = errors[0].get("input") if len(loc) == 2 else None
    wanted = "OpponentPoolConfig" if isinstance(value, dict) else "list[str]"
    for e in errors:
        eloc = [str(p) for p in e["loc"]]
        if len(eloc) >= 2 and eloc[0] == "opponents" and wanted in eloc[1]:
            if len(eloc) == 2 and e.get("type") not in ("extra_forbidden", "missing", "too_short"):
                if not isinstance(e.get("input"), (list, dict)):
                    return "opponents", ("expected a list of agents or a mapping {pool: [...]}, got "
                                         f"{_describe_input(e.get('input'))}")
            rest = [p for p in eloc[2:]]
            ctx_err = (e.get("ctx") or {}).get("error")
            if isinstance(ctx_err, _FieldError):
                return ".".join(["opponents", *rest, ctx_err.field]), ctx_err.message
            return ".".join(["opponents", *rest]), _error_message(e)
    return None


def parse_train_config(data: Any, file: str = "<config>") -> TrainConfig:
    """Validate a mapping into a :class:`TrainConfig`; the first error becomes a ``ConfigError``."""
    if not isinstance(data, dict):
        raise ConfigError(file, "", f"expected a mapping at the top level, got {type(data).__name__}")
    data = {k: v for k, v in data.items() if not (isinstance(k, str) and k.startswith(("x-", "_")))}
    try:
        return TrainConfig.model_validate(data)
    except ValidationError as exc:
        field, message = _first_error(exc)
        raise ConfigError(file, field, message) from None


def is_run_dir(path: str | Path) -> bool:
    """True for a training run folder that holds trained weights (see :class:`npc_tactics.runs.RunDir`)."""
    from npc_tactics.runs import RunDir

    return RunDir(Path(path)).has_policy()


def validate_names(config: TrainConfig, file: str = "<config>") -> TrainConfig:
    """Check the system, scenario, opponents and rules options against what is installed.

    Returns the config with ``scenario`` filled in with the system's default when it was omitted.
    Needs the system's engine to import; errors are ``ConfigError`` naming the field and the valid
    choices.
    """
    try:
        info = config.plugin
    except UnknownNameError as exc:
        raise ConfigError(file, "system", str(exc)) from None
    content = info.load("content")
    scenarios = [name for name, _ in content.list_scenarios()]
    scenario = config.scenario or info.default_scenario
    if config.encounter is not None:
        from npc_tactics.encounters.spec import load_encounter

        try:
            load_encounter(config.encounter, info)
        except UnknownNameError as exc:
            raise ConfigError(file, "encounter", str(exc)) from None
    else:
        if scenario not in scenarios and not Path(scenario).is_file():
            raise ConfigError(file, "scenario", str(UnknownNameError("scenario", scenario, scenarios)))
        try:
            content.load_scenario(scenario)  # a scenario YAML path that does not validate: its own error
        except ConfigError as exc:
            from npc_tactics.configs.sniff import wrong_system_error

            raise wrong_system_error(exc, scenario, "scenario", info.name, f"{file}: system is") from None
    from npc_tactics.agents import agent_entries

    agents = agent_entries(info)
    pooled = isinstance(config.opponents, OpponentPoolConfig)
    where = [f"opponents.pool.{i}.agent" if pooled else f"opponents.{i}" for i in range(len(config.pool_entries()))]
    for i, entry in enumerate(config.pool_entries()):
        name = entry.agent
        if name == SELF and pooled:
            continue
        if name not in agents and not is_run_dir(name) and not (pooled and is_bundle_dir(name)):
            extra = " (or a trained run dir, a bundle folder or 'self')" if pooled else " (or a trained run dir)"
            raise ConfigError(file, where[i], str(UnknownNameError("agent", name, agents)) + extra)
    try:
        engine = info.load("engine")(config.options)
    except (ValueError, TypeError) as exc:
        raise ConfigError(file, "options", str(exc)) from None
    if config.home_side >= engine.spec.sides:
        raise ConfigError(file, "side", f"expected 0..{engine.spec.sides - 1}, got {config.side}")
    if config.both_sides and engine.spec.sides != 2:
        raise ConfigError(file, "side", f"'both' needs a two-sided fight; {info.name} has {engine.spec.sides} sides")
    size = int(getattr(info.load("encoder")(engine), "size", 0))
    for i, entry in enumerate(config.pool_entries()):
        name = entry.agent
        if name in agents or name == SELF:
            continue
        problem = bundle_fit_problem(Path(name), info.name, size) if is_bundle_dir(name) else \
            run_fit_problem(Path(name), config.system, size)
        if problem:
            raise ConfigError(file, where[i], problem)
    filled = None if config.encounter is not None else scenario  # an encounter run names no scenario
    if config.scenario != filled:
        config = config.model_copy(update={"scenario": filled})
    return config


def bundle_fit_problem(path: Path, system: str, obs_size: int) -> str | None:
    """Why a bundle cannot play ``system`` (unreadable, another system, another observation size), or None."""
    from npc_tactics.errors import UserError
    from npc_tactics.policy_io.bundle import read_bundle

    try:
        schema = read_bundle(path).schema
    except UserError as exc:
        return str(exc)
    if schema.system != system:
        return f"{path} is a {schema.system} bundle; this needs {system}"
    if obs_size and schema.observation.size != obs_size:
        return f"{path}: its policy reads {schema.observation.size} observation values but {system} gives {obs_size}"
    return None


def run_fit_problem(run: Path, system: str, obs_size: int) -> str | None:
    """Why a run folder cannot play ``system`` (another system, an unreadable config, or a policy whose
    input size, as its meta.json records it, differs from ``obs_size``), or None. Loads no model."""
    from npc_tactics.configs.files import read_json

    config_path = run / "config.yaml"
    if not config_path.is_file():
        return f"{run}: not a training run (config.yaml is missing)"
    try:
        theirs = parse_train_config(load_yaml(config_path), str(config_path))
    except ConfigError as exc:
        return f"{run}: unreadable config.yaml ({exc})"
    if theirs.system != system:
        return f"{run} is a {theirs.system} run, trained for {theirs.system!r}; this needs {system}"
    meta_path = run / "meta.json"
    if not meta_path.exists():
        return None
    try:
        meta = read_json(meta_path, what="meta.json")  # strict and bounded: a crafted file is one line
    except ConfigError as exc:
        return str(exc)
    size = meta.get("observation_size") if isinstance(meta, dict) else None
    if isinstance(size, int) and obs_size and size != obs_size:
        return (
            f"{run}: its policy reads {size} observation values but {system} gives {obs_size}: the model and "
            "config.yaml of this run disagree (files mixed up, or trained under another encoder version)"
        )
    return None


def list_presets() -> list[tuple[str, str]]:
    """``(name, description)`` of every shipped training preset."""
    out = []
    for name, path in named_files(PRESET_DIR).items():
        try:
            data = load_yaml(path)
            desc = str(data.get("description", "")) if isinstance(data, dict) else ""
        except ConfigError:
            desc = "(unreadable)"
        out.append((name, desc))
    return out


def load_train_config(name_or_path: str | Path, *, check_names: bool = True) -> TrainConfig:
    """Load a training config from a YAML path or the name of a shipped preset.

    Raises :class:`ConfigError` (bad file or field) or :class:`UnknownNameError` (unknown preset
    name). With ``check_names`` the system, scenario, opponents and options are checked too (see
    :func:`validate_names`).
    """
    path = resolve_named(name_or_path, PRESET_DIR, "preset")
    data = load_yaml(path)
    config = parse_train_config(data, str(path))
    if check_names:
        config = validate_names(config, str(path))
    return config
