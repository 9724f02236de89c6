"""The learning curve as a picture: win rate against each evaluation opponent over training timesteps."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

from npc_tactics.evaluation.stats import wilson_interval
from npc_tactics.training.run_dir import atomic_write_bytes, read_eval_rows


def plot_learning_curve(run: Path) -> Path | None:
    """Write ``learning_curve.png`` from ``eval_history.csv`` (Wilson 95% bands); None if no history yet."""
    rows = read_eval_rows(run / "eval_history.csv")
    if not rows:
        return None
    import io

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    series: dict[str, list[tuple[int, float, float, float]]] = defaultdict(list)
    for row in rows:
        n = int(row["episodes"])
        wins = round(float(row["win_rate"]) * n)
        low, high = wilson_interval(wins, n)
        series[Path(str(row["opponent"])).name].append((int(row["timesteps"]), float(row["win_rate"]), low, high))
    fig, ax = plt.subplots(figsize=(7, 4))
    for opponent, points in series.items():
        points.sort()
        xs = [p[0] for p in points]
        ax.plot(xs, [p[1] for p in points], marker="o", label=f"vs {opponent}")
        ax.fill_between(xs, [p[2] for p in points], [p[3] for p in points], alpha=0.2)
    ax.axhline(0.5, color="grey", linewidth=0.8, linestyle="--")
    ax.set(xlabel="timesteps", ylabel="win rate", ylim=(0, 1), title=f"Learning curve: {run.name}")
    ax.legend(loc="lower right")
    fig.tight_layout()
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=100)
    plt.close(fig)
    path = run / "learning_curve.png"
    atomic_write_bytes(path, buffer.getvalue())
    return path
