"""Opponent pools: scripted agents, frozen snapshots of the policy being trained, run folders and bundles.

An :class:`OpponentPool` is an agent factory ``(engine, rng) -> Agent`` (the env's opponent interface, see
:mod:`npc_tactics.policy_io.agent`), so the env takes it unchanged: at each reset the env calls it with that
episode's opponent stream; the pool draws one member by weight from that stream, then builds the member's
agent from the same stream. Same seed, same opponent, same opponent moves.

Members (``opponents: {pool: [...]}`` in the training YAML, docs/selfplay.md):

* a scripted agent name: rebuilt per episode, as the plain list form does;
* ``self``: frozen snapshots of the policy being trained. :class:`~npc_tactics.training.callbacks.SnapshotCallback`
  copies the policy's weights into the pool every ``every`` timesteps (the first copy at the start of
  training, so the pool is never empty) and writes them to ``<run>/snapshots/<timesteps>.policy.pt`` (a plain
  state dict; read back with ``weights_only``, never unpickled). Only the last ``keep`` are kept; one is drawn
  uniformly per ``self`` episode and plays by sampling from its masked distribution;
* a run folder or an exported bundle folder: loaded once, played by sampling with the episode's stream.

The pool lives in the training process: the envs that share it (SB3 ``DummyVecEnv``, the native VecEnv) see a
new snapshot at the next reset. It is not meant for subprocess envs.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from npc_tactics.agents import agent_entries
from npc_tactics.agents.base import Agent
from npc_tactics.plugin import System
from npc_tactics.rules.base import Engine
from npc_tactics.training.config import SELF, PoolEntry, TrainConfig, is_bundle_dir

__all__ = ["SNAPSHOT_DIR", "OpponentPool", "PoolMember", "Snapshot", "build_pool", "snapshot_files"]

SNAPSHOT_DIR = "snapshots"
_SNAPSHOT_NAME = re.compile(r"^(\d+)\.policy\.pt$")


@dataclass(slots=True)
class Snapshot:
    """A frozen copy of the trained policy at ``timesteps`` (an SB3 policy object in eval mode)."""

    timesteps: int
    policy: Any


@dataclass(slots=True)
class PoolMember:
    """One entry of the pool: ``make(engine, rng)`` builds its agent for one episode; ``None`` while it
    cannot play (a ``self`` entry before its first snapshot)."""

    label: str
    weight: float
    make: Callable[[Engine[Any], np.random.Generator], Agent] | None


class OpponentPool:
    """A weighted opponent pool, callable as an agent factory ``(engine, rng) -> Agent``."""

    def __init__(self, members: Sequence[PoolMember], *, obs_size: int, n_actions: int,
                 net_arch: Sequence[int], system: str, scenario: str, keep: int = 5, every: int = 0) -> None:
        if not members:
            raise ValueError("an opponent pool needs at least one member")
        self.members = list(members)
        self.obs_size, self.n_actions, self.net_arch = int(obs_size), int(n_actions), tuple(net_arch)
        self.system, self.scenario = system, scenario
        self.keep, self.every = int(keep), int(every)
        self.snapshots: list[Snapshot] = []
        self.draws: Counter[str] = Counter()  #: episodes per member label (logged by the snapshot callback)
        self._self = next((m for m in self.members if m.label == SELF), None)
        if self._self is not None:
            self._self.make = None  # playable once the first snapshot exists

    @property
    def has_self(self) -> bool:
        return self._self is not None

    def __call__(self, engine: Engine[Any], rng: np.random.Generator) -> Agent:
        """Draw a member by weight (members that cannot play yet are skipped), then build its agent."""
        ready = [m for m in self.members if m.make is not None]
        if not ready:
            raise RuntimeError("the opponent pool has only 'self' and no snapshot yet: add one first "
                               "(SnapshotCallback does at the start of training)")
        weights = np.array([m.weight for m in ready], dtype=np.float64)
        k = int(rng.choice(len(ready), p=weights / weights.sum())) if len(ready) > 1 else 0
        member = ready[k]
        self.draws[member.label] += 1
        assert member.make is not None
        return member.make(engine, rng)

    # ----- snapshots of the policy being trained -----------------------------------------------------
    def add_snapshot(self, timesteps: int, state_dict: dict[str, Any]) -> Snapshot:
        """Freeze a copy of ``state_dict`` (tensors are cloned) as the snapshot of ``timesteps``; the oldest
        beyond ``keep`` is dropped. A snapshot of the same timestep replaces the earlier one, and any real
        snapshot replaces the placeholder (timesteps -1, :meth:`add_placeholder`)."""
        from npc_tactics.agents.policy import build_policy

        policy = build_policy(self.obs_size, self.n_actions, self.net_arch)
        policy.load_state_dict({k: v.detach().clone() for k, v in state_dict.items()}, strict=True)
        policy.set_training_mode(False)
        snap = Snapshot(int(timesteps), policy)
        self.snapshots = [s for s in self.snapshots if s.timesteps not in (snap.timesteps, -1)] + [snap]
        self.snapshots.sort(key=lambda s: s.timesteps)
        del self.snapshots[: max(0, len(self.snapshots) - self.keep)]
        if self._self is not None:
            self._self.make = self._make_self
        return snap

    def add_placeholder(self, seed: int) -> None:
        """Before the model exists: a snapshot of a freshly initialised network (torch's global RNG is left
        untouched), so the env's construction-time check of its opponents can build a ``self`` agent.
        ``train`` replaces it with the model's own weights before the first episode."""
        if not self.has_self or self.snapshots:
            return
        import torch

        from npc_tactics.agents.policy import build_policy

        with torch.random.fork_rng():
            torch.manual_seed(seed)
            fresh = build_policy(self.obs_size, self.n_actions, self.net_arch)
        self.add_snapshot(-1, fresh.state_dict())

    def _make_self(self, engine: Engine[Any], rng: np.random.Generator) -> Agent:
        from npc_tactics.agents.policy import PolicyAgent

        snap = self.snapshots[int(rng.integers(len(self.snapshots)))]
        return PolicyAgent(snap.policy, system=self.system, scenario=self.scenario, side=0,
                           name=f"self@{snap.timesteps}", n_actions=self.n_actions, obs_size=self.obs_size,
                           deterministic=False, rng=rng)

    def save_snapshot(self, run: Path, snap: Snapshot) -> Path:
        """Write ``snap`` to ``<run>/snapshots/<timesteps>.policy.pt`` (atomic) and delete files beyond ``keep``."""
        from npc_tactics.training.run_dir import atomic_write_bytes, tensor_bytes

        folder = run / SNAPSHOT_DIR
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{snap.timesteps}.policy.pt"
        atomic_write_bytes(path, tensor_bytes(snap.policy.state_dict()))
        kept = {s.timesteps for s in self.snapshots}
        for steps, old in snapshot_files(run):
            if steps not in kept:
                old.unlink(missing_ok=True)
        return path

    def restore_snapshots(self, run: Path, up_to: int) -> list[int]:
        """Load the snapshots saved in ``run`` at or before timestep ``up_to`` (the checkpoint a resume starts
        from; later ones belong to the discarded future and are deleted). Returns their timesteps."""
        from npc_tactics.runs import load_policy_weights

        self.snapshots.clear()
        loaded = []
        for steps, path in snapshot_files(run):
            if steps > up_to:
                path.unlink(missing_ok=True)
                continue
            self.add_snapshot(steps, load_policy_weights(path))
            loaded.append(steps)
        return [s.timesteps for s in self.snapshots if s.timesteps in loaded]

    def describe(self) -> str:
        total = sum(m.weight for m in self.members)
        return ", ".join(f"{m.label} {m.weight / total:.0%}" for m in self.members)


def snapshot_files(run: Path) -> list[tuple[int, Path]]:
    """``(timesteps, path)`` of the snapshot files of a run folder, oldest first."""
    folder = Path(run) / SNAPSHOT_DIR
    if not folder.is_dir():
        return []
    out = []
    for p in folder.iterdir():
        m = _SNAPSHOT_NAME.match(p.name)
        if m and p.is_file():
            out.append((int(m.group(1)), p))
    return sorted(out)


def _member(system: System, entry: PoolEntry) -> PoolMember:
    """A pool member for one config entry: scripted (rebuilt per episode), self (filled by snapshots),
    a bundle or a run folder (loaded once, sampled with each episode's stream)."""
    name = entry.agent
    if name == SELF:
        return PoolMember(SELF, entry.weight, None)
    scripted = agent_entries(system)
    if name in scripted:
        factory = scripted[name].factory
        return PoolMember(name, entry.weight, lambda engine, rng: factory(engine, rng))
    if is_bundle_dir(name):
        from npc_tactics.policy_io.onnx_agent import OnnxAgent, load_bundle_agent

        loaded = load_bundle_agent(name, deterministic=False)

        def bundle(engine: Engine[Any], rng: np.random.Generator) -> Agent:
            return OnnxAgent(loaded.policy, system=loaded.system, scenario=loaded.scenario, side=loaded.side,
                             name=loaded.name, options=loaded.options, deterministic=False, rng=rng)

        return PoolMember(name, entry.weight, bundle)
    from npc_tactics.agents.policy import PolicyAgent, load_policy_agent

    frozen = load_policy_agent(Path(name), deterministic=False)

    def run_policy(engine: Engine[Any], rng: np.random.Generator) -> Agent:
        return PolicyAgent(frozen.policy, system=frozen.system, scenario=frozen.scenario, side=frozen.side,
                           name=frozen.name, n_actions=frozen.n_actions, obs_size=frozen.obs_size,
                           deterministic=False, rng=rng)

    return PoolMember(name, entry.weight, run_policy)


def build_pool(config: TrainConfig, obs_size: int, n_actions: int) -> OpponentPool:
    """The pool of ``config.opponents`` (either form; names already checked by ``validate_names``)."""
    entries = config.pool_entries()
    selves = [e for e in entries if e.agent == SELF]
    return OpponentPool(
        [_member(config.plugin, e) for e in entries],
        obs_size=obs_size,
        n_actions=n_actions,
        net_arch=config.ppo.net_arch,
        system=config.system,
        scenario=str(config.scenario),
        keep=selves[0].snapshot_keep if selves else 1,
        every=selves[0].snapshot_every if selves else 0,
    )

