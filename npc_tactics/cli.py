"""The ``npc-tactics`` command line: discover content, train, evaluate, simulate, and ask for a suggestion.

Every user mistake (bad or missing file, unknown system/scenario/agent/preset, malformed situation) is one
line on stderr naming the file and field or the unknown name with the valid choices, and exit code 2.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from npc_tactics.errors import UserError

app = typer.Typer(
    name="npc-tactics",
    help="Teach tabletop RPG NPCs to fight well (MaskablePPO), benchmark tactics, and ask what an NPC "
    "should do now.\n\nStart with `npc-tactics systems`, `npc-tactics scenarios ose`, "
    "`npc-tactics simulate ose goblin_duel --agents by-the-book,aggressive`.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

JsonFlag = Annotated[bool, typer.Option("--json", help="Print one JSON object instead of a table.")]
OptionFlag = Annotated[
    list[str] | None,
    typer.Option("--option", "-o", help="A rules option KEY=VALUE (repeatable), e.g. -o tie_mode=reroll; "
                 "see the system's docs page for the list."),
]


def _rules_options(system: str, pairs: list[str] | None) -> dict[str, Any]:
    """Parse ``KEY=VALUE`` rules options (values read as YAML scalars) and validate them on the engine."""
    import yaml

    from npc_tactics.systems import make_engine

    options: dict[str, Any] = {}
    for pair in pairs or []:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise UserError(f"--option: expected KEY=VALUE, got {pair!r}")
        try:
            options[key.strip()] = yaml.safe_load(value)
        except yaml.YAMLError:
            options[key.strip()] = value
    try:
        make_engine(system, options)
    except ValueError as exc:
        raise UserError(f"--option: {exc}") from None
    return options


def _print_json(obj: Any) -> None:
    typer.echo(json.dumps(obj, indent=2, sort_keys=True, default=str))


def _split(agents: str) -> list[str]:
    names = [a.strip() for a in agents.split(",") if a.strip()]
    if not names:
        raise UserError("--agents: expected a comma-separated list such as 'by-the-book,aggressive'")
    return names


# ----- discovery ------------------------------------------------------------------------------------------
@app.command()
def systems(as_json: JsonFlag = False) -> None:
    """List the rules systems, their Gymnasium ids and default scenarios."""
    from npc_tactics.systems import available_systems

    rows = [{"name": i.name, "title": i.title, "gym_id": i.gym_id, "default_scenario": i.default_scenario}
            for i in available_systems().values()]
    if as_json:
        _print_json({"systems": rows})
        return
    for r in rows:
        typer.echo(f"{r['name']:<10} {r['gym_id']:<26} {r['title']} (default scenario: {r['default_scenario']})")


@app.command()
def scenarios(system: Annotated[str, typer.Argument(help="System name, see `npc-tactics systems`.")],
              as_json: JsonFlag = False) -> None:
    """List the shipped scenarios of SYSTEM."""
    from npc_tactics.systems import get_system

    rows = [{"name": n, "description": d} for n, d in get_system(system).load("content").list_scenarios()]
    if as_json:
        _print_json({"system": system, "scenarios": rows})
        return
    for r in rows:
        typer.echo(f"{r['name']:<20} {r['description']}")


@app.command()
def agents(system: Annotated[str, typer.Argument(help="System name, see `npc-tactics systems`.")],
           as_json: JsonFlag = False) -> None:
    """List the scripted agents of SYSTEM (a trained run directory is also an agent)."""
    from npc_tactics.agents import agent_entries

    rows = [{"name": e.name, "description": e.description} for e in agent_entries(system).values()]
    if as_json:
        _print_json({"system": system, "agents": rows})
        return
    for r in rows:
        typer.echo(f"{r['name']:<14} {r['description']}")


@app.command()
def presets(as_json: JsonFlag = False) -> None:
    """List the shipped training presets (usable as `npc-tactics train NAME`)."""
    from npc_tactics.training.config import list_presets

    rows = [{"name": n, "description": d} for n, d in list_presets()]
    if as_json:
        _print_json({"presets": rows})
        return
    for r in rows:
        typer.echo(f"{r['name']:<26} {r['description']}")


# ----- training and evaluation -----------------------------------------------------------------------
@app.command()
def train(
    config: Annotated[str, typer.Argument(help="A training YAML file or a preset name (`npc-tactics presets`).")],
    resume: Annotated[bool, typer.Option(help="Continue the run in --out from its latest checkpoint (weights and "
                      "optimizer state as plain tensors; its config must match CONFIG).")] = False,
    force: Annotated[bool, typer.Option(help="With --resume: continue even if CONFIG names another system, scenario, "
                     "side or net_arch than the run (the run's own saved config is kept).")] = False,
    out: Annotated[Path | None, typer.Option(help="Run directory (default runs/<system>-<scenario>-<time>).")] = None,
    timesteps: Annotated[int | None, typer.Option(min=1, help="Override the budget's total timesteps.")] = None,
    seed: Annotated[int | None, typer.Option(help="Override the config's seed.")] = None,
    progress: Annotated[bool, typer.Option(help="Show a progress bar.")] = True,
) -> None:
    """Train an NPC policy with MaskablePPO from one YAML config; writes a run directory.

    Safe to share: config.yaml, meta.json and policy.pt of a run (plain tensors, no code) are all it takes to play.

    model.zip is an SB3 pickle for your own scripts; npc-tactics never loads it, and neither should you from others.

    One train or --resume at a time per run directory (train.lock names the owner's PID)."""
    from npc_tactics.training.config import load_train_config
    from npc_tactics.training.train import train as run_training

    if resume and out is None:
        raise UserError("--resume needs --out RUN_DIR (the run to continue)")
    cfg = load_train_config(config)
    if force and not resume:
        raise UserError("--force only applies with --resume")
    run_dir = run_training(cfg, out, resume=resume, timesteps=timesteps, seed=seed, progress=progress,
                           config_source=config, force=force)
    typer.echo(f"run directory: {run_dir}")


@app.command()
def evaluate(
    agents: Annotated[str, typer.Option(help="Comma-separated agents: scripted names and/or run directories.")],
    system: Annotated[str | None, typer.Option(help="System (default: the first run directory's).")] = None,
    scenario: Annotated[str | None, typer.Option(help="Scenario (default: the first run directory's).")] = None,
    fights: Annotated[
        int, typer.Option(min=1, help="Fights per ordered pairing (same seeds for every pairing).")
    ] = 100,
    seed: Annotated[int, typer.Option(help="First seed of the paired seed list.")] = 0,
    out: Annotated[Path | None, typer.Option(help="Report directory (default reports/<system>-<scenario>).")] = None,
    progress: Annotated[bool, typer.Option(help="Show a progress bar.")] = True,
    option: OptionFlag = None,
) -> None:
    """Round-robin tournament on paired seeds: win/draw/flee rates with Wilson 95% intervals, ratings,
    tactic profiles, and a Markdown report with PNG plots."""
    from npc_tactics.evaluation.tournament import run_tournament

    names = _split(agents)
    system, scenario = _system_scenario_from_runs(names, system, scenario)
    out = out or Path("reports") / f"{system}-{scenario}"
    options = _rules_options(system, option)
    result = run_tournament(system, scenario, names, fights, seed, out, options=options, progress=progress)
    _print_first_agent(result)
    typer.echo(f"report: {result.report_path}")


def _print_first_agent(result: Any) -> None:
    """The first agent's results from its seats, the ratings: what a user looks for before the report."""
    from npc_tactics.evaluation.stats import format_rate

    first = result.agents[0]
    for pairing in result.pairings:
        a, b = pairing.agents
        if first not in (a, b):
            continue
        seat = 0 if a == first else 1
        rates = pairing.rates(seat)
        other = b if seat == 0 else a
        typer.echo(f"{first} (side {seat}) vs {other}: win {format_rate(rates['win'])}, "
                   f"fled {format_rate(rates['fled'], ci=False)}, draw {format_rate(rates['draw'], ci=False)} "
                   f"over {pairing.fights} fights")
    ranking = ", ".join(f"{r.agent} {r.mu:.1f}±{r.sigma:.1f}" for r in result.ratings)
    typer.echo(f"ratings (openskill mu±sigma): {ranking}")


def _system_scenario_from_runs(names: list[str], system: str | None, scenario: str | None) -> tuple[str, str]:
    from npc_tactics.runs import RunDir
    from npc_tactics.systems import get_system

    for name in names:
        run = RunDir(Path(name))
        if run.is_run():
            cfg = run.config()
            system = system or cfg.system
            scenario = scenario or cfg.scenario
            break
    if system is None:
        raise UserError("--system is required when no agent is a trained run directory")
    info = get_system(system)
    return info.name, scenario or info.default_scenario


@app.command()
def simulate(
    system: Annotated[str, typer.Argument(help="System name, see `npc-tactics systems`.")],
    scenario: Annotated[str, typer.Argument(help="Scenario name or YAML path, see `npc-tactics scenarios SYSTEM`.")],
    agents: Annotated[
        str, typer.Option(help="Two agents, side 0 (NPCs) then side 1: 'by-the-book,aggressive'.")
    ] = "by-the-book,by-the-book",
    fights: Annotated[int, typer.Option(min=1, help="Number of fights.")] = 100,
    seed: Annotated[int, typer.Option(help="Seed of the first fight (fight k uses seed+k).")] = 0,
    option: OptionFlag = None,
    as_json: JsonFlag = False,
) -> None:
    """Play fights between two agents and summarise results and event counts."""
    from npc_tactics.evaluation.simulate import format_summary
    from npc_tactics.evaluation.simulate import simulate as run_sim

    names = _split(agents)
    if len(names) != 2:
        raise UserError(f"--agents: expected two agents (side 0, side 1), got {len(names)}: {names}")
    summary = run_sim(system, scenario, names, fights, seed, options=_rules_options(system, option),
                      progress=not as_json)
    if as_json:
        _print_json(summary)
    else:
        typer.echo(format_summary(summary))


@app.command()
def export(
    run: Annotated[Path, typer.Argument(help="A trained run directory (from `npc-tactics train`).")],
    out: Annotated[Path, typer.Option(help="The bundle folder to write (policy.onnx + schema.json).")],
    fights: Annotated[int, typer.Option(min=1, max=100_000, help="Fights played against the training opponents "
                                       "to measure the observation range stored in the bundle.")] = 200,
    seed: Annotated[int, typer.Option(min=0, max=2**31 - 1, help="Seed of the first of those fights.")] = 0,
    force: Annotated[bool, typer.Option(help="Replace an existing bundle in --out.")] = False,
) -> None:
    """Export a run's policy as a portable bundle: policy.onnx (masked probabilities, runs with onnxruntime,
    no torch) and schema.json (system, rules version, observation fields and ranges, actions, provenance)."""
    from npc_tactics.export.bundle_export import export_bundle

    result = export_bundle(run, out, fights=fights, seed=seed, force=force)
    s = result.bundle.schema
    typer.echo(f"bundle: {result.bundle.path} ({result.size_bytes / 1024:.0f} KiB; {s.system} rules "
               f"{s.rules_version}, {s.scenario}, side {s.side}; {s.observation.size} observation values, "
               f"{len(s.actions)} actions)")
    typer.echo(f"observation range: {result.observations} observations from {result.fights} fights; "
               f"policy.onnx sha256 {s.onnx.sha256}")


@app.command()
def suggest(
    situation: Annotated[Path, typer.Option(help="A situation YAML: who is where, wounds, round, who acts.")],
    run: Annotated[Path | None, typer.Option(help="A trained run directory (from `npc-tactics train`).")] = None,
    bundle: Annotated[Path | None, typer.Option(help="A policy bundle (from `npc-tactics export`); needs no "
                                                "torch.")] = None,
    seed: Annotated[int, typer.Option(help="Seed for any dice the situation needs.")] = 0,
    as_json: JsonFlag = False,
) -> None:
    """Ask what the acting NPC should do now: its legal moves ranked by a trained policy (--run or --bundle)."""
    from npc_tactics.gm.suggest import suggest as run_suggest

    if (run is None) == (bundle is None):
        raise UserError("suggest: give exactly one of --run RUN_DIR or --bundle BUNDLE_DIR")
    policy = None
    if bundle is not None:
        from npc_tactics.policy_io.onnx_agent import load_bundle_agent

        policy = load_bundle_agent(bundle)
    result = run_suggest(run or bundle, situation, seed=seed, policy=policy)  # type: ignore[arg-type]
    if as_json:
        _print_json(result.to_dict())
    else:
        if result.situation_text:
            typer.echo(result.situation_text.rstrip())
        typer.echo(result.format())


def main(argv: list[str] | None = None) -> None:
    """Entry point: user errors become one line on stderr and exit code 2 (usage errors: click's own, 2)."""
    import warnings

    from npc_tactics.runs import RulesVersionWarning

    default_show = warnings.showwarning

    def show(message: Warning | str, category: type[Warning], *args: Any, **kwargs: Any) -> None:
        if issubclass(category, RulesVersionWarning):  # one plain line, like errors
            typer.echo(f"npc-tactics: warning: {message}", err=True)
        else:
            default_show(message, category, *args, **kwargs)

    warnings.showwarning = show
    try:
        app(args=argv)
    except UserError as exc:
        typer.echo(f"npc-tactics: error: {exc}", err=True)
        sys.exit(2)
    finally:
        warnings.showwarning = default_show


if __name__ == "__main__":
    main()
