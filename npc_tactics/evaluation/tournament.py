"""``npc-tactics evaluate``: a round-robin tournament on paired seeds, with ratings, profiles and a
report.

Every ordered pair of distinct agents plays the same list of seeds, A on side 0 (the NPC side of
shipped scenarios) and B on side 1; scenarios are asymmetric, so results are kept per seat (STYLE.md
§7: fixed seed lists, side swapping, rates with confidence intervals).
"""

from __future__ import annotations

import json
import shlex
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from npc_tactics.agents.resolve import agent_factory, agent_label, trained_side
from npc_tactics.evaluation.aggregate import profile_summary
from npc_tactics.evaluation.arena import Arena, fight_seeds, progress_bar
from npc_tactics.evaluation.fight import FightRecord
from npc_tactics.evaluation.ratings import rate_fights
from npc_tactics.evaluation.results import PairingResult, TournamentResult

__all__ = ["PairingResult", "TournamentResult", "run_tournament", "unique_labels"]


def unique_labels(specs: Sequence[str]) -> list[str]:
    """Display names for agent specs; a run dir whose folder name clashes keeps its full path."""
    if len(set(specs)) != len(specs):
        dup = sorted({s for s in specs if list(specs).count(s) > 1})
        raise ValueError(f"each agent may appear once in a tournament; repeated: {', '.join(dup)}")
    labels = [agent_label(s) for s in specs]
    return [
        lab if labels.count(lab) == 1 else spec for lab, spec in zip(labels, specs, strict=True)
    ]


def default_command(
    system: str,
    scenario: str,
    specs: Sequence[str],
    fights: int,
    seed: int,
    out_dir: Path,
    options: Mapping[str, Any] | None,
) -> str:
    """The ``npc-tactics evaluate`` line that replays this tournament (rules options given,
    which the CLI does not take yet, are appended as a comment)."""
    parts = ["npc-tactics", "evaluate", "--system", system, "--scenario", scenario]
    parts += ["--agents", ",".join(specs), "--fights", str(fights), "--seed", str(seed)]
    parts += ["--out", str(out_dir)]
    line = shlex.join(parts)
    if options:
        line += f"  # rules options: {json.dumps(dict(options), sort_keys=True)}"
    return line


def _seat_profiles(
    pairings: Sequence[PairingResult], labels: Sequence[str]
) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """Per agent and seat (``side0``, ``side1``, ``all``; mirror matches left out): tactic-profile
    summaries, action mixes (share of decisions per verb) and final statuses (mean combatants per
    fight)."""
    profiles: dict[str, Any] = {}
    actions: dict[str, Any] = {}
    statuses: dict[str, Any] = {}
    for label in labels:
        seats: dict[str, list[tuple[FightRecord, int]]] = {"side0": [], "side1": [], "all": []}
        for p in pairings:
            for side in (0, 1):
                if p.agents[side] == label and p.agents[1 - side] != label:
                    seats[f"side{side}"] += [(r, side) for r in p.records]
                    seats["all"] += [(r, side) for r in p.records]
        profiles[label] = {
            seat: profile_summary(r.tactic_profile[s] for r, s in rows)
            for seat, rows in seats.items()
            if rows
        }
        actions[label] = {}
        statuses[label] = {}
        for seat, rows in seats.items():
            if not rows:
                continue
            verbs: Counter[str] = Counter()
            ends: Counter[str] = Counter()
            for r, s in rows:
                verbs.update(r.actions[s])
                ends.update(r.statuses[s])
            total = sum(verbs.values()) or 1
            actions[label][seat] = {v: verbs[v] / total for v in sorted(verbs)}
            statuses[label][seat] = {k: ends[k] / len(rows) for k in sorted(ends)}
    return profiles, actions, statuses


def run_tournament(
    system: str,
    scenario: str | None,
    agents: Sequence[str],
    fights_per_pairing: int,
    seed: int,
    out_dir: Path,
    options: Mapping[str, Any] | None = None,
    progress: bool = True,
    *,
    include_self: bool = False,
    command: str | None = None,
    plots: bool = True,
) -> TournamentResult:
    """Play every ordered pair of ``agents`` (scripted names or run directories) on the seeds ``seed
    .. seed+fights_per_pairing-1``, rate them, and write ``report.md``, ``results.json`` and PNG
    plots into ``out_dir``. ``include_self`` adds mirror matches (A vs A: the seat baseline; not
    rated); ``command`` is the reproduce line printed in the report (default: an ``npc-tactics
    evaluate`` line)."""
    if len(agents) < 2 and not include_self:
        raise ValueError(
            "a tournament needs at least two agents (or include_self for mirror matches)"
        )
    labels = unique_labels(list(agents))
    arena = Arena.build(system, scenario, options)
    if arena.sides != 2:
        raise ValueError(
            f"tournaments support two-sided systems; {arena.system} has {arena.sides} sides"
        )
    factories = {
        label: agent_factory(arena.system, spec) for label, spec in zip(labels, agents, strict=True)
    }
    seeds = fight_seeds(seed, fights_per_pairing)
    # A trained policy only takes the seat it was trained for; scripted agents take both seats.
    seat = {label: trained_side(spec) for label, spec in zip(labels, agents, strict=True)}
    pairs = [
        (a, b)
        for a in labels
        for b in labels
        if (a != b or include_self) and seat[a] in (None, 0) and seat[b] in (None, 1)
    ]
    started = time.perf_counter()
    pairings: list[PairingResult] = []
    with progress_bar(
        len(pairs) * len(seeds), f"tournament on {arena.scenario_name}", progress
    ) as advance:
        for a, b in pairs:
            records = []
            for s in seeds:
                records.append(arena.fight([factories[a], factories[b]], s))
                advance()
            pairings.append(PairingResult((a, b), records))
    # Rate in seed order across pairings, so no pairing is systematically rated last.
    fights = [(p.agents, p.records[i].results) for i in range(len(seeds)) for p in pairings]
    ratings = rate_fights(labels, fights)
    profiles, actions, statuses = _seat_profiles(pairings, labels)
    out_dir = Path(out_dir)
    result = TournamentResult(
        system=arena.system,
        scenario=arena.scenario_name,
        agents=labels,
        specs=list(agents),
        fights_per_pairing=fights_per_pairing,
        seed=seed,
        seeds=seeds,
        options=dict(arena.engine.options),
        pairings=pairings,
        ratings=ratings,
        profiles=profiles,
        actions=actions,
        statuses=statuses,
        command=command
        or default_command(
            arena.system, arena.scenario_name, agents, fights_per_pairing, seed, out_dir, options
        ),
        seconds=round(time.perf_counter() - started, 3),
        out_dir=out_dir,
    )
    write_outputs(result, plots=plots)
    return result


def write_outputs(result: TournamentResult, plots: bool = True) -> None:
    """Write the plots, ``report.md`` and ``results.json`` of ``result`` into ``result.out_dir``."""
    from npc_tactics.evaluation.report import write_report

    result.out_dir.mkdir(parents=True, exist_ok=True)
    if plots:
        from npc_tactics.evaluation.plots import write_plots

        result.files.update(write_plots(result, result.out_dir))
    result.files["report"] = result.out_dir / "report.md"
    result.files["results"] = result.out_dir / "results.json"
    write_report(result, result.files["report"])
    tmp = result.files["results"].with_suffix(".json.tmp")
    tmp.write_text(json.dumps(result.to_dict(), indent=2, sort_keys=False) + "\n", encoding="utf-8")
    tmp.replace(result.files["results"])
