"""``npc-tactics probe AGENT PROBES...``: the command's typer function (registered in :mod:`npc_tactics.cli.main`)."""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Annotated

import typer

from npc_tactics.cli.ray import AddressOption, ray_executor
from npc_tactics.cli.support import check_out
from npc_tactics.errors import UserError
from npc_tactics.limits import MAX_WORKERS, SEED_MAX, check_workers

__all__ = ["probe"]
MAX_ROLLOUTS = 100_000


def _write(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)


def _policy_system(agent: str) -> str | None:
    """The system a bundle or run folder plays, or a search over one (None for scripted agents and cards, which
    name no folder)."""
    from npc_tactics.agents.resolve import is_search_spec, parse_search_spec

    folder = Path(parse_search_spec(agent)[0] if is_search_spec(agent) else agent)
    if (folder / "schema.json").is_file():
        from npc_tactics.policy_io.bundle import read_bundle

        return str(read_bundle(folder).schema.system)
    if (folder / "config.yaml").is_file():
        from npc_tactics.runs import RunDir

        return str(RunDir(folder).config().system)
    return None


def probe(
    agent: Annotated[str, typer.Argument(metavar="BUNDLE|AGENT", help="A policy bundle or run folder, a scripted "
                                         "agent's name, card:BUNDLE_DIR or search:POLICY[@BUDGET] (docs/search.md)."
                                         )],
    probes: Annotated[list[str], typer.Argument(metavar="PROBES.yaml...", help="Probe files, folders of them, a "
                                                "system name (its shipped probes) or 'all'.")],
    rollouts: Annotated[int | None, typer.Option(metavar="N", help=f"Rollouts per legal move and continuation, "
                                                 f"1 to {MAX_ROLLOUTS:,} (default: each file's, 200).")] = None,
    seed: Annotated[int | None, typer.Option(metavar="SEED", help="Seed of the rollouts (default: each "
                                             "file's).")] = None,
    workers: Annotated[int | None, typer.Option(metavar="N", help=f"Worker processes, 1 to {MAX_WORKERS} "
                                                "(default: one per core). The results do not depend on it.")] = None,
    as_json: Annotated[bool, typer.Option("--json", metavar="", help="Print one JSON object instead of the "
                                          "text.")] = False,
    out: Annotated[Path | None, typer.Option(metavar="DIR", help="Also write probes.md and probes.json "
                                             "there.")] = None,
    address: AddressOption = None,
) -> None:
    """Is the agent's move the best one? For each probe (a situation in the GM-query format), every legal move is
    rolled out N times to the end of the fight under named continuation policies (common random numbers across
    moves); the agent passes a probe unless its move is clearly worse than the best: the gap between the two,
    rollout by rollout on the same dice, has a 95% interval above the probe's tolerance (0 points unless the
    file says). Prints each probe and the share passed."""
    from npc_tactics.probes import load_probe_file, probe_files, run_probe_file
    from npc_tactics.probes.report import format_results, markdown, summary

    if rollouts is not None and not 1 <= rollouts <= MAX_ROLLOUTS:
        raise UserError(f"--rollouts: expected 1 to {MAX_ROLLOUTS:,}, got {rollouts}")
    check_workers(workers)
    if seed is not None and not 0 <= seed <= SEED_MAX:
        raise UserError(f"--seed: expected 0 to {SEED_MAX}, got {seed}")
    if out is not None:
        check_out(out)
    files = [load_probe_file(p) for p in probe_files(probes)]  # every file checked before any rollout
    plays = _policy_system(agent)
    if plays is not None:  # a trained policy plays one system: its files only
        skipped = [f.path for f in files if f.system != plays]
        files = [f for f in files if f.system == plays]
        if not files:
            raise UserError(f"{agent} plays {plays}; none of the probe files given is for {plays}")
        if skipped:
            typer.echo(f"skipped {len(skipped)} probe file(s) of other systems than {plays}", err=True)
    executor = ray_executor(address, workers)
    results = [r for f in files for r in run_probe_file(f, agent, rollouts=rollouts, seed=seed, workers=workers,
                                                        executor=executor)]
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        command = shlex.join(["npc-tactics", "probe", agent, *probes]
                             + (["--rollouts", str(rollouts)] if rollouts else [])
                             + (["--seed", str(seed)] if seed is not None else []))
        _write(out / "probes.md", markdown(agent, results, command))
        _write(out / "probes.json", json.dumps(summary(agent, results), indent=2) + "\n")
    if as_json:
        typer.echo(json.dumps(summary(agent, results), indent=2))
    else:
        typer.echo(format_results(agent, results))
        if out is not None:
            typer.echo(f"report: {out / 'probes.md'} and probes.json")
