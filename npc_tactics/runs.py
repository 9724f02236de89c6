"""``RunDir``: the one reader of a training run folder (config, side, checkpoints, metadata, weights).

Everything that looks inside a run folder goes through :class:`RunDir`: loading a policy to play, suggest or
evaluate, a run used as a training opponent, ``--resume``, and the CLI guessing a system from a run. Writing
is the training package's job (:mod:`npc_tactics.training.run_dir`).

Trust model (why this module never unpickles): a run folder is meant to be shared (a GM hands a trained NPC
to another GM), so what *playing* a policy reads must not be able to run code. ``config.yaml`` is read with
``yaml.safe_load``, ``meta.json`` and the checkpoint ``.json`` files with ``json``, and the weights are a
``torch.save`` of a plain ``state_dict`` read back with ``torch.load(weights_only=True)``, which refuses
anything but tensors and plain containers. The SB3 ``model.zip`` (its ``data`` member is a cloudpickle) is
written for people who want to open their *own* run in stable-baselines3 and is never read by npc-tactics.

Layout (files this module knows about)::

    config.yaml                       the resolved TrainConfig
    meta.json                         spec name/version, observation size, action names, segments
    policy.pt                         final policy weights (plain state_dict)
    model.zip                         SB3 export of the final model (never read here)
    checkpoints/ckpt_<steps>.json     bookkeeping, written last: a checkpoint counts only when it exists
    checkpoints/ckpt_<steps>.policy.pt   policy weights at that checkpoint
    checkpoints/ckpt_<steps>.optim.pt    Adam state (plain state_dict), for SB3's --resume
    checkpoints/ckpt_<steps>.rllib/      RLlib's own checkpoint of an RLlib run (``backend: rllib``), in place
                                      of optim.pt, for its --resume (never read to play)
    train.lock                        present while a train/resume process writes the folder
"""

from __future__ import annotations

import io
import re
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from npc_tactics.errors import UserError, shown

__all__ = [
    "Checkpoint",
    "RulesVersionWarning",
    "RunConfig",
    "RunDir",
    "check_policy_tensors",
    "expected_policy_shapes",
    "load_policy_weights",
    "load_tensors",
]

POLICY_FILE = "policy.pt"
LEGACY_MODEL_FILE = "model.zip"
CKPT_JSON_RE = re.compile(r"^ckpt_(\d+)\.json$")
LEGACY_CKPT_RE = re.compile(r"^ckpt_(\d+)\.zip$")
MAX_LAYERS = 16  #: a hand-edited config.yaml cannot ask for an absurd network before the weights are checked

LEGACY_HELP = (
    "it was written by an older npc-tactics that stored the policy only in pickled SB3 zips, which "
    "npc-tactics no longer loads because a pickle can run code. Re-train it, or, only if you trained it "
    "yourself, convert it with `python -m npc_tactics.training.legacy {run}`"
)


class RulesVersionWarning(UserWarning):
    """A policy trained under another version of its system's rules (its tactics may no longer fit)."""


@dataclass(frozen=True, slots=True)
class RunConfig:
    """What loading a policy needs from ``config.yaml``, validated strictly (no bool-as-int, bounded)."""

    system: str
    scenario: str | None
    side: int
    options: dict[str, Any]
    net_arch: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Checkpoint:
    """A complete checkpoint: its bookkeeping json exists (written last, so the rest is complete)."""

    timesteps: int
    json_path: Path
    policy_path: Path
    optim_path: Path

    @property
    def name(self) -> str:
        return self.json_path.stem

    @property
    def rllib_path(self) -> Path:
        """The RLlib checkpoint folder of an RLlib run's checkpoint (see ``npc_tactics.training.rllib``)."""
        return self.json_path.with_name(f"{self.json_path.stem}.rllib")


@dataclass
class RunDir:
    """A training run folder. Cheap to create; each accessor reads (and validates) its file on demand."""

    path: Path
    _raw: dict[str, Any] | None = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        self.path = Path(self.path)

    # ----- paths
    @property
    def config_path(self) -> Path:
        return self.path / "config.yaml"

    @property
    def meta_path(self) -> Path:
        return self.path / "meta.json"

    @property
    def policy_path(self) -> Path:
        return self.path / POLICY_FILE

    @property
    def checkpoint_dir(self) -> Path:
        return self.path / "checkpoints"

    @property
    def lock_path(self) -> Path:
        return self.path / "train.lock"

    @property
    def name(self) -> str:
        return self.path.name or str(self.path)

    # ----- what is there
    def is_run(self) -> bool:
        """A folder with a config.yaml (a run, finished or not)."""
        return self.path.is_dir() and self.config_path.is_file()

    def has_policy(self) -> bool:
        """Holds trained weights in any format (legacy zips included, so they get the legacy error)."""
        return self.is_run() and (
            self.policy_path.is_file()
            or bool(self.checkpoints())
            or (self.path / LEGACY_MODEL_FILE).is_file()
            or bool(self.legacy_checkpoints())
        )

    def require(self) -> RunDir:
        """Raise a one-line UserError unless this is a run folder."""
        if not self.path.is_dir():
            raise UserError(f"{self.path}: run dir not found")
        if not self.config_path.is_file():
            raise UserError(f"{self.path}: not a training run (config.yaml is missing)")
        return self

    # ----- config and metadata
    def raw_config(self) -> dict[str, Any]:
        """``config.yaml`` as a mapping (safe YAML); the training package validates it fully."""
        if self._raw is None:
            from npc_tactics.configs import load_yaml

            self.require()
            data = load_yaml(self.config_path)
            if not isinstance(data, dict):
                raise UserError(f"{self.config_path}: expected a mapping at the top level, got {type(data).__name__}")
            self._raw = data
        return dict(self._raw)

    def config(self) -> RunConfig:
        """The fields a policy needs (system, scenario, side, options, ``ppo.net_arch``), checked strictly."""
        raw = self.raw_config()
        where = str(self.config_path)

        def bad(key: str, expected: str, value: Any) -> UserError:
            text = repr(value)
            text = text if len(text) <= 60 else text[:57] + "..."
            return UserError(f"{where}: {key}: expected {expected}, got {text}")

        system = raw.get("system")
        if not isinstance(system, str) or not system:
            raise bad("system", "a system name", system)
        scenario = raw.get("scenario")
        if scenario is not None and not isinstance(scenario, str):
            raise bad("scenario", "a scenario name", scenario)
        side = raw.get("side", 0)
        if side == "both":  # trained on both sides (docs/selfplay.md): side 0 is its default seat
            side = 0
        if type(side) is not int or not 0 <= side <= 1:
            raise bad("side", "0, 1 or 'both'", side)
        options = raw.get("options") or {}
        if not isinstance(options, dict):
            raise bad("options", "a mapping", options)
        ppo = raw.get("ppo") or {}
        if not isinstance(ppo, dict):
            raise bad("ppo", "a mapping", ppo)
        arch = ppo.get("net_arch", [64, 64])
        if (not isinstance(arch, list) or not 1 <= len(arch) <= MAX_LAYERS
                or any(type(w) is not int or w < 1 for w in arch)):
            raise bad("ppo.net_arch", f"1 to {MAX_LAYERS} positive layer widths", arch)
        return RunConfig(system, scenario, side, dict(options), tuple(arch))

    def meta(self) -> dict[str, Any]:
        """``meta.json`` (empty when absent: runs written before it existed)."""
        if not self.meta_path.exists():
            return {}
        from npc_tactics.configs.files import read_json

        data = read_json(self.meta_path, what="meta.json")  # strict and bounded; a one-line ConfigError
        if not isinstance(data, dict):
            raise UserError(f"{self.meta_path}: expected a JSON object")
        return data

    def spec_version(self) -> str | None:
        """The rules version (``SystemSpec.version``) the run was trained under, if recorded."""
        spec = self.meta().get("spec")
        version = spec.get("version") if isinstance(spec, dict) else None
        return str(version) if version is not None else None

    def rules_version_note(self, system: str, current: str) -> str | None:
        """A warning text when the run was trained under other rules than ``current``, else ``None``."""
        trained = self.spec_version()
        if trained is None:
            return (f"{self.name}: the rules version it was trained under is not recorded (no meta.json spec); "
                    f"this npc-tactics plays {system} rules {current}")
        if trained != current:
            return (f"{self.name} was trained under {system} rules {trained}, this npc-tactics plays {system} "
                    f"rules {current}: its tactics may not fit the current rules (re-train to be sure)")
        return None

    def warn_rules_version(self, system: str, current: str) -> str | None:
        """:meth:`rules_version_note`, also issued as a :class:`RulesVersionWarning`."""
        note = self.rules_version_note(system, current)
        if note:
            warnings.warn(note, RulesVersionWarning, stacklevel=3)
        return note

    # ----- checkpoints and weights
    def checkpoints(self) -> list[Checkpoint]:
        """Complete checkpoints, oldest first: a json plus the weights and the optimizer state (a tensor file,
        or an RLlib checkpoint folder); the json is written last, so a kill mid-write leaves none."""
        out = []
        if self.checkpoint_dir.is_dir():
            for p in self.checkpoint_dir.iterdir():
                m = CKPT_JSON_RE.match(p.name)
                if not m:
                    continue
                ckpt = Checkpoint(int(m.group(1)), p, p.with_name(f"{p.stem}.policy.pt"),
                                  p.with_name(f"{p.stem}.optim.pt"))
                if ckpt.policy_path.is_file() and (ckpt.optim_path.is_file() or ckpt.rllib_path.is_dir()):
                    out.append(ckpt)
        return sorted(out, key=lambda c: c.timesteps)

    def legacy_checkpoints(self) -> list[tuple[int, Path]]:
        """Old-format checkpoints (``ckpt_<steps>.zip`` + json, no tensor files): never loaded, only named."""
        out = []
        if self.checkpoint_dir.is_dir():
            for p in self.checkpoint_dir.iterdir():
                m = LEGACY_CKPT_RE.match(p.name)
                if m and p.with_suffix(".json").is_file() and not p.with_suffix(".policy.pt").is_file():
                    out.append((int(m.group(1)), p))
        return sorted(out)

    def legacy_error(self) -> UserError:
        return UserError(f"{self.path}: no policy weights file; " + LEGACY_HELP.format(run=self.path))

    def weights_path(self, checkpoint: int | str | Path | None = None) -> Path:
        """The weights to play: ``policy.pt``, else the latest checkpoint's; or the checkpoint asked for
        (timesteps, or a path to a ``.policy.pt`` file inside the run)."""
        self.require()
        ckpts = self.checkpoints()
        if checkpoint is None:
            if self.policy_path.is_file():
                return self.policy_path
            if ckpts:
                return ckpts[-1].policy_path
            if (self.path / LEGACY_MODEL_FILE).is_file() or self.legacy_checkpoints():
                raise self.legacy_error()
            raise UserError(f"{self.path}: not a trained run yet (no {POLICY_FILE} and no checkpoints)")
        if isinstance(checkpoint, int) or str(checkpoint).isdigit():
            wanted = int(str(checkpoint))
            for c in ckpts:
                if c.timesteps == wanted:
                    return c.policy_path
            have = ", ".join(str(c.timesteps) for c in ckpts) or "none"
            raise UserError(f"{self.path}: no checkpoint at {wanted} timesteps (checkpoints: {have})")
        path = Path(checkpoint)
        if not path.is_absolute() and not path.exists():
            path = self.path / path
        if not path.is_file():
            raise UserError(f"{self.path}: checkpoint {checkpoint} not found")
        if path.suffix != ".pt":
            raise UserError(f"{path}: expected a .pt weights file; " + LEGACY_HELP.format(run=self.path))
        return path


#: Largest weights file read (bytes): the biggest network the limits allow (8 layers of 4,096) with its Adam state.
MAX_TENSOR_BYTES = 2 * 1024**3


def load_tensors(path: Path) -> Any:
    """A ``torch.save``d state dict, read with ``weights_only=True``: tensors and plain containers only, so a
    crafted file cannot run code. Anything else is a one-line UserError naming the file."""
    import pickle

    import torch

    from npc_tactics.configs.files import read_bytes

    buffer = io.BytesIO(read_bytes(path, MAX_TENSOR_BYTES, "weights file"))  # a FIFO or device: refused
    try:
        return torch.load(buffer, map_location="cpu", weights_only=True)
    except (pickle.UnpicklingError, RuntimeError, EOFError, OSError, ValueError, AttributeError) as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise UserError(f"{path}: not a plain tensor file, refused ({first[:200]})") from None


def check_policy_tensors(path: Path, state: Any) -> dict[str, Any]:
    """``state`` if it is a dict of finite floating-point tensors, else a one-line UserError naming ``path``
    and the first bad tensor. Why: a NaN or infinite weight loads fine and only fails at the first move (a
    torch ``Categorical`` error deep in a fight), and an integer tensor is silently cast by
    ``load_state_dict``; a policy's weights are always floats, so anything else is a damaged or crafted file."""
    import torch

    if not isinstance(state, dict) or not state:
        raise UserError(f"{path}: expected a state dict of tensors, got {type(state).__name__}")
    for name, tensor in state.items():
        label = shown(name) if not isinstance(name, str) else name
        if not isinstance(tensor, torch.Tensor):
            raise UserError(f"{path}: {label}: expected a tensor, got {type(tensor).__name__}")
        if not tensor.is_floating_point():
            raise UserError(f"{path}: {label}: expected floating-point weights, got a {tensor.dtype} tensor")
        if not bool(torch.isfinite(tensor).all()):
            bad = int((~torch.isfinite(tensor)).sum())
            raise UserError(f"{path}: {label}: {bad} weight(s) are NaN or infinite; the weights are damaged "
                            "(a diverged training or an edited file)")
    return state


def load_policy_weights(path: Path) -> dict[str, Any]:
    """:func:`load_tensors` of a policy weights file (``policy.pt``, a checkpoint's or a snapshot's
    ``.policy.pt``), checked by :func:`check_policy_tensors`."""
    return check_policy_tensors(path, load_tensors(path))


def expected_policy_shapes(obs_size: int, n_actions: int, net_arch: tuple[int, ...]) -> dict[str, tuple[int, ...]]:
    """Parameter shapes of SB3's ``MaskableActorCriticPolicy`` MLP (separate pi and vf nets of ``net_arch``)."""
    shapes: dict[str, tuple[int, ...]] = {}
    for net in ("policy_net", "value_net"):
        width = obs_size
        for i, out in enumerate(net_arch):
            shapes[f"mlp_extractor.{net}.{2 * i}.weight"] = (out, width)
            shapes[f"mlp_extractor.{net}.{2 * i}.bias"] = (out,)
            width = out
    last = net_arch[-1] if net_arch else obs_size
    shapes.update({"action_net.weight": (n_actions, last), "action_net.bias": (n_actions,),
                   "value_net.weight": (1, last), "value_net.bias": (1,)})
    return shapes
