"""The Markdown report of a tournament: pairings with intervals, ratings, tactic profiles, how to
reproduce."""

from __future__ import annotations

import datetime as _dt
import json
from collections.abc import Sequence
from typing import TYPE_CHECKING

from npc_tactics.evaluation.stats import OUTCOMES, format_rate

if TYPE_CHECKING:
    from npc_tactics.evaluation.results import TournamentResult

__all__ = ["render_report"]

SEATS = (("side0", "side 0"), ("side1", "side 1"))
MAX_PROFILE_KEYS = 14


def _table(
    header: Sequence[str], rows: Sequence[Sequence[str]], align: Sequence[str] | None = None
) -> list[str]:
    align = align or ["l"] + ["r"] * (len(header) - 1)
    sep = ["---:" if a == "r" else "---" for a in align]
    out = ["| " + " | ".join(header) + " |", "| " + " | ".join(sep) + " |"]
    out += ["| " + " | ".join(str(c).replace("|", "\\|") for c in row) + " |" for row in rows]
    return out


def _profile_keys(result: TournamentResult) -> list[str]:
    totals: dict[str, float] = {}
    for seats in result.profiles.values():
        for summary in seats.values():
            for k, v in summary["per_fight"].items():
                totals[k] = totals.get(k, 0.0) + abs(v)
    keep = set(sorted(totals, key=lambda k: (-totals[k], k))[:MAX_PROFILE_KEYS])
    return [k for k in totals if k in keep]  # the system profile's own order


def render_report(result: TournamentResult) -> str:
    """The report as Markdown text (plots referenced by relative path)."""
    n_fights = sum(p.fights for p in result.pairings)
    lines = [
        f"# Tournament: {result.system} / {result.scenario}",
        "",
        f"{len(result.agents)} agents, {len(result.pairings)} ordered pairings × "
        f"{result.fights_per_pairing} fights on the same seeds "
        f"({result.seeds[0]}..{result.seeds[-1]}), {n_fights} fights in {result.seconds:.1f} s. "
        "Side 0 is the NPC side of the scenario; rates "
        "are of the side-0 agent with Wilson 95% intervals.",
        "",
        "## Reproduce",
        "",
        "```",
        result.command,
        "```",
        "",
        "Fight *i* of every pairing used dice seed `seed + i`; one fight can be replayed with "
        f"`npc-tactics simulate {result.system} {result.scenario} --agents A,B --fights 1 "
        "--seed <seed+i>`.",
        "",
        "Agents: "
        + ", ".join(
            f"`{a}`" + (f" ({s})" if s != a else "")
            for a, s in zip(result.agents, result.specs, strict=True)
        )
        + ".",
        "",
        f"Rules options: `{json.dumps(result.options, sort_keys=True)}`",
        "",
        "## Pairings",
        "",
    ]
    header = (
        ["side 0", "side 1", "fights"]
        + [f"side 0 {o}" for o in OUTCOMES]
        + ["side 1 fled", "mean rounds"]
    )
    rows = []
    for p in result.pairings:
        r0, r1 = p.rates(0), p.rates(1)
        rows.append(
            [p.agents[0], p.agents[1], str(p.fights)]
            + [format_rate(r0[o]) for o in OUTCOMES]
            + [format_rate(r1["fled"]), f"{p.mean_rounds:.1f}"]
        )
    lines += _table(header, rows, ["l", "l"] + ["r"] * (len(header) - 2))
    if "win_rates" in result.files:
        lines += ["", f"![win rates]({result.files['win_rates'].name})"]
    lines += [
        "",
        "## Ratings",
        "",
        "openskill Plackett-Luce, one update per fight (win > draw > fled > loss; equal results "
        "tie), ordinal = mu − 3·sigma. Rated per seat: an agent's side-0 rating comes only from "
        "its side-0 fights against the side-1 agents, so agents that play only one seat (a trained "
        "run plays the side it learned) are compared with the others on the same seat. Compare "
        "ratings within a table, not across tables.",
    ]
    for seat_index in (0, 1):
        table = [r for r in result.ratings if r.seat == seat_index]
        if not table:
            continue
        lines += ["", f"### As side {seat_index}", ""]
        lines += _table(
            ["rank", "agent", "mu", "sigma", "ordinal", "fights"],
            [
                [str(i + 1), r.agent, f"{r.mu:.2f}", f"{r.sigma:.2f}", f"{r.ordinal:.2f}", str(r.fights)]
                for i, r in enumerate(table)
            ],
        )
    if "ratings" in result.files:
        lines += ["", f"![ratings]({result.files['ratings'].name})"]
    lines += ["", "## Tactic profiles", ""]
    keys = _profile_keys(result)
    if keys:
        lines += ["Mean per fight of the system's tactic-profile measures, per agent and seat.", ""]
        rows = []
        for agent in result.agents:
            for seat, seat_name in SEATS:
                summary = result.profiles.get(agent, {}).get(seat)
                if summary:
                    rows.append(
                        [f"{agent} ({seat_name})"]
                        + [f"{summary['per_fight'].get(k, 0.0):.2f}" for k in keys]
                    )
        lines += _table(["agent"] + keys, rows)
    else:
        lines += ["This system ships no tactic profile; the action mix below describes the agents."]
    if "tactics" in result.files:
        lines += ["", f"![tactic profiles]({result.files['tactics'].name})"]
    lines += [
        "",
        "### Action mix",
        "",
        "Share of each side's decisions answered with each action verb.",
        "",
    ]
    verbs = sorted({v for seats in result.actions.values() for mix in seats.values() for v in mix})
    rows = []
    for agent in result.agents:
        for seat, seat_name in SEATS:
            mix = result.actions.get(agent, {}).get(seat)
            if mix:
                rows.append(
                    [f"{agent} ({seat_name})"] + [f"{100 * mix.get(v, 0.0):.1f}%" for v in verbs]
                )
    lines += _table(["agent"] + verbs, rows)
    lines += [
        "",
        "### How the agent's combatants ended",
        "",
        "Mean number of the agent's combatants per fight in each final status "
        "(fled = left the fight alive).",
        "",
    ]
    kinds = sorted(
        {k for seats in result.statuses.values() for ends in seats.values() for k in ends}
    )
    rows = []
    for agent in result.agents:
        for seat, seat_name in SEATS:
            ends = result.statuses.get(agent, {}).get(seat)
            if ends:
                rows.append([f"{agent} ({seat_name})"] + [f"{ends.get(k, 0.0):.2f}" for k in kinds])
    lines += _table(["agent"] + kinds, rows)
    if result.tactics is not None:  # the named tactics, per agent on the same seeds (docs/selfplay.md)
        from npc_tactics.evaluation.tactics import render_tactics

        lines += ["", render_tactics(result.tactics).rstrip("\n")]
    lines += [
        "",
        f"_Written {_dt.datetime.now(_dt.UTC).strftime('%Y-%m-%d %H:%M UTC')}; all numbers in "
        "`results.json`._",
        "",
    ]
    return "\n".join(lines)

