"""The leaderboard's PNG plots, drawn from ``results.json`` data with matplotlib's Agg canvas (no pyplot, no
global backend switch). Each function returns the PNG bytes (``None`` when there is nothing to draw): the
Markdown report links the files, the HTML report embeds the same bytes."""

from __future__ import annotations

import io
from collections.abc import Mapping
from typing import Any

from npc_tactics.evaluation.stats import OUTCOMES

__all__ = ["cross_plot", "section_plots"]

COLOURS = {"win": "#2e7d32", "draw": "#9e9e9e", "fled": "#f9a825", "loss": "#c62828"}
SEAT_COLOURS = ("#1565c0", "#ef6c00")
PALETTE = ("#1565c0", "#2e7d32", "#c62828", "#6a1b9a", "#ef6c00", "#00838f", "#5d4037", "#9e9d24")


def _figure(width: float, height: float, cols: int = 1) -> tuple[Any, list[Any]]:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), dpi=100)
    FigureCanvasAgg(fig)
    return fig, [fig.add_subplot(1, cols, k + 1) for k in range(cols)]


def _png(fig: Any) -> bytes:
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png", metadata={"Software": None})
    return buf.getvalue()


def _interval(entries: list[Mapping[str, Any]]) -> list[list[float]]:
    return [[e["rate"] - e["low"] for e in entries], [e["high"] - e["rate"] for e in entries]]


def outcomes(section: Mapping[str, Any]) -> bytes:
    """Stacked outcome shares per agent (both seats pooled), win rate's Wilson 95% interval as error bars."""
    rows = section["leaderboard"]
    fig, (ax,) = _figure(8.0, 1.3 + 0.45 * len(rows))
    ys = list(range(len(rows)))[::-1]
    left = [0.0] * len(rows)
    for outcome in OUTCOMES:
        widths = [r["rates"][outcome]["rate"] for r in rows]
        ax.barh(ys, widths, left=left, color=COLOURS[outcome], label=outcome, height=0.6)
        left = [a + b for a, b in zip(left, widths, strict=True)]
    wins = [r["rates"]["win"] for r in rows]
    ax.errorbar([w["rate"] for w in wins], ys, xerr=_interval(wins), fmt="none", ecolor="black", capsize=3)
    ax.set_yticks(ys)
    ax.set_yticklabels([r["agent"] for r in rows], fontsize=8)
    ax.set_xlim(0, 1)
    ax.set_xlabel("share of fights, both seats and every scenario pooled; bars: win rate, Wilson 95% CI")
    ax.set_title(f"{section['label']}: outcomes")
    ax.legend(fontsize=7, loc="center left", bbox_to_anchor=(1.01, 0.5))
    return _png(fig)


def ratings(section: Mapping[str, Any]) -> bytes:
    """Rating mu with +-sigma per agent and seat (openskill Plackett-Luce; seats are not comparable)."""
    rows = section["leaderboard"]
    fig, (ax,) = _figure(8.0, 1.3 + 0.45 * len(rows))
    ys = list(range(len(rows)))[::-1]
    for s in (0, 1):
        pts = [(y + (0.15 if s == 0 else -0.15), r["ratings"][f"side{s}"]) for y, r in zip(ys, rows, strict=True)
               if f"side{s}" in r["ratings"]]
        if pts:
            ax.errorbar([p[1]["mu"] for p in pts], [p[0] for p in pts], xerr=[p[1]["sigma"] for p in pts],
                        fmt="o", color=SEAT_COLOURS[s], capsize=3, label=f"side {s}")
    ax.set_yticks(ys)
    ax.set_yticklabels([r["agent"] for r in rows], fontsize=8)
    ax.set_xlabel("rating mu +- sigma (compare within one seat only)")
    ax.set_title(f"{section['label']}: ratings per seat")
    ax.legend(fontsize=7)
    return _png(fig)


def flight(section: Mapping[str, Any]) -> bytes:
    """Left: flee rate per agent with its interval. Right: share of the side's combatants standing at the end
    (active or safely gone), in fights with a flight and without: does leaving pay?"""
    agents = section["agents"]
    prof = section["profiles"]
    fig, (left, right) = _figure(10.0, 1.5 + 0.45 * len(agents), cols=2)
    ys = list(range(len(agents)))[::-1]
    flee = [prof[a]["all"]["flee_rate_ci"] for a in agents]
    left.barh(ys, [f["rate"] for f in flee], color=COLOURS["fled"], height=0.6)
    left.errorbar([f["rate"] for f in flee], ys, xerr=_interval(flee), fmt="none", ecolor="black", capsize=3)
    for y, a in zip(ys, agents, strict=True):
        mean = prof[a]["all"]["flee_wound_mean"]
        if mean is not None:
            left.text(0.98, y, f"left at {100 * mean:.0f}% HP lost", ha="right", va="center", fontsize=7)
    left.set_yticks(ys)
    left.set_yticklabels(agents, fontsize=8)
    left.set_xlim(0, 1)
    left.set_xlabel("fights with a flight (Wilson 95% CI)")
    left.set_title("who leaves the fight")
    for k, (key, name) in enumerate((("with_flight", "with a flight"), ("without_flight", "without"))):
        kept = [(y + (0.15 if k == 0 else -0.15), prof[a]["all"][key]["standing"])
                for y, a in zip(ys, agents, strict=True) if prof[a]["all"][key]["fights"]]
        if kept:
            entries = [e for _, e in kept]
            right.errorbar([e["rate"] for e in entries], [y for y, _ in kept], xerr=_interval(entries), fmt="o",
                           color=PALETTE[k * 2], capsize=3, label=name)
    right.set_yticks(ys)
    right.set_yticklabels(agents, fontsize=8)
    right.set_xlim(0, 1)
    right.set_xlabel("share of the side's combatants standing at the end")
    right.set_title("does it pay?")
    right.legend(fontsize=7)
    return _png(fig)


def _grouped(ax: Any, agents: list[str], groups: list[str], values: dict[str, list[float | None]], title: str,
             ylabel: str) -> None:
    width = 0.8 / max(1, len(agents))
    for k, agent in enumerate(agents):
        xs = [g + k * width for g in range(len(groups))]
        ax.bar(xs, [v if v is not None else 0.0 for v in values[agent]], width=width,
               color=PALETTE[k % len(PALETTE)], label=agent)
    ax.set_xticks([g + 0.4 - width / 2 for g in range(len(groups))])
    ax.set_xticklabels(groups, fontsize=8)
    ax.set_title(title)
    ax.set_ylabel(ylabel, fontsize=8)
    ax.legend(fontsize=7)


def tactics(section: Mapping[str, Any]) -> bytes | None:
    """The system's own choices: dodge share by weapon class and spell strike ranks (RuneQuest), spells by
    initiative (OSE), dice to DEFENSE (dice pool), special effects (MRQ). ``None`` when no agent made any."""
    agents = section["agents"]
    prof = {a: section["profiles"][a]["all"] for a in agents}
    panels: list[tuple[list[str], dict[str, list[float | None]], str, str]] = []
    classes = sorted({w for p in prof.values() for w in p.get("dodge_share_by_weapon", {})})
    if classes:
        panels.append((classes, {a: [prof[a].get("dodge_share_by_weapon", {}).get(w, {}).get("dodge_share")
                                     for w in classes] for a in agents},
                       "dodge share by incoming weapon", "dodges / (dodges + parries)"))
    srs = sorted({int(s) for p in prof.values() for s in p.get("spell_strike_ranks", {})})
    if srs:
        panels.append(([str(s) for s in srs], {a: [prof[a].get("spell_strike_ranks", {}).get(str(s), 0)
                                                   / max(1, prof[a]["fights"]) for s in srs] for a in agents},
                       "spells by strike rank", "spells per fight"))
    whens = sorted({w for p in prof.values() for w in p.get("spell_initiative", {})})
    if whens:
        groups = [f"{w} {o}" for w in whens for o in ("cast", "disrupted")]
        panels.append((groups, {a: [prof[a].get("spell_initiative", {}).get(w, {}).get(o, 0)
                                    / max(1, prof[a]["fights"]) for w in whens for o in ("cast", "disrupted")]
                                for a in agents}, "spells by initiative", "per fight"))
    nexts = sorted({n for p in prof.values() for n in p.get("defence_share_by_next", {})})
    if nexts:
        panels.append((["all", *nexts], {a: [prof[a].get("defence_share"),
                                            *[prof[a].get("defence_share_by_next", {}).get(n) for n in nexts]]
                                         for a in agents}, "dice moved to DEFENSE, by who acts next",
                       "share of the melee pool"))
    effects = sorted({e for p in prof.values() for e in p.get("special_effects", {})})
    if effects:
        panels.append((effects, {a: [prof[a].get("special_effects", {}).get(e, 0) / max(1, prof[a]["fights"])
                                     for e in effects] for a in agents}, "special effects chosen", "per fight"))
    if not panels:
        return None
    fig, axes = _figure(6.0 * len(panels), 4.0, cols=len(panels))
    for ax, (groups, values, title, ylabel) in zip(axes, panels, strict=True):
        _grouped(ax, agents, groups, values, title, ylabel)
        if len(groups) > 4:
            for label in ax.get_xticklabels():
                label.set_rotation(30)
                label.set_horizontalalignment("right")
    return _png(fig)


def section_plots(section: Mapping[str, Any]) -> dict[str, bytes]:
    """``{name: png}`` for one section (names without the section prefix)."""
    out = {"outcomes": outcomes(section), "ratings": ratings(section), "flight": flight(section)}
    extra = tactics(section)
    if extra is not None:
        out["tactics"] = extra
    return out


def cross_plot(sections: list[Mapping[str, Any]]) -> bytes:
    """The systems side by side: per section and agent, the flee rate, and the share of the side's combatants
    standing at the end in fights with a flight and without (does leaving pay?)."""
    fig, axes = _figure(4.2 * len(sections), 4.2, cols=len(sections))
    for ax, section in zip(axes, sections, strict=True):
        agents = section["agents"]
        prof = section["profiles"]
        xs = list(range(len(agents)))
        bars = (("flee rate", lambda p: p["flee_rate_ci"]),
                ("standing | flight", lambda p: p["with_flight"]["standing"] if p["with_flight"]["fights"] else None),
                ("standing | no flight",
                 lambda p: p["without_flight"]["standing"] if p["without_flight"]["fights"] else None))
        width = 0.27
        for k, (name, pick) in enumerate(bars):
            vals = [pick(prof[a]["all"]) for a in agents]
            ax.bar([x + k * width for x in xs], [v["rate"] if v else 0.0 for v in vals], width=width,
                   color=PALETTE[k], label=name)
        ax.set_xticks([x + width for x in xs])
        ax.set_xticklabels(agents, fontsize=8, rotation=30, ha="right")
        ax.set_ylim(0, 1)
        same = section["label"] == section["system"]
        ax.set_title(section["label"] if same else f"{section['label']} ({section['system']})")
    axes[0].legend(fontsize=7)
    return _png(fig)
