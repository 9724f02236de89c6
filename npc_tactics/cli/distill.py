"""``npc-tactics distill BASE --teacher SCENARIO=RUN ... --out DIR``: the command's typer function (registered
in :mod:`npc_tactics.cli.main`)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from npc_tactics.cli.support import check_out
from npc_tactics.errors import UserError

__all__ = ["distill"]


def _teachers(specs: list[str]) -> dict[str, Path]:
    out: dict[str, Path] = {}
    for spec in specs:
        scenario, sep, run = spec.partition("=")
        if not sep or not scenario or not run:
            raise UserError(f"--teacher: expected SCENARIO=RUN_DIR (e.g. whip_vs_martial_artist=runs/whip), "
                            f"got {spec!r}")
        if scenario in out:
            raise UserError(f"--teacher: scenario {scenario!r} is named twice")
        out[scenario] = Path(run)
    return out


def distill(
    base: Annotated[Path, typer.Argument(
        metavar="BASE", help="A generalist run (trained on an encounter distribution): the student starts "
        "from its weights and follows it on every fight that is no teacher's scenario. Or an exported bundle "
        "(an ensemble's too) with --config: the bundle labels those fights, the student starts from one of its "
        "networks (--member).")],
    out: Annotated[Path, typer.Option(metavar="DIR", help="The run folder to write (export, evaluate and card "
                                      "read it like any run).")],
    teacher: Annotated[list[str] | None, typer.Option(
        "--teacher", metavar="SCENARIO=RUN_DIR", help="A specialist run and the shipped scenario it teaches; "
        "repeat for several. A specialist trained on an encounter distribution takes any NAME, and its fights are "
        "drawn from that distribution.")] = None,
    fights: Annotated[int, typer.Option(metavar="N", min=1, max=1_000_000,
                                        help="Fights drawn from the base's distribution per round.")] = 2_000,
    scenario_fights: Annotated[int, typer.Option(metavar="N", min=1, max=1_000_000,
                                                 help="Fights of each teacher's scenario (or drawn from "
                                                 "its distribution) per round.")] = 400,
    rounds: Annotated[int, typer.Option(metavar="N", min=1, max=20, help="Rounds: the first played by the "
                                        "teachers, the others by the student so far (DAgger).")] = 2,
    epochs: Annotated[int, typer.Option(metavar="N", min=1, max=1_000,
                                        help="Passes over the labelled decisions per round.")] = 8,
    seed: Annotated[int, typer.Option(metavar="SEED", min=0, max=2**31 - 1,
                                      help="Seed of the fights, the opponents drawn and the fitting.")] = 0,
    search: Annotated[int, typer.Option(metavar="N", min=0, max=100_000, help="Expert iteration: label the "
                                        "fights of the base's distribution with the moves a search of N play-outs "
                                        "a decision finds over the student so far, instead of the base's (0: "
                                        "none); docs/search.md.")] = 0,
    config: Annotated[Path | None, typer.Option(metavar="FILE", help="With a bundle as BASE: the training config "
                                                "of its runs (the distribution played, the seat, the opponents, "
                                                "net_arch), e.g. npc_tactics/configs/policies/runequest.yaml.")] = None,
    member: Annotated[int, typer.Option(metavar="K", min=0, max=63, help="With a bundle as BASE: the network of "
                                        "an ensemble the student starts from (0: the first run exported).")] = 0,
    losing_teacher: Annotated[Path | None, typer.Option(
        metavar="RUN_DIR", help="A retreat specialist run: it labels (and in round 1 plays) the base's decisions "
        "where the NPC is losing (a way out is legal and the actor is at most half its HP or its side well "
        "behind), instead of the base.")] = None,
    losing_weight: Annotated[float, typer.Option(metavar="W", min=1, max=1_000, help="How many times more a "
                                                 "decision the losing teacher labels counts in the fit.")] = 1.0,
    force: Annotated[bool, typer.Option(metavar="", help="Replace an existing run folder in --out.")] = False,
) -> None:
    """Distil a generalist run and specialist runs into one policy that plays like the generalist on its
    encounter distribution and like each specialist on its scenario (policy distillation; the later rounds
    label the student's own fights). A bundle as BASE (with --config) is distilled too, an ensemble into one
    network. Writes a run folder with distill.json: how closely the student follows each teacher. With
    --search N (teachers optional), expert iteration: the student learns the moves a decision-time search over
    itself finds. Export it with `npc-tactics export DIR --out BUNDLE`."""
    from npc_tactics.training.distill import DistillSettings
    from npc_tactics.training.distill import distill as run_distill

    teachers = _teachers(teacher or [])
    check_out(out)
    settings = DistillSettings(fights=fights, scenario_fights=scenario_fights, rounds=rounds, epochs=epochs,
                               seed=seed, search=search, losing_weight=losing_weight)
    report = run_distill(base, teachers, out, settings, config_path=config, member=member, force=force,
                         losing_teacher=losing_teacher, progress=typer.echo)
    last = report["rounds"][-1]
    typer.echo(f"student: {out} (from {report['base']['run']}; teachers "
               + (", ".join(f"{k}={v['run']}" for k, v in report["teachers"].items()) or "none")
               + (f"; losing teacher {report['losing_teacher']['run']}" if "losing_teacher" in report else "")
               + (f"; search of {search} play-outs a decision" if search else "") + ")")
    typer.echo("agrees with its teacher: " + ", ".join(f"{g} {a:.1%} of {last['decisions'][g]} decisions"
                                                       for g, a in sorted(last["agreement_after"].items())))
