"""SB3 callbacks of a training run: rich progress bar, periodic evaluation, atomic checkpoints,
win-rate logs.

Evaluation and checkpoints fire at the first rollout boundary past each multiple of ``eval_every`` /
``checkpoint_every`` timesteps (counted on the absolute timestep, so a resumed run keeps the same
grid). Both fire at rollout starts, after the gradient update, where the model is between updates.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Any

from stable_baselines3.common.callbacks import BaseCallback

__all__ = ["EveryNSteps", "OutcomeStatsCallback", "RichProgressCallback", "RolloutMark", "SnapshotCallback",
           "TensorBoardPoints"]


class RolloutMark(BaseCallback):
    """Remembers the timestep count at the last rollout start: the last point the weights were
    trained to, so a checkpoint written on an interrupt does not count steps collected but never
    learned from."""

    def __init__(self) -> None:
        super().__init__()
        self.steps = 0

    def _on_training_start(self) -> None:
        self.steps = self.model.num_timesteps

    def _on_rollout_start(self) -> None:
        self.steps = self.model.num_timesteps

    def _on_step(self) -> bool:
        return True


class TensorBoardPoints(BaseCallback):
    """Scalars written to the run's TensorBoard at the timestep they were measured at. SB3's logger writes what
    is recorded at its next dump, up to a rollout later (an evaluation at 256 showed at 384, the final one never),
    and has no writer before ``learn`` starts (the untrained baseline): points wait here until a writer exists."""

    def __init__(self) -> None:
        super().__init__()
        self.pending: list[tuple[int, dict[str, float]]] = []

    def add(self, model: Any, step: int, scalars: dict[str, float]) -> None:
        self.pending.append((step, scalars))
        self.flush(model)

    def flush(self, model: Any) -> None:
        logger = getattr(model, "_logger", None)  # set by learn()
        if logger is None:
            return
        from stable_baselines3.common.logger import TensorBoardOutputFormat

        for fmt in logger.output_formats:
            if isinstance(fmt, TensorBoardOutputFormat):
                for step, scalars in self.pending:
                    fmt.write(scalars, {k: () for k in scalars}, step)
        self.pending.clear()

    def _on_training_start(self) -> None:
        self.flush(self.model)

    def _on_step(self) -> bool:
        return True


class EveryNSteps(BaseCallback):
    """Calls ``fn(model)`` at the first rollout boundary at or past each multiple of ``every``.

    It fires at the *start* of a rollout, i.e. after the previous rollout's gradient update, so a
    checkpoint taken here holds weights that match its timestep count exactly."""

    def __init__(self, every: int, fn: Callable[[Any], None]) -> None:
        super().__init__()
        self.every = every
        self.fn = fn
        self.next_at = 0

    def _on_training_start(self) -> None:
        done = self.model.num_timesteps
        self.next_at = (done // self.every + 1) * self.every if self.every > 0 else -1

    def _on_step(self) -> bool:
        return True

    def _on_rollout_start(self) -> None:
        if self.every > 0 and self.model.num_timesteps >= self.next_at:
            self.fn(self.model)
            steps = self.model.num_timesteps
            self.next_at = (steps // self.every + 1) * self.every


class SnapshotCallback(EveryNSteps):
    """Self-play: copies the policy's weights into the opponent pool (and ``<run>/snapshots/``) every
    ``pool.every`` timesteps, at a rollout start (between updates, so a snapshot is exactly the policy of its
    timestep). At the start of training it adds one at once if the pool has none (a fresh run: the untrained
    policy; a resume restores the saved ones first), so ``self`` is never an empty member. Logs the pool's
    draws per member as ``pool/<label>``."""

    def __init__(self, pool: Any, run: Any | None = None) -> None:
        super().__init__(pool.every, self._snapshot)
        self.pool = pool
        self.run = run

    def _snapshot(self, model: Any) -> None:
        snap = self.pool.add_snapshot(int(model.num_timesteps), model.policy.state_dict())
        if self.run is not None:
            self.pool.save_snapshot(self.run, snap)

    def _on_training_start(self) -> None:
        super()._on_training_start()
        if not self.pool.snapshots:
            self._snapshot(self.model)

    def _on_rollout_end(self) -> None:
        total = sum(self.pool.draws.values())
        for label, n in self.pool.draws.items():
            self.logger.record(f"pool/{label.replace('/', '_')}", n / total)


class OutcomeStatsCallback(BaseCallback):
    """Logs ``rollout/win_rate``, ``draw_rate``, ``flee_rate``, ``loss_rate`` over the last 100
    episodes."""

    def __init__(self, window: int = 100) -> None:
        super().__init__()
        self.results: deque[str] = deque(maxlen=window)

    def _on_step(self) -> bool:
        for info in self.locals.get("infos", ()):
            outcome = info.get("outcome")
            if outcome is not None:
                self.results.append(outcome["result"])
        return True

    def _on_rollout_end(self) -> None:
        if not self.results:
            return
        n = len(self.results)
        for result, key in (
            ("win", "win_rate"),
            ("draw", "draw_rate"),
            ("fled", "flee_rate"),
            ("loss", "loss_rate"),
        ):
            self.logger.record(f"rollout/{key}", sum(r == result for r in self.results) / n)

    @property
    def win_rate(self) -> float | None:
        return sum(r == "win" for r in self.results) / len(self.results) if self.results else None


class RichProgressCallback(BaseCallback):
    """A rich progress bar over the absolute timesteps (no tqdm needed), with the recent win
    rate."""

    def __init__(self, total: int, stats: OutcomeStatsCallback | None = None, description: str = "training") -> None:
        super().__init__()
        self.total = total
        self.stats = stats
        self.description = description
        self.progress: Any = None
        self.task: Any = None
        self._calls = 0

    def _on_training_start(self) -> None:
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        self.progress = Progress(
            TextColumn("[bold]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[extra]}"),
            TimeElapsedColumn(),
            TimeRemainingColumn(),
            transient=False,
        )
        self.progress.start()
        self.task = self.progress.add_task(
            self.description, total=self.total, completed=self.model.num_timesteps, extra=""
        )

    def _on_step(self) -> bool:
        self._calls += 1
        if self._calls % 16 == 0:
            self._refresh()
        return True

    def _refresh(self) -> None:
        if self.progress is None:
            return
        extra = ""
        if self.stats is not None and self.stats.win_rate is not None:
            extra = f"win {self.stats.win_rate:.0%}"
        self.progress.update(self.task, completed=min(self.model.num_timesteps, self.total), extra=extra)

    def _on_training_end(self) -> None:
        self.close()

    def close(self) -> None:
        if self.progress is not None:
            self._refresh()
            self.progress.stop()
            self.progress = None
