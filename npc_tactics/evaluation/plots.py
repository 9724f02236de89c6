"""PNG plots of a tournament, drawn with matplotlib's Agg canvas (no pyplot, no global backend
switch).
"""

from __future__ import annotations

import io
from typing import IO, TYPE_CHECKING, Any

from npc_tactics.evaluation.stats import OUTCOMES

if TYPE_CHECKING:
    from npc_tactics.evaluation.results import TournamentResult

__all__ = ["render_plots"]

COLOURS = {"win": "#2e7d32", "draw": "#9e9e9e", "fled": "#f9a825", "loss": "#c62828"}
MAX_BARS = 8


def _figure(width: float, height: float) -> tuple[Any, Any]:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), dpi=100)
    FigureCanvasAgg(fig)
    return fig, fig.add_subplot(1, 1, 1)


def plot_win_rates(result: TournamentResult, path: IO[bytes]) -> IO[bytes]:
    """Stacked side-0 outcome shares per pairing, with the win rate's Wilson 95% interval as error
    bars."""
    pairings = result.pairings
    fig, ax = _figure(8.0, 1.2 + 0.45 * len(pairings))
    labels = [f"{p.agents[0]} vs {p.agents[1]}" for p in pairings]
    ys = list(range(len(pairings)))[::-1]
    left = [0.0] * len(pairings)
    for outcome in OUTCOMES:
        widths = [p.rates(0)[outcome]["rate"] for p in pairings]
        ax.barh(
            ys, widths, left=left, color=COLOURS[outcome], label=f"side 0 {outcome}", height=0.6
        )
        left = [a + b for a, b in zip(left, widths, strict=True)]
    wins = [p.rates(0)["win"] for p in pairings]
    ax.errorbar(
        [w["rate"] for w in wins],
        ys,
        xerr=[[w["rate"] - w["low"] for w in wins], [w["high"] - w["rate"] for w in wins]],
        fmt="none",
        ecolor="black",
        capsize=3,
        linewidth=1,
    )
    ax.set_yticks(ys)
    ax.set_yticklabels(labels, fontsize=8)
    ax.set_xlim(0, 1)
    ax.axvline(0.5, color="black", linestyle=":", linewidth=0.8)
    ax.set_xlabel("share of fights (side 0 = NPC side); bars: win rate, Wilson 95% CI")
    ax.set_title(f"{result.system} / {result.scenario}: outcomes per pairing")
    ax.legend(fontsize=7, loc="center left", bbox_to_anchor=(1.01, 0.5))
    fig.tight_layout()
    fig.savefig(path, format="png", bbox_inches="tight")
    return path


def plot_ratings(result: TournamentResult, path: IO[bytes]) -> IO[bytes]:
    """openskill mu ± sigma per agent (best first), ordinal marked."""
    ratings = result.ratings
    fig, ax = _figure(7.0, 1.2 + 0.45 * len(ratings))
    ys = list(range(len(ratings)))[::-1]
    ax.errorbar(
        [r.mu for r in ratings],
        ys,
        xerr=[r.sigma for r in ratings],
        fmt="o",
        capsize=4,
        color="#1565c0",
        label="mu ± sigma",
    )
    ax.scatter(
        [r.ordinal for r in ratings],
        ys,
        marker="|",
        s=200,
        color="black",
        label="ordinal (mu − 3σ)",
    )
    ax.set_yticks(ys)
    ax.set_yticklabels([f"{r.agent} (side {r.seat})" for r in ratings], fontsize=8)
    ax.set_xlabel("rating")
    ax.set_title("openskill Plackett-Luce ratings, per seat (compare within a seat)")
    ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.25), ncol=2)
    fig.tight_layout()
    fig.savefig(path, format="png", bbox_inches="tight")
    return path


def plot_tactics(result: TournamentResult, path: IO[bytes]) -> IO[bytes]:
    """Grouped bars: the tactic-profile measures per fight (or the action mix) per agent, both seats
    pooled."""
    keys: list[str] = []
    values: dict[str, dict[str, float]] = {}
    for agent in result.agents:
        summary = result.profiles.get(agent, {}).get("all")
        values[agent] = dict(summary["per_fight"]) if summary else {}
    keys = sorted(
        {k for v in values.values() for k in v},
        key=lambda k: -sum(abs(v.get(k, 0)) for v in values.values()),
    )
    ylabel = "mean per fight"
    if not keys:
        values = {a: dict(result.actions.get(a, {}).get("all", {})) for a in result.agents}
        keys = sorted({k for v in values.values() for k in v})
        ylabel = "share of decisions"
    keys = keys[: MAX_BARS * 2]
    fig, ax = _figure(max(6.0, 0.6 * len(keys) * max(1, len(result.agents)) / 2 + 2), 4.0)
    width = 0.8 / max(1, len(result.agents))
    for i, agent in enumerate(result.agents):
        xs = [k + i * width for k in range(len(keys))]
        ax.bar(xs, [values[agent].get(k, 0.0) for k in keys], width=width, label=agent)
    ax.set_xticks([k + 0.4 - width / 2 for k in range(len(keys))])
    ax.set_xticklabels(keys, rotation=35, ha="right", fontsize=7)
    ax.set_ylabel(ylabel)
    ax.set_title("tactic profiles per agent (both seats)")
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, format="png")
    return path


def render_plots(result: TournamentResult) -> dict[str, bytes]:
    """``win_rates.png``, ``ratings.png`` and ``tactics.png`` as PNG bytes, ``{file name: bytes}``: drawn in
    memory so that the report is written all or nothing (:mod:`npc_tactics.evaluation.output`)."""
    out = {}
    for name, plot in (("win_rates", plot_win_rates), ("ratings", plot_ratings), ("tactics", plot_tactics)):
        buf = io.BytesIO()
        plot(result, buf)
        out[f"{name}.png"] = buf.getvalue()
    return out
