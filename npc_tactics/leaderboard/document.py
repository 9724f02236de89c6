"""The leaderboard report as a list of blocks (headings, paragraphs, tables, images), built once from the
results data and rendered twice: Markdown (:mod:`.render`, images as linked PNG files) and a self-contained
HTML page (images embedded)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from npc_tactics.evaluation.stats import format_rate

__all__ = ["Block", "build_document", "counted", "leaderboard_table"]

DEFINITIONS = (
    "**Score**: wins plus half the draws per fight, both seats and every scenario pooled (the table's order). "
    "**Ratings**: openskill Plackett-Luce per seat (win > draw > fled > loss), updated fight by fight in a fixed "
    "order; compare ratings within one seat only. **Flee rate**: fights in which at least one of the agent's "
    "combatants left the fight alive; **at what wound**: the share of its hit points the leaver had lost. "
    "**Standing**: share of the side's combatants still active or safely gone at the end. **Focus fire**: among "
    "attacks made after an ally had already attacked this round, with at least two enemies still up, the share "
    "aimed at a target an ally had attacked this round (n/a in duels; random targeting of two enemies gives "
    "about 50%). Intervals are Wilson 95%."
)


@dataclass(frozen=True, slots=True)
class Block:
    kind: str  #: "h2", "h3", "p", "table", "img"
    text: str = ""
    headers: tuple[str, ...] = ()
    rows: tuple[tuple[str, ...], ...] = ()


def _pct(value: float | None) -> str:
    return "n/a" if value is None else f"{100 * value:.0f}%"


def counted(n: int, one: str, many: str) -> str:
    """``n`` (thousands with commas) and its noun agreeing with it: "1 fight", "0 fights", "2,000 fights"."""
    return f"{n:,} {one if n == 1 else many}"


def _rating(r: Mapping[str, Any] | None) -> str:
    return "" if r is None else f"{r['mu']:.1f} ± {r['sigma']:.1f} ({r['ordinal']:.1f})"


def leaderboard_table(section: Mapping[str, Any]) -> Block:
    rows = []
    for k, r in enumerate(section["leaderboard"], 1):
        rates = r["rates"]
        rows.append((str(k), r["agent"], f"{r['score']:.3f}", format_rate(rates["win"]),
                     format_rate(rates["draw"], ci=False), format_rate(rates["fled"]),
                     format_rate(rates["loss"], ci=False), f"{r['mean_rounds']:.2f}",
                     _rating(r["ratings"].get("side0")), _rating(r["ratings"].get("side1")), str(r["fights"])))
    return Block("table", headers=("#", "agent", "score", "win [95% CI]", "draw", "fled [95% CI]", "loss",
                                   "mean rounds", "side-0 rating mu ± sigma (ordinal)", "side-1 rating", "fights"),
                 rows=tuple(rows))


def _system_cells(p: Mapping[str, Any]) -> str:
    parts = []
    for w, d in p.get("dodge_share_by_weapon", {}).items():
        parts.append(f"dodge vs {w} {_pct(d['dodge_share'])} ({d['dodge']}/{d['dodge'] + d['parry']})")
    if p.get("spell_strike_ranks"):
        hist = ", ".join(f"SR{k}: {v}" for k, v in p["spell_strike_ranks"].items())
        parts.append(f"spells at mean SR {p['spell_sr_mean']:.1f} ({hist})")
    for when, d in p.get("spell_initiative", {}).items():
        parts.append(f"initiative {when}: {d['cast']} cast, {d['disrupted']} disrupted")
    if "defence_share" in p:
        by = ", ".join(f"next {n} {_pct(v)}" for n, v in p.get("defence_share_by_next", {}).items())
        parts.append(f"to DEFENSE {_pct(p['defence_share'])}" + (f" ({by})" if by else ""))
    if "special_effects" in p:
        top = list(p["special_effects"].items())[:4]
        parts.append("effects " + (", ".join(f"{e} {n}" for e, n in top) or "none"))
    if p.get("reactions"):
        parts.append("reactions " + ", ".join(f"{r} {n}" for r, n in p["reactions"].items()))
    return "; ".join(parts) or "-"


def profile_table(section: Mapping[str, Any]) -> Block:
    rows = []
    for a in section["agents"]:
        p = section["profiles"][a]["all"]
        bands = " / ".join(str(v) for v in p["flee_wound_bands"].values())
        rows.append((a, format_rate(p["flee_rate_ci"]),
                     f"{_pct(p['flee_wound_mean'])} ({bands})" if p["flights"] else "-",
                     f"{p['retreats_per_fight']:.2f}", f"{_pct(p['focus_fire_rate'])} of {p['focus_eligible']}",
                     _system_cells(p)))
    return Block("table", headers=("agent", "flee rate [95% CI]", "HP lost at flight: mean (0-25/25-50/50-75/75-100%)",
                                   "retreats per fight", "focus fire", "system choices"), rows=tuple(rows))


def pays_table(section: Mapping[str, Any]) -> Block:
    rows = []
    for a in section["agents"]:
        p = section["profiles"][a]["all"]
        cells = [a]
        for key in ("with_flight", "without_flight"):
            b = p[key]
            if b["fights"]:
                cells += [str(b["fights"]), format_rate(b["rates"]["win"]), format_rate(b["rates"]["loss"], ci=False),
                          format_rate(b["standing"])]
            else:
                cells += ["0", "-", "-", "-"]
        rows.append(tuple(cells))
    return Block("table", headers=("agent", "fights with a flight", "win", "loss", "standing",
                                   "fights without", "win", "loss", "standing"), rows=tuple(rows))


def scenario_table(section: Mapping[str, Any]) -> Block:
    rows = []
    for sc in section["by_scenario"]:
        for a in section["agents"]:
            seats = sc["agents"].get(a, {})
            cells = [sc["scenario"], a]
            for s in ("side0", "side1"):
                cells.append(format_rate(seats[s]["rates"]["win"]) if s in seats else "-")
            rounds = [seats[s]["mean_rounds"] for s in seats]
            cells.append(f"{sum(rounds) / len(rounds):.2f}" if rounds else "-")
            rows.append(tuple(cells))
    return Block("table", headers=("scenario", "agent", "win on side 0", "win on side 1", "mean rounds"),
                 rows=tuple(rows))


def cross_table(sections: list[Mapping[str, Any]]) -> Block:
    rows = []
    for sec in sections:
        for r in sec["leaderboard"]:
            p = sec["profiles"][r["agent"]]["all"]
            wf, wo = p["with_flight"], p["without_flight"]
            rows.append((sec["label"], r["agent"], format_rate(r["rates"]["win"]), format_rate(p["flee_rate_ci"]),
                         _pct(p["flee_wound_mean"]),
                         format_rate(wf["standing"], ci=False) if wf["fights"] else "-",
                         format_rate(wo["standing"], ci=False) if wo["fights"] else "-",
                         _pct(p["focus_fire_rate"]), f"{r['mean_rounds']:.2f}"))
    return Block("table", headers=("system", "agent", "win [95% CI]", "flee rate [95% CI]", "HP lost at flight",
                                   "standing, with a flight", "standing, without", "focus fire", "mean rounds"),
                 rows=tuple(rows))


def build_document(data: Mapping[str, Any], images: Mapping[str, bytes], command: str) -> list[Block]:
    """Every block of the report; ``images`` names the plots drawn (``<section>-<plot>``, ``cross``)."""
    suite = data["suite"]
    out = [Block("h1", f"Leaderboard: {suite['name']}")]
    if suite["question"]:
        out.append(Block("p", f"**Question**: {suite['question']}"))
    if suite["description"]:
        out.append(Block("p", suite["description"]))
    first, last = suite["seeds"]
    one_seed = first == last  # one fight per pairing
    seeds = f"seed {first}" if one_seed else f"seeds {first}..{last}"
    out.append(Block("p", f"{counted(data['fights'], 'fight', 'fights')}; {suite['fights_per_pairing']} per ordered "
                          f"pairing and scenario, on the paired {seeds} (every pairing of a scenario plays the same "
                          f"{'seed' if one_seed else 'seeds'}). Reproduce: `{command}`"))
    out.append(Block("p", DEFINITIONS))
    sections = data["sections"]
    if len(sections) > 1:
        out.append(Block("h2", "Side by side"))
        out.append(cross_table(sections))
        if "cross" in images:
            caption = "flee rate, and the share standing at the end with and without a flight"
            out.append(Block("img", "cross", headers=(caption,)))
    for sec in sections:
        name = sec["label"]
        title = name if name == sec["system"] else f"{name} ({sec['system']})"
        out.append(Block("h2", f"{title}: {', '.join(sec['scenarios'])}"))
        out.append(leaderboard_table(sec))
        for plot, caption in (("outcomes", "outcomes per agent"), ("ratings", "ratings per seat")):
            if f"{name}-{plot}" in images:
                out.append(Block("img", f"{name}-{plot}", headers=(caption,)))
        out.append(Block("h3", "By scenario"))
        out.append(scenario_table(sec))
        out.append(Block("h3", "Tactic profiles"))
        out.append(profile_table(sec))
        for plot, caption in (("flight", "who leaves and does it pay"), ("tactics", "system choices")):
            if f"{name}-{plot}" in images:
                out.append(Block("img", f"{name}-{plot}", headers=(caption,)))
        out.append(Block("h3", "Does leaving pay?"))
        out.append(pays_table(sec))
    return out
