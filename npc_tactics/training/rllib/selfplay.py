"""Self-play for the RLlib backend: snapshots of the module's weights in every env's opponent pool.

With ``opponents: {pool: [..., {agent: self, ...}]}`` each :class:`~npc_tactics.training.rllib.env.NpcSideEnv`
holds an :class:`~npc_tactics.training.opponent_pool.OpponentPool` in its env runner's process (the driver's,
and each remote runner's). The trainer keeps the authoritative list in a pool of its own (the probe env's):
a snapshot is taken at the start (or the saved ones are restored on ``--resume``) and then every
``snapshot_every`` env steps, at the first PPO update past each mark (between updates, so a snapshot is
exactly the module of its step count), written to ``<run>/snapshots/<steps>.policy.pt`` as SB3 does, and the
whole list is sent to every env of every runner (RLlib's ``foreach_env_runner``), which replaces its own.
Sending the list rather than the newest snapshot keeps a restarted runner in step.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

__all__ = ["Marks", "SelfPlay", "set_snapshots"]

Snapshots = list[tuple[int, dict[str, Any]]]


def _envs(runner: Any) -> list[Any]:
    """The :class:`NpcSideEnv` objects of one env runner (RLlib wraps them in a vector env)."""
    env = getattr(runner, "env", None)
    if env is None:
        return []
    found = []
    for candidate in [env, getattr(env, "unwrapped", None), *list(getattr(env, "envs", []) or [])]:
        target = getattr(candidate, "unwrapped", candidate)
        if target is not None and hasattr(target, "pool") and target not in found:
            found.append(target)
    return found


def set_snapshots(runner: Any, snapshots: Snapshots) -> int:
    """Replace the self-play snapshots of every env of ``runner``; returns how many pools were updated."""
    n = 0
    for env in _envs(runner):
        pool = env.pool
        if pool is None or not pool.has_self:
            continue
        pool.snapshots.clear()
        for steps, state in snapshots:
            pool.add_snapshot(steps, state)
        n += 1
    return n


class Marks:
    """Fires once each time the step count passes a multiple of ``every`` (0: never)."""

    def __init__(self, every: int, start: int) -> None:
        self.every = every
        self.next = (start // every + 1) * every if every > 0 else None

    def due(self, steps: int) -> bool:
        if self.next is None or steps < self.next:
            return False
        while self.next <= steps:
            self.next += self.every
        return True


class SelfPlay:
    """The trainer's side of RLlib self-play (inactive without a ``self`` pool member)."""

    def __init__(self, algo: Any, run: Path, pool: Any, start_steps: int, resumed: bool,
                 say: Callable[[str], None]) -> None:
        self.algo, self.run, self.pool = algo, run, pool
        self.active = pool is not None and pool.has_self
        self.start_steps, self.resumed, self.say = start_steps, resumed, say
        self.marks = Marks(pool.every if self.active else 0, start_steps)
        self.sent: list[int] = []  #: pools updated by the last broadcast, per runner (tests read it)

    def start(self, weights: Callable[[], dict[str, Any]]) -> None:
        """Restore the snapshots saved up to the resumed checkpoint, or take the first one; send them out."""
        if not self.active:
            return
        restored = self.pool.restore_snapshots(self.run, self.start_steps) if self.resumed else []
        if restored:
            self.say(f"self-play: restored {len(restored)} snapshot(s) ({', '.join(map(str, restored))} timesteps)")
        else:
            self.pool.save_snapshot(self.run, self.pool.add_snapshot(self.start_steps, weights()))
        self._broadcast()

    def after_update(self, steps: int, weights: Callable[[], dict[str, Any]]) -> None:
        """After a PPO update: a snapshot when a ``snapshot_every`` mark was passed."""
        if self.active and self.marks.due(steps):
            self.pool.save_snapshot(self.run, self.pool.add_snapshot(steps, weights()))
            self._broadcast()

    def record(self) -> dict[str, Any] | None:
        """What ``meta.json`` keeps of this segment's self-play (None when inactive): the snapshots held (their
        step counts) and how many env pools the last broadcast reached."""
        if not self.active:
            return None
        return {"snapshots": [s.timesteps for s in self.pool.snapshots], "pools_updated": int(sum(self.sent))}

    def _broadcast(self) -> None:
        snapshots: Snapshots = [(s.timesteps, {k: v.detach().clone() for k, v in s.policy.state_dict().items()})
                                for s in self.pool.snapshots]
        self.sent = list(self.algo.env_runner_group.foreach_env_runner(
            lambda runner: set_snapshots(runner, snapshots), local_env_runner=True))
