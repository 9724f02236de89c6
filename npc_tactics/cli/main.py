"""The ``npc-tactics`` command line: discover content, train, evaluate, simulate, and ask for a suggestion.

Every user mistake (bad or missing file, unknown system/scenario/agent/preset, malformed situation, a bad
option value) is one line on stderr naming the file and field, the option, or the unknown name with the
valid choices, and exit code 2. Every range (seeds, fights, agents, timesteps) is declared once in
:mod:`npc_tactics.limits` and checked in :mod:`npc_tactics.cli.support`.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from npc_tactics.cli.bestiary import BestiaryOption, bestiary_command
from npc_tactics.cli.distill import distill
from npc_tactics.cli.encounter import build_encounter_command, odds_command
from npc_tactics.cli.importer import import_command
from npc_tactics.cli.leaderboard import leaderboard
from npc_tactics.cli.probe import probe
from npc_tactics.cli.ray import (
    AddressOption,
    BackendOption,
    EnvRunnersOption,
    WorkersOption,
    ray_executor,
    ray_train_options,
)
from npc_tactics.cli.support import (
    Command,
    Group,
    check_fights,
    check_host,
    check_lineup,
    check_listen,
    check_out,
    check_port,
    check_runs_fit,
    check_seed_option,
    check_timesteps,
    plain_integer,
    print_first_agent,
    report_write_error,
    rules_options,
    show_version,
    split_agents,
    system_scenario_from_runs,
)
from npc_tactics.errors import UserError, one_line, shown
from npc_tactics.limits import (
    DEFAULT_THINK,
    MAX_AGENTS,
    MAX_FIGHTS,
    MAX_TIMESTEPS,
    MAX_WORKERS,
    SEED_MAX,
    SERVE_QUEUE,
    SERVE_TIME_LIMIT_S,
    check_workers,
)

app = typer.Typer(
    cls=Group,
    name="npc-tactics",
    help="Teach tabletop RPG NPCs to fight well (MaskablePPO), benchmark tactics, and ask what an NPC "
    "should do now.\n\nStart with `npc-tactics systems`, `npc-tactics scenarios ose`, "
    "`npc-tactics simulate ose goblin_duel --agents by-the-book,aggressive`.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

JsonFlag = Annotated[bool, typer.Option("--json", metavar="", help="Print one JSON object instead of a table.")]
ProgressFlag = Annotated[bool, typer.Option(metavar="", help="Show a progress bar on stderr.")]
SystemArg = Annotated[str, typer.Argument(metavar="SYSTEM", help="System name, see `npc-tactics systems`.")]
FightsOption = Annotated[
    int, typer.Option(metavar="N", callback=check_fights, help=f"Number of fights (1 to {MAX_FIGHTS:,}).")
]
OptionFlag = Annotated[
    list[str] | None,
    typer.Option("--option", "-o", metavar="KEY=VALUE",
                 help="A rules option KEY=VALUE (repeatable), e.g. -o tie_mode=reroll; "
                 "see the system's docs page for the list."),
]


@app.callback()
def _root(
    version: Annotated[
        bool, typer.Option("--version", metavar="", callback=show_version, is_eager=True,
                           help="Print the version and exit.")
    ] = False,
) -> None:
    """Teach tabletop RPG NPCs to fight well (MaskablePPO), benchmark tactics, and ask what an NPC should do
    now."""


def _print_json(obj: Any) -> None:
    typer.echo(json.dumps(obj, indent=2, sort_keys=True, default=str))


# ----- discovery ------------------------------------------------------------------------------------------
@app.command(cls=Command)
def systems(as_json: JsonFlag = False) -> None:
    """List the rules systems, their Gymnasium ids and default scenarios."""
    from npc_tactics.compiled import status
    from npc_tactics.registry import available_systems

    rows = [{"name": i.name, "title": i.title, "gym_id": i.gym_id, "default_scenario": i.default_scenario}
            for i in available_systems().values()]
    engines = status()  # compiled or pure rules engines, and which modules (docs/speed.md)
    if as_json:
        _print_json({"systems": rows, "engines": engines["engines"], "compiled_modules": engines["compiled_modules"],
                     "engines_reason": engines["reason"]})
        return
    for r in rows:
        typer.echo(f"{r['name']:<10} {r['gym_id']:<26} {r['title']} (default scenario: {r['default_scenario']})")
    typer.echo(f"engines: {engines['engines']}" + (f" ({engines['reason']})" if engines["reason"] else
                                                   f" ({len(engines['compiled_modules'])} modules)"))


@app.command(cls=Command)
def scenarios(system: SystemArg, as_json: JsonFlag = False) -> None:
    """List the shipped scenarios of SYSTEM."""
    from npc_tactics.registry import get_system

    rows = [{"name": n, "description": d} for n, d in get_system(system).load("content").list_scenarios()]
    if as_json:
        _print_json({"system": system, "scenarios": rows})
        return
    for r in rows:
        typer.echo(f"{r['name']:<20} {r['description']}")


@app.command(cls=Command)
def agents(system: SystemArg, as_json: JsonFlag = False) -> None:
    """List the scripted agents of SYSTEM (a trained run directory is also an agent)."""
    from npc_tactics.agents import agent_entries
    from npc_tactics.registry import get_system

    rows = [{"name": e.name, "description": e.description} for e in agent_entries(get_system(system)).values()]
    if as_json:
        _print_json({"system": system, "agents": rows})
        return
    for r in rows:
        typer.echo(f"{r['name']:<14} {r['description']}")


@app.command(cls=Command)
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
@app.command(cls=Command)
def train(
    config: Annotated[str, typer.Argument(metavar="CONFIG",
                                          help="A training YAML file or a preset name (`npc-tactics presets`).")],
    resume: Annotated[bool, typer.Option(metavar="", help="Continue the run in --out from its latest checkpoint "
                                         "(weights and optimizer state as plain tensors; its config must match "
                                         "CONFIG).")] = False,
    force: Annotated[bool, typer.Option(metavar="", help="With --resume: continue even if CONFIG names another "
                                        "system, scenario, side or net_arch than the run (the run's own saved "
                                        "config is kept).")] = False,
    out: Annotated[Path | None, typer.Option(metavar="DIR",
                                             help="Run directory (default runs/SYSTEM-SCENARIO-TIME).")] = None,
    timesteps: Annotated[int | None, typer.Option(
        metavar="N", callback=check_timesteps, help=f"Override the budget's total timesteps (1 to {MAX_TIMESTEPS:,})."
    )] = None,
    seed: Annotated[int | None, typer.Option(metavar="SEED", callback=check_seed_option,
                                             help=f"Override the config's seed (0 to {SEED_MAX}).")] = None,
    progress: ProgressFlag = True,
    backend: BackendOption = None,
    address: AddressOption = None,
    num_env_runners: EnvRunnersOption = None,
) -> None:
    """Train an NPC policy with MaskablePPO from one YAML config; writes a run directory.

    Safe to share: config.yaml, meta.json and policy.pt of a run (plain tensors, no code) are all it takes to play.

    model.zip is an SB3 pickle for your own scripts; npc-tactics never loads it, and neither should you from others.

    One train or --resume at a time per run directory (train.lock names the owner's PID)."""
    from npc_tactics.training.config import load_train_config
    from npc_tactics.training.train import train as run_training

    if resume and out is None:
        raise UserError("--resume needs --out RUN_DIR (the run to continue)")
    if out is not None:
        check_out(out, must_exist=resume)
    if force and not resume:
        raise UserError("--force only applies with --resume")
    cfg = load_train_config(config)
    ray_options = ray_train_options(backend or cfg.backend, address, num_env_runners)
    run_dir = run_training(cfg, out, resume=resume, timesteps=timesteps, seed=seed, progress=progress,
                           config_source=config, force=force, backend=backend, ray_options=ray_options)
    typer.echo(f"run directory: {run_dir}")


@app.command(cls=Command)
def evaluate(
    agents: Annotated[str, typer.Option(metavar="A,B,...",
                                        help="Comma-separated agents: scripted names, run directories and/or "
                                        "card:BUNDLE_DIR (a bundle's tactics card).")],
    system: Annotated[str | None, typer.Option(metavar="SYSTEM",
                                               help="System (default: the first run directory's).")] = None,
    scenario: Annotated[str | None, typer.Option(metavar="SCENARIO",
                                                 help="Scenario (default: the first run directory's).")] = None,
    fights: Annotated[int, typer.Option(metavar="N", callback=check_fights,
                                        help="Fights per ordered pairing, same seeds for every pairing "
                                        f"(1 to {MAX_FIGHTS:,}).")] = 100,
    seed: Annotated[int, typer.Option(metavar="SEED", callback=check_seed_option,
                                      help=f"First seed of the paired seed list (0 to {SEED_MAX}).")] = 0,
    out: Annotated[Path | None, typer.Option(metavar="DIR",
                                             help="Report directory (default reports/SYSTEM-SCENARIO).")] = None,
    progress: ProgressFlag = True,
    option: OptionFlag = None,
    tactics: Annotated[bool, typer.Option("--tactics", metavar="",
                                          help="Add the tactics section: every named tactic of the system per "
                                          "agent, against by-the-book on the same seeds (docs/selfplay.md).")] = False,
    address: AddressOption = None,
    workers: WorkersOption = None,
) -> None:
    """Round-robin tournament on paired seeds: win/draw/flee rates with Wilson 95% intervals, ratings per seat,
    tactic profiles, and a Markdown report with PNG plots (results.json holds every number; timing.json the
    wall-clock time)."""
    from npc_tactics.evaluation.tournament import run_tournament

    names = split_agents(agents)
    if len(names) < 2:
        raise UserError(f"--agents: a tournament needs at least two agents, got {len(names)}: {names[0]}")
    if len(names) > MAX_AGENTS:
        raise UserError(f"--agents: at most {MAX_AGENTS} agents per tournament, got {len(names)}")
    check_lineup(names)
    if out is not None:
        check_out(out)
    system, scenario = system_scenario_from_runs(names, system, scenario)
    out = out or Path("reports") / f"{system}-{scenario}"
    check_out(out)
    options = rules_options(system, option)
    check_runs_fit(names, system, options)
    executor = ray_executor(address, workers)
    try:
        result = run_tournament(system, scenario, names, fights, seed, out, options=options, progress=progress,
                                workers=workers, executor=executor)
        if tactics:
            from npc_tactics.evaluation.tactics import measure_tactics
            from npc_tactics.evaluation.tournament import write_outputs
            from npc_tactics.registry import get_system

            result.tactics = measure_tactics(get_system(system), names, scenario=scenario, fights=fights, seed=seed)
            write_outputs(result, plots=False)
    except OSError as exc:
        raise report_write_error(out, exc) from None
    print_first_agent(result)
    typer.echo(f"report: {result.report_path}")


@app.command(cls=Command)
def simulate(
    system: SystemArg,
    scenario: Annotated[str, typer.Argument(metavar="SCENARIO",
                                            help="Scenario name or YAML path, see `npc-tactics scenarios SYSTEM`.")],
    agents: Annotated[
        str, typer.Option(metavar="A,B", help="Two agents, side 0 (NPCs) then side 1: 'by-the-book,aggressive'.")
    ] = "by-the-book,by-the-book",
    fights: FightsOption = 100,
    seed: Annotated[int, typer.Option(metavar="SEED", callback=check_seed_option,
                                      help=f"Seed of the first fight; fight k uses seed+k (0 to {SEED_MAX}).")] = 0,
    option: OptionFlag = None,
    as_json: JsonFlag = False,
    bestiary: BestiaryOption = None,
) -> None:
    """Play fights between two agents and summarise results and event counts (--json: the same numbers for the
    same arguments, byte for byte; the wall-clock time is printed only with the table)."""
    from npc_tactics.evaluation.simulate import format_summary
    from npc_tactics.evaluation.simulate import simulate as run_sim

    names = split_agents(agents)
    if len(names) != 2:
        raise UserError(f"--agents: expected two agents (side 0, side 1), got {len(names)}: {names}")
    if not scenario.strip():
        raise UserError("SCENARIO: expected a scenario name or a YAML path, got an empty string")
    timing: dict[str, float] = {}
    summary = run_sim(system, scenario, names, fights, seed, options=rules_options(system, option),
                      progress=not as_json, timing=timing)
    if as_json:
        _print_json(summary)
    else:
        typer.echo(format_summary(summary))
        typer.echo(f"played in {timing['seconds']:.1f} s")


@app.command(cls=Command)
def replay(
    system: SystemArg,
    scenario: Annotated[str, typer.Argument(metavar="SCENARIO",
                                            help="Scenario name or YAML path, see `npc-tactics scenarios SYSTEM`.")],
    agents: Annotated[
        str, typer.Option(metavar="A,B", help="Two agents, side 0 (NPCs) then side 1: scripted names or run "
                          "directories.")
    ] = "by-the-book,by-the-book",
    seed: Annotated[int, typer.Option(metavar="SEED", callback=check_seed_option,
                                      help=f"The fight's seed: the same fight as `simulate --fights 1 --seed SEED` "
                                      f"(0 to {SEED_MAX}).")] = 0,
    lang: Annotated[str, typer.Option(metavar="en|fr", help="Language of the story.")] = "en",
    verbose: Annotated[bool, typer.Option("--verbose", "-v", metavar="",
                                          help="Also tell every dice roll and the rules' records that "
                                          "repeat what the story already says.")] = False,
    option: OptionFlag = None,
    as_json: JsonFlag = False,
) -> None:
    """Tell one fight blow by blow in plain words (English or French): who chose what, each roll's result,
    wounds and who fell, so a GM can see how an NPC fights before trusting it."""
    from npc_tactics.gm.words.replay import replay as run_replay
    from npc_tactics.i18n import check_lang

    check_lang(lang)
    names = split_agents(agents)
    if len(names) != 2:
        raise UserError(f"--agents: expected two agents (side 0, side 1), got {len(names)}: {names}")
    if not scenario.strip():
        raise UserError("SCENARIO: expected a scenario name or a YAML path, got an empty string")
    from npc_tactics.registry import get_system

    options = rules_options(system, option)
    story = run_replay(get_system(system), scenario, names, seed, lang, options=options)
    if as_json:
        _print_json(story.to_dict())
    else:
        typer.echo(story.text(verbose=verbose), nl=False)


@app.command(cls=Command)
def export(
    runs: Annotated[list[Path], typer.Argument(
        metavar="RUN_DIR...", help="A trained run directory (from `npc-tactics train`); several runs of one system, "
        "seat, options and scenario or encounter distribution make one ensemble bundle, whose network averages "
        "their log-probabilities.")],
    out: Annotated[Path, typer.Option(metavar="DIR", help="The bundle folder to write (policy.onnx + schema.json).")],
    fights: Annotated[int, typer.Option(metavar="N", min=1, max=100_000,
                                        help="Fights played against the training opponents to measure the "
                                        "observation range stored in the bundle (1 to 100,000).")] = 200,
    seed: Annotated[int, typer.Option(metavar="SEED", callback=check_seed_option,
                                      help=f"Seed of the first of those fights (0 to {SEED_MAX}).")] = 0,
    force: Annotated[bool, typer.Option(metavar="", help="Replace an existing bundle in --out.")] = False,
    half: Annotated[bool, typer.Option(metavar="", help="Store the weights as float16: half the file, "
                                       "probabilities within about 1e-3 of the float32 network.")] = False,
) -> None:
    """Export a run's policy (or an ensemble of runs) as a portable bundle: policy.onnx (masked probabilities,
    runs with onnxruntime, no torch) and schema.json (system, rules version, observation fields and ranges,
    actions, provenance).

    Bundles are the safe thing to share: nothing in them is unpickled."""
    from npc_tactics.export.bundle_export import export_bundle

    result = export_bundle(list(runs), out, fights=fights, seed=seed, force=force, half=half)
    s = result.bundle.schema
    members = f"ensemble of {len(runs)} runs; " if len(runs) > 1 else ""
    typer.echo(f"bundle: {result.bundle.path} ({result.size_bytes / 1024:.0f} KiB; {members}{s.system} rules "
               f"{s.rules_version}, {s.scenario}, side {s.side}; {s.observation.size} observation values, "
               f"{len(s.actions)} actions)")
    typer.echo(f"observation range: {result.observations} observations from {result.fights} fights; "
               f"policy.onnx sha256 {s.onnx.sha256}")


@app.command(cls=Command)
def card(
    bundle: Annotated[Path, typer.Argument(metavar="BUNDLE_DIR", help="A policy bundle (from `npc-tactics export`).")],
    lang: Annotated[str, typer.Option(metavar="LANG", help="Language of card.md: en or fr.")] = "en",
    fights: Annotated[int, typer.Option(metavar="N", min=100, max=100_000,
                                        help="Paired fights for each win rate (card, network, by-the-book and every "
                                        "depth of the sweep; 100 to 100,000).")] = 2000,
    depths: Annotated[str, typer.Option(metavar="D,D,...", help="Tree depths to sweep (1 to 8).")] = "2,3,4,5",
    seed: Annotated[int, typer.Option(metavar="SEED", callback=check_seed_option,
                                      help=f"First seed of the paired fights (0 to {SEED_MAX}).")] = 0,
    rebuild: Annotated[bool, typer.Option(metavar="", help="Distil again even if the bundle has a card for its "
                                          "policy (otherwise only card.md is rewritten in --lang).")] = False,
) -> None:
    """Distil the bundle's policy into a tactics card a GM can play by: at most 7 if-then rules over what is
    visible at the table, with fidelity, paired win rates (card, network, by-the-book) and the share of the
    network's gain it keeps. Writes card.json and card.md into the bundle."""
    from npc_tactics.export.card import Card, build_card
    from npc_tactics.i18n import check_lang
    from npc_tactics.policy_io.bundle import read_bundle

    check_lang(lang)
    words = [d.strip() for d in depths.split(",")]
    if not all(plain_integer(d) for d in words):  # int() would read 2_0 as 20
        raise UserError(f"--depths: expected comma-separated integers such as 2,3,4,5, got {shown(depths)}")
    depth_list = sorted({int(d) for d in words})
    read_bundle(bundle)  # one-line errors for a missing or damaged bundle before any work
    made = None if rebuild else Card.load(bundle)
    if made is None:
        made = build_card(bundle, fights=fights, depths=depth_list, seed=seed)
    paths = made.save(bundle, lang=lang)
    typer.echo(paths[1].read_text(encoding="utf-8").rstrip())
    typer.echo(f"card: {paths[0]} and {paths[1]}")


@app.command(cls=Command)
def suggest(
    situation: Annotated[Path, typer.Option(metavar="FILE",
                                            help="A situation YAML: who is where, wounds, round, who acts.")],
    run: Annotated[Path | None, typer.Option(metavar="RUN_DIR",
                                             help="A trained run directory (from `npc-tactics train`).")] = None,
    bundle: Annotated[Path | None, typer.Option(metavar="BUNDLE_DIR", help="A policy bundle (from "
                                                "`npc-tactics export`); needs no torch.")] = None,
    system: Annotated[str | None, typer.Option(metavar="SYSTEM", help="Use this system's shipped generalist "
                                               "policy (no training needed) when no --run or --bundle is named.")
                      ] = None,
    seed: Annotated[int, typer.Option(metavar="SEED", callback=check_seed_option,
                                      help=f"Seed for any dice the situation needs and for the rollouts (0 to "
                                           f"{SEED_MAX}).")] = 0,
    odds: Annotated[int, typer.Option(metavar="N",
                                      help="Monte-Carlo rollouts per legal move to the end of the fight (0: none; "
                                           "run anyway, 100, when the situation is out of distribution).")] = 0,
    opponent: Annotated[str, typer.Option(metavar="AGENT", help="Who plays the other side in rollouts: a "
                                          "scripted agent, a bundle or a run folder.")] = "by-the-book",
    top: Annotated[int | None, typer.Option(metavar="N", help="Show (and roll out) only the N most "
                                            "probable moves.")] = None,
    workers: Annotated[int | None, typer.Option(metavar="N", help=f"Rollout processes, 1 to {MAX_WORKERS} "
                                                "(default: one per core); the odds do not depend on it.")] = None,
    think: Annotated[float, typer.Option(metavar="SECONDS", help="Search before answering: play the fight on "
                                         "from the policy's likely moves for this long and put first the move "
                                         "whose play-outs end best (0: the network alone; the play-outs done, and "
                                         "so the answer, depend on the machine: --playouts is reproducible).")
                     ] = DEFAULT_THINK,
    playouts: Annotated[int | None, typer.Option(metavar="N", help="Search with exactly N play-outs instead of "
                                                 "for --think seconds (the same answer for the same seed).")
                        ] = None,
    lang: Annotated[str, typer.Option(metavar="en|fr", help="Language of what the GM reads.")] = "en",
    as_json: JsonFlag = False,
    bestiary: BestiaryOption = None,
) -> None:
    """Ask what the acting NPC should do now, at any decision: its legal moves ranked by a trained policy (--run or
    --bundle, or --system for the shipped generalist), optional Monte-Carlo odds per move, the plan for the rest of
    its round, how far to trust the policy, and every assumption made in reading the situation."""
    from npc_tactics.gm.advice.suggest import shipped_bundle
    from npc_tactics.gm.advice.suggest import suggest as run_suggest

    check_workers(workers)
    if (run is None) == (bundle is None) and (run is not None or system is None):
        raise UserError("suggest: give exactly one of --run RUN_DIR or --bundle BUNDLE_DIR (or --system SYSTEM "
                        "alone for the shipped policy)")
    if run is None and bundle is None:
        bundle = shipped_bundle(system)  # type: ignore[arg-type]  # system is given (checked above)
    policy = None
    if bundle is not None:
        from npc_tactics.policy_io.onnx_agent import load_bundle_agent

        policy = load_bundle_agent(bundle)
        if system is not None:
            from npc_tactics.registry import get_system

            if policy.system != get_system(system).name:
                raise UserError(f"suggest: {bundle} is a {policy.system} bundle, not {system}")
    source: Path = run if run is not None else bundle  # type: ignore[assignment]  # exactly one is given
    result = run_suggest(source, situation, seed=seed, policy=policy, odds=odds, opponent=opponent, lang=lang,
                         top=top, workers=workers, think=think, playouts=playouts)
    if as_json:
        _print_json(result.to_dict())
    else:
        if result.situation_text:
            typer.echo(result.situation_text.rstrip())
        typer.echo(result.format())


@app.command(cls=Command)
def play(
    system: SystemArg,
    scenario: Annotated[str, typer.Argument(metavar="SCENARIO",
                                            help="Scenario name or YAML path, see `npc-tactics scenarios SYSTEM`.")],
    bundle: Annotated[Path, typer.Option(metavar="DIR", help="The NPCs' policy bundle (from `npc-tactics export`).")],
    lang: Annotated[str, typer.Option(metavar="en|fr", help="Language of everything printed.")] = "en",
    seed: Annotated[int, typer.Option(metavar="SEED", callback=check_seed_option,
                                      help=f"Seed of the engine's dice (0 to {SEED_MAX}).")] = 0,
    dice: Annotated[str, typer.Option(metavar="auto|manual",
                                      help="auto: the engine rolls; manual: you roll and type each face.")] = "auto",
    think: Annotated[float, typer.Option(metavar="SECONDS", help="Search before each NPC move: play the fight on "
                                         "from the policy's likely moves for this long and play the move whose "
                                         "play-outs end best (0: the network alone; the play-outs done, and so "
                                         "the moves, depend on the machine: --playouts is reproducible).")
                     ] = 0.0,
    playouts: Annotated[int | None, typer.Option(metavar="N", help="Search with exactly N play-outs instead of "
                                                 "for --think seconds (the same fight for the same seed).")
                        ] = None,
    bestiary: BestiaryOption = None,
) -> None:
    """Play the PCs against a bundle's NPCs in the terminal, round by round: pick your moves by number, watch the
    NPCs' choices (with the tactics-card rule behind them; searched with --think or --playouts), roll your own dice
    with --dice manual. 'q' or Ctrl-D quits (exit 0), Ctrl-C interrupts (exit 130)."""
    from npc_tactics.gm.table.play import play as run_play

    def say(line: str) -> None:
        typer.echo(line)

    run_play(system, scenario, bundle, lang=lang, seed=seed, dice=dice, say=say, think=think, playouts=playouts)


@app.command(cls=Command)
def serve(
    bundles: Annotated[Path | None, typer.Option(metavar="DIR", help="A folder of policy bundles (one sub-folder "
                                                 "each, from `npc-tactics export`); only these are served. "
                                                 "Default: the shipped generalists.")] = None,
    host: Annotated[str, typer.Option(metavar="HOST", help="Address to listen on. Keep 127.0.0.1 unless you "
                                      "mean to open the service to your network.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(metavar="PORT", help="TCP port (1 to 65535).")] = 8000,
    workers: Annotated[int | None, typer.Option(metavar="N", help=f"Processes for rollout odds, 1 to {MAX_WORKERS} "
                                                "(default: the CPU count).")] = None,
    queue: Annotated[int, typer.Option(metavar="N", help="Requests with rollouts (odds > 0, POST /odds) that may "
                                       "wait while one runs, 0 to 64; the next is answered 429 with Retry-After, "
                                       "so a flood never takes the threads that answer the page.")] = SERVE_QUEUE,
    time_limit: Annotated[float, typer.Option(metavar="SECONDS", help="Longest a request's rollouts may run, "
                                              "1 to 3600 s; past it the answer is 503 with Retry-After.")
                          ] = SERVE_TIME_LIMIT_S,
    cors: Annotated[str | None, typer.Option(metavar="ORIGIN", help="Let the web page of ORIGIN (e.g. a VTT at "
                                             "http://localhost:30000) call the API from a browser. Off by "
                                             "default.")] = None,
) -> None:
    """Serve the GM web pages and their HTTP API (FastAPI) at http://HOST:PORT/: the suggestion page at /, the
    combat tracker at /tracker; GET /bundles, /bestiary/SYSTEM, POST /suggest, /odds, /fights...; OpenAPI docs
    at /docs."""
    from npc_tactics.gm.service.app import serve as run_server

    check_host(host)
    check_port(port)
    check_workers(workers)
    if not 0 <= queue <= 64:
        raise UserError(f"--queue: expected 0 to 64, got {queue}")
    if not 1.0 <= time_limit <= 3600.0:  # NaN fails both comparisons
        raise UserError(f"--time-limit: expected 1 to 3600 seconds, got {time_limit:g}")
    import re

    if cors is not None and not re.fullmatch(r"https?://[A-Za-z0-9.-]+(:\d{1,5})?", cors):
        raise UserError(f"--cors: expected an origin such as http://localhost:30000, got {cors!r}")
    if bundles is not None:
        if not bundles.is_dir():
            raise UserError(f"--bundles: {bundles} is not a folder")
        if not any((p / "schema.json").is_file() for p in bundles.iterdir() if p.is_dir()):
            raise UserError(f"--bundles: {bundles} holds no bundle (a sub-folder with schema.json, from "
                            "`npc-tactics export`); leave --bundles out to serve the shipped generalists")
    check_listen(host, port)
    what = f"the bundles of {bundles}" if bundles is not None else "the shipped generalists"
    typer.echo(f"npc-tactics: serving {what} on http://{host}:{port}/ (tracker: /tracker, API docs: /docs)")
    run_server(bundles, host=host, port=port, workers=workers, max_waiting=queue, time_limit_s=time_limit,
               cors=cors)


app.command(cls=Command)(probe)
app.command(cls=Command)(distill)
app.command(cls=Command)(leaderboard)
app.command("odds", cls=Command)(odds_command)
app.command("build-encounter", cls=Command)(build_encounter_command)
app.command("bestiary", cls=Command)(bestiary_command)
app.command("import", cls=Command)(import_command)


def _asked_language(argv: list[str] | None) -> str:
    """The ``--lang`` the command line gave (``--lang fr``, ``--lang=fr``), else English: an error raised while the
    command runs is said in it (the option's value was checked before anything ran, or it is English)."""
    args = list(sys.argv[1:] if argv is None else argv)
    for k, arg in enumerate(args):
        value = args[k + 1] if arg == "--lang" and k + 1 < len(args) else arg.removeprefix("--lang=")
        if (arg == "--lang" or arg.startswith("--lang=")) and value in ("en", "fr"):
            return value
    return "en"


def main(argv: list[str] | None = None) -> None:
    """Entry point: user errors and usage errors become one line on stderr and exit code 2."""
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
        code = app(args=argv, prog_name="npc-tactics", standalone_mode=False)
    except UserError as exc:  # in the language the command was asked to speak (`--lang fr`), where it has one
        from npc_tactics.i18n import error_in

        typer.echo(f"npc-tactics: error: {error_in(exc, _asked_language(argv))}", err=True)
        sys.exit(2)
    except typer.Abort:
        typer.echo("npc-tactics: interrupted", err=True)
        sys.exit(130)
    except OSError as exc:  # the user's file system said no (name too long, permission, disk full ...)
        name = f"{shown(str(exc.filename))}: " if exc.filename is not None else ""
        typer.echo(f"npc-tactics: error: {name}{one_line(exc.strerror or str(exc))}", err=True)
        sys.exit(2)
    except typer.TyperException as exc:  # click's usage errors: bad option value, missing argument ...
        if type(exc).__name__ == "NoArgsIsHelpError":
            exc.show()  # type: ignore[attr-defined]  # click's own help screen
            sys.exit(int(getattr(exc, "exit_code", 2)))
        ctx = getattr(exc, "ctx", None)
        where = ctx.command_path if ctx is not None else "npc-tactics"
        message = exc.format_message() if hasattr(exc, "format_message") else str(exc)
        typer.echo(f"{where}: error: {one_line(message)} (see `{where} --help`)", err=True)
        sys.exit(int(getattr(exc, "exit_code", 2) or 2))
    finally:
        warnings.showwarning = default_show
    sys.exit(code if isinstance(code, int) else 0)


if __name__ == "__main__":
    main()
