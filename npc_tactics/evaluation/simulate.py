"""``npc-tactics simulate``: play N fights between two agents and summarise them (JSON-ready dict +
table)."""

from __future__ import annotations

import io
import time
from collections.abc import Mapping, Sequence
from typing import Any

from npc_tactics.agents.resolve import agent_label, factory_of
from npc_tactics.evaluation.aggregate import FightTally, nest_event_counts
from npc_tactics.evaluation.arena import Arena, fight_seeds, progress_bar
from npc_tactics.evaluation.fight import FightRecord
from npc_tactics.evaluation.stats import OUTCOMES, format_rate

__all__ = ["format_summary", "simulate", "summarise", "summarise_tally"]


def simulate(
    system: str,
    scenario: str | None,
    agents: Sequence[str],
    fights: int,
    seed: int,
    options: Mapping[str, Any] | None = None,
    progress: bool = False,
    timing: dict[str, float] | None = None,
) -> dict[str, Any]:
    """Play ``fights`` fights (seeds ``seed .. seed+fights-1``), side ``k`` played by ``agents[k]``
    (a scripted name or a run directory), and return :func:`summarise_tally` of them.

    Fights are summed as they are played (constant memory). The summary holds no wall-clock time, so
    the same arguments give the same summary byte for byte; pass ``timing`` (a dict) to receive
    ``{"seconds": ...}``."""
    arena = Arena.build(system, scenario, options)
    if len(agents) != arena.sides:
        raise ValueError(
            f"{arena.system} needs one agent per side ({arena.sides}), got {len(agents)}: "
            f"{', '.join(agents)}"
        )
    factories = [factory_of(arena.plugin, spec) for spec in agents]
    arena.check_agents(factories, agents)
    seeds = fight_seeds(seed, fights)
    started = time.perf_counter()
    tally = FightTally.empty(arena.sides)
    with progress_bar(
        len(seeds), f"{arena.scenario_name}: {' vs '.join(agents)}", progress
    ) as advance:
        for s in seeds:
            tally.add(arena.fight(factories, s))
            advance()
    summary = summarise_tally(tally)
    summary.update(
        {
            "system": arena.system,
            "scenario": arena.scenario_name,
            "agents": [agent_label(a) for a in agents],
            "agent_specs": list(agents),
            "options": dict(arena.engine.options),
            "seed": seed,
        }
    )
    if timing is not None:
        timing["seconds"] = round(time.perf_counter() - started, 3)
    return summary


def summarise(records: Sequence[FightRecord], sides: int) -> dict[str, Any]:
    """:func:`summarise_tally` of a list of records."""
    if not records:
        raise ValueError("cannot summarise zero fights")
    tally = FightTally.empty(sides)
    for record in records:
        tally.add(record)
    return summarise_tally(tally)


def summarise_tally(tally: FightTally) -> dict[str, Any]:
    """The JSON-ready summary of the fights in ``tally``.

    Keys: ``fights``, ``seeds`` (first, last), ``rounds`` (mean, min, max), ``mean_rounds``,
    ``mean_decisions``, ``reasons`` (how fights ended), ``event_counts`` ``{kind: {result: n}}``
    over all events, ``unattributed_event_counts`` (events without an acting combatant) and
    ``sides``: per side the agent, ``rates`` (``win``/``draw``/``fled``/``loss``, each ``{count,
    rate, low, high}`` with the Wilson 95% interval), the side's ``event_counts`` (events its
    combatants performed), ``actions`` (verbs chosen), ``tactic_profile`` (totals),
    ``tactic_profile_per_fight`` (means) and ``final_status``."""
    if not tally.fights:
        raise ValueError("cannot summarise zero fights")
    counts = tally.event_counts
    side_entries = []
    for side, st in enumerate(tally.sides):
        profile = st.profile.summary()
        side_entries.append(
            {
                "side": side,
                "agent": st.agent,
                "rates": st.rates(),
                "event_counts": nest_event_counts(counts, side),
                "actions": dict(sorted(st.actions.items())),
                "tactic_profile": profile["total"],
                "tactic_profile_per_fight": profile["per_fight"],
                "final_status": dict(sorted(st.statuses.items())),
                "decisions": st.decisions,
            }
        )
    return {
        "fights": tally.fights,
        "seeds": [tally.first_seed, tally.last_seed],
        "mean_rounds": tally.mean_rounds,
        "rounds": {"mean": tally.mean_rounds, "min": tally.rounds_min, "max": tally.rounds_max},
        "mean_decisions": tally.mean_decisions,
        "reasons": dict(sorted(tally.reasons.items())),
        "event_counts": nest_event_counts(counts),
        "unattributed_event_counts": nest_event_counts(counts, -1),
        "sides": side_entries,
    }


def format_summary(summary: Mapping[str, Any]) -> str:
    """A human-readable rendering of :func:`simulate`'s summary (rich tables, plain text)."""
    from rich.console import Console
    from rich.table import Table

    buffer = io.StringIO()
    console = Console(file=buffer, width=110, force_terminal=False, color_system=None)
    title = (
        f"{summary.get('system', '?')} / {summary.get('scenario', '?')}: "
        f"{summary['fights']} fights, seeds {summary['seeds'][0]}..{summary['seeds'][1]}"
    )
    console.print(title)
    rates = Table(title="Results per side (Wilson 95% intervals)")
    rates.add_column("side")
    rates.add_column("agent")
    for name in OUTCOMES:
        rates.add_column(name, justify="right")
    for entry in summary["sides"]:
        rates.add_row(
            str(entry["side"]),
            str(entry["agent"]),
            *(format_rate(entry["rates"][name]) for name in OUTCOMES),
        )
    console.print(rates)
    r = summary["rounds"]
    console.print(
        f"rounds: mean {r['mean']:.2f} (min {r['min']}, max {r['max']}); "
        f"decisions per fight: {summary['mean_decisions']:.1f}"
    )
    console.print("endings: " + ", ".join(f"{k} {v}" for k, v in summary["reasons"].items()))
    events = Table(title="Events by result (by the side of the acting combatant)")
    events.add_column("event")
    events.add_column("result")
    events.add_column("total", justify="right")
    for entry in summary["sides"]:
        events.add_column(f"side {entry['side']}", justify="right")
    events.add_column("no actor", justify="right")
    for kind, by_result in summary["event_counts"].items():
        for result, total in by_result.items():
            per_side = [
                str(e["event_counts"].get(kind, {}).get(result, 0)) for e in summary["sides"]
            ]
            per_side.append(str(summary["unattributed_event_counts"].get(kind, {}).get(result, 0)))
            events.add_row(kind, result, str(total), *per_side)
    console.print(events)
    keys = sorted({k for e in summary["sides"] for k in e["tactic_profile"]})
    if keys:
        prof = Table(title="Tactic profile (total over all fights)")
        prof.add_column("measure")
        for entry in summary["sides"]:
            prof.add_column(f"side {entry['side']} ({entry['agent']})", justify="right")
        for key in keys:
            prof.add_row(key, *(f"{e['tactic_profile'].get(key, 0):g}" for e in summary["sides"]))
        console.print(prof)
    return buffer.getvalue()
