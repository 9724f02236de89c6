"""``npc-tactics evaluate``: a round-robin tournament on paired seeds, with ratings, profiles and a
report.

Every ordered pair of distinct agents plays the same list of seeds, A on side 0 (the NPC side of
shipped scenarios) and B on side 1; scenarios are asymmetric, so results and ratings are kept per seat
(STYLE.md §7: fixed seed lists, side swapping, rates with confidence intervals). The fights are played by
the lockstep runner (:mod:`npc_tactics.rollouts.fights`: K at a time, over the machine's cores) and summed in
one canonical order, seed by seed across pairings (constant memory; ratings updated in that order), so the
result does not depend on K or on the number of worker processes.
``results.json`` holds no wall-clock time, so the same tournament writes it byte for byte again;
the time goes to ``timing.json``.
"""

from __future__ import annotations

import datetime as _dt
import json
import shlex
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from npc_tactics.agents.resolve import agent_label, factory_of, trained_side
from npc_tactics.evaluation.aggregate import SideTally
from npc_tactics.evaluation.arena import Arena, fight_seeds, progress_bar
from npc_tactics.evaluation.ratings import SeatRatings
from npc_tactics.evaluation.results import PairingResult, TournamentResult
from npc_tactics.rollouts import DEFAULT_K, Executor, FightJob, FightTask, FromScenario, iter_tasks

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
        seats = {"side0": SideTally(), "side1": SideTally(), "all": SideTally()}
        for p in pairings:
            for side in (0, 1):
                if p.agents[side] == label and p.agents[1 - side] != label:
                    seats[f"side{side}"].merge(p.tally.sides[side])
                    seats["all"].merge(p.tally.sides[side])
        played = {seat: t for seat, t in seats.items() if t.fights}
        profiles[label] = {seat: t.profile.summary() for seat, t in played.items()}
        actions[label] = {}
        statuses[label] = {}
        for seat, t in played.items():
            total = sum(t.actions.values()) or 1
            actions[label][seat] = {v: t.actions[v] / total for v in sorted(t.actions)}
            statuses[label][seat] = {k: t.statuses[k] / t.fights for k in sorted(t.statuses)}
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
    seats: Mapping[str, int | None] | None = None,
    workers: int | None = None,
    k: int = DEFAULT_K,
    executor: Executor | None = None,
) -> TournamentResult:
    """Play every ordered pair of ``agents`` (scripted names or run directories) on the seeds ``seed
    .. seed+fights_per_pairing-1``, rate them, and write ``report.md``, ``results.json`` and PNG
    plots into ``out_dir``. ``include_self`` adds mirror matches (A vs A: the seat baseline; not
    rated); ``command`` is the reproduce line printed in the report (default: an ``npc-tactics
    evaluate`` line); ``seats`` restricts agent specs to one side (default: a trained run plays
    only the side it learned, read from its config; scripted agents play both); ``workers`` processes
    (default one per core), ``k`` fights in lockstep or an ``executor`` (:mod:`npc_tactics.rollouts`) do not
    change any figure."""
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
        label: factory_of(arena.plugin, spec) for label, spec in zip(labels, agents, strict=True)
    }
    arena.check_agents(list(factories.values()), list(agents))
    seeds = fight_seeds(seed, fights_per_pairing)
    # A trained policy only takes the seat it was trained for; scripted agents take both seats.
    seat = {label: trained_side(spec) for label, spec in zip(labels, agents, strict=True)}
    if seats is not None:
        seat.update({label: seats[spec] for label, spec in zip(labels, agents, strict=True) if spec in seats})
    pairs = [
        (a, b)
        for a in labels
        for b in labels
        if (a != b or include_self) and seat[a] in (None, 0) and seat[b] in (None, 1)
    ]
    if not pairs:
        raise ValueError("no pairing: no agent can play side 0 against one that can play side 1")
    started = time.perf_counter()
    pairings = [PairingResult((a, b)) for a, b in pairs]
    rater = SeatRatings(labels)
    index = {label: i for i, label in enumerate(labels)}
    job = FightJob(arena.engine, (FromScenario(arena.scenario),), tuple(agents), record=True)
    # seed by seed across pairings: no pairing is systematically rated last
    tasks = [FightTask(0, s, (index[p.agents[0]], index[p.agents[1]])) for s in seeds for p in pairings]
    with progress_bar(
        len(pairs) * len(seeds), f"tournament on {arena.scenario_name}", progress
    ) as advance:
        for done in iter_tasks(job, tasks, k=k, workers=workers, executor=executor):
            pairing = pairings[done.task % len(pairings)]
            assert done.record is not None
            pairing.tally.add(done.record)
            rater.update(pairing.agents, done.record.results)
            advance()
    ratings = rater.table()
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
    """Write the plots, ``report.md``, ``results.json`` and ``timing.json`` of ``result`` into
    ``result.out_dir``, all or nothing (a full disk leaves no part of them: :func:`~.output.write_all`)."""
    from npc_tactics.evaluation.output import write_all
    from npc_tactics.evaluation.report import render_report

    files: dict[str, bytes | str] = {}
    if plots:
        from npc_tactics.evaluation.plots import render_plots

        files.update(render_plots(result))
        # the report links the plots by name: their paths are known before anything is written
        result.files.update({name.removesuffix(".png"): result.out_dir / name for name in files})
    files["report.md"] = render_report(result)
    files["results.json"] = _json(result.to_dict())
    files["timing.json"] = _json(
        {"seconds": result.seconds, "fights": sum(p.fights for p in result.pairings),
         "finished": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds")},
    )
    written = write_all(result.out_dir, files)
    result.files.update({Path(name).stem: path for name, path in written.items()})


def _json(data: Any) -> str:
    return json.dumps(data, indent=2, sort_keys=False) + "\n"
