"""Policy distillation: one network that plays like a generalist run on its encounter distribution and like a
specialist run on that specialist's scenario (Rusu et al. 2016, "Policy distillation"; the second round
labels the student's own fights, DAgger, Ross et al. 2011).

Why: training on a mixture, a generalist can fail a fight a specialist learns in a few hundred thousand
steps (MRQ's whip_vs_martial_artist: every generalist run 39-58%, by-the-book 64%, a specialist 84% at
200k timesteps), and weighting that fight more in the mixture cost others (docs/encounters.md). Distilling
keeps both: the student starts from the generalist's weights and is fitted to the generalist's move
probabilities on fights of its distribution and to the specialist's on fights of the specialist's scenario.

What is played. Each round plays ``fights`` fights drawn from the base run's encounter distribution (the same
draws every round, from the training range through ``training_seed``, so never a held-out or validation
fight; new dice each round, seeded from :data:`DISTILL_SEED`) and
``scenario_fights`` fights of each teacher's scenario, the base's seat against its training pool's fixed
opponents (drawn by weight). A teacher trained on an encounter distribution instead of one scenario (a tactic
taught over a family of fights, so that it holds beyond one fight's states) is named by any label, and its
``scenario_fights`` are drawn from that distribution (from :data:`FAMILY_SEED`, the same draws every round;
a draw that is a scenario teacher's scenario is that teacher's, as in the base's draws).
Round 1's fights are played by the teachers (a drawn fight that is a teacher's
scenario by that teacher, every other by the base); later rounds by the student so far. Every decision of
the seat is labelled with its teacher's masked probabilities (the teacher of the fight it came from); the
student's actor (its value head is left alone: only the actor is exported) is fitted to all labels so far by
cross-entropy, ``epochs`` passes a round. Deterministic given ``seed``: same runs, same student, byte for
byte.

**A losing teacher** (``losing_teacher``, a retreat specialist, e.g. one trained on fights the NPCs are far
outmatched in): on the fights of the base's distribution, every decision where the NPC is losing
(:func:`npc_tactics.evaluation.losing.is_losing`: a way out is legal, and the actor is at most half its HP or its
side well behind, the test the retreat report measures on) is labelled by it instead of the base, and in round 1
played by it. Why: a retreat teacher distilled on its own distribution kept its tactic on its own states only,
while the base's "fight on" ruled the losing states of the base's fights (docs/encounters.md, eighth pass).

The output is a run folder (config.yaml and meta.json of the base, ``policy.pt`` the student's weights,
``distill.json`` what was done and how closely the student follows each teacher, ``eval_history.csv`` the
student's own evaluation as training writes it, at the base's timesteps) that ``export``, ``evaluate`` and
``card`` read like any run.

**Expert iteration** (``search=N``; Anthony et al. 2017, "Thinking fast and slow with deep learning and tree
search"): the fights of the base's distribution are labelled by the decision-time search of
:mod:`npc_tactics.agents.search` over the student so far (N play-outs a decision, the other side by
``search_opponent``) instead of by the base: round 1's fights are played by that search, later rounds' by the
student, every decision labelled with the search's move. The student thus learns what the search finds, and the
next round's search starts from a better policy. Teachers are then optional.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from npc_tactics.errors import UserError
from npc_tactics.training.distill_fit import agreement, cross_entropy, fit, probabilities
from npc_tactics.training.distill_labels import LOSING, SEARCH, Labels, LosingGate, Recorder, SearchLabeller

__all__ = ["DISTILL_SEED", "FAMILY_SEED", "BASE", "LOSING", "SEARCH", "DistillSettings", "distill"]

#: the first seed of distillation fights: their draws go through training_seed (training-range draws, never a
#: held-out or validation fight); their dice seeds start at DISTILL_SEED + 1,000,000 per round
DISTILL_SEED = 7_000_000
#: the first seed of the fights drawn from a distribution teacher's encounters (training-range draws, as above)
FAMILY_SEED = DISTILL_SEED + 50_000_000
#: the group of states labelled by the base run (fights that are no teacher's scenario)
BASE = "base"


@dataclass(frozen=True)
class DistillSettings:
    """How much is played and fitted (module docstring)."""

    fights: int = 2_000
    scenario_fights: int = 400
    rounds: int = 2
    epochs: int = 8
    batch_size: int = 512
    learning_rate: float = 3e-4
    seed: int = 0
    #: play-outs per decision of the search that labels the base's fights (expert iteration); 0: the base labels
    search: int = 0
    search_opponent: str = "by-the-book"
    #: how much more a decision of the losing teacher's counts in the fit than any other (1: the same)
    losing_weight: float = 1.0

    def __post_init__(self) -> None:
        if isinstance(self.search, bool) or not isinstance(self.search, int) or self.search < 0:
            raise UserError(f"distill: search: expected a whole number of play-outs, 0 or more, got {self.search!r}")
        for name in ("fights", "scenario_fights", "rounds", "epochs", "batch_size"):
            if getattr(self, name) < 1:
                raise UserError(f"distill: {name}: expected at least 1, got {getattr(self, name)}")
        if not 1 <= self.losing_weight <= 1_000:
            raise UserError(f"distill: losing_weight: expected a number from 1 to 1000, got {self.losing_weight}")
        if not 0 < self.learning_rate < 1:
            raise UserError(f"distill: learning_rate: expected a number in (0, 1), got {self.learning_rate}")


def _sha256(path: Path) -> str:
    from npc_tactics.policy_io.bundle import sha256_hex

    return sha256_hex(Path(path).read_bytes())


def _load(run: Path, what: str) -> tuple[Any, Any]:
    """The run's policy agent and validated training config; a one-line error names ``what`` it was for."""
    from npc_tactics.agents.policy import load_policy_agent
    from npc_tactics.training.config import load_train_config

    if not (run / "config.yaml").is_file():
        raise UserError(f"{run}: {what}: not a training run (config.yaml is missing)")
    config = load_train_config(run / "config.yaml")
    return load_policy_agent(run), config


def _opponents(config: Any) -> tuple[list[str], np.ndarray]:
    """The base's fixed training opponents (``fixed_opponents``) and their weights."""
    from npc_tactics.training.config import SELF

    entries = [e for e in config.pool_entries() if e.agent != SELF]
    if not entries:
        return list(config.fixed_opponents), np.ones(1)
    weights = np.array([e.weight for e in entries], dtype=float)
    return [e.agent for e in entries], weights / weights.sum()


def _evaluation(student: Any, config: Any, names: list[str], timesteps: int) -> list[dict[str, Any]]:
    """The rows training's evaluation writes, for the student: ``budget.eval_episodes`` fights against each of
    the base's fixed opponents on the evaluation seeds, so the trust lines of suggest compare like with like."""
    from npc_tactics.training.evaluate import evaluate_policy

    rows = []
    for name in dict.fromkeys(names):
        row = evaluate_policy(student, config, name, config.budget.eval_episodes, config.seed)
        rows.append({**row, "opponent": name, "timesteps": timesteps})
    return rows


def _write_run(config_file: Path, meta: dict[str, Any], out: Path, student: Any, report: Mapping[str, Any],
               force: bool, evaluation: list[dict[str, Any]]) -> None:
    """The student's run folder, written next to ``out`` and moved into place whole."""
    from npc_tactics.runs import POLICY_FILE
    from npc_tactics.training.run_dir import append_eval_rows, tensor_bytes, write_json

    if out.exists() and not force:
        raise UserError(f"--out: {out} already exists (use --force to replace it)")
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(dir=out.parent, prefix=f".{out.name}.distill-"))
    try:
        shutil.copyfile(config_file, staging / "config.yaml")
        meta = dict(meta)
        # the distributions its distribution teachers taught it on: export measures the observation range over
        # them too, since the student was fitted on their states
        families = {k: v["encounter"] for k, v in report["teachers"].items() if "encounter" in v}
        meta["distilled"] = {"base": report["base"]["run"],
                             "teachers": {k: v["run"] for k, v in report["teachers"].items()},
                             **({"losing": report["losing_teacher"]["run"]} if "losing_teacher" in report else {}),
                             **({"families": families} if families else {}),
                             **({"search": report["settings"]["search"]} if report["settings"]["search"] else {})}
        write_json(staging / "meta.json", meta)
        (staging / POLICY_FILE).write_bytes(tensor_bytes(student.state_dict()))
        write_json(staging / "distill.json", dict(report))
        append_eval_rows(staging / "eval_history.csv", evaluation)
        if out.exists():
            trash = out.with_name(f".{out.name}.old-{staging.name[-8:]}")
            out.rename(trash)
            try:
                staging.rename(out)
            except BaseException:
                trash.rename(out)  # put the previous student back
                raise
            shutil.rmtree(trash, ignore_errors=True)
        else:
            staging.rename(out)
    finally:
        if staging.exists():
            shutil.rmtree(staging, ignore_errors=True)


def distill(base: Path, teachers: Mapping[str, Path], out: Path, settings: DistillSettings = DistillSettings(), *,
            config_path: Path | None = None, member: int = 0, force: bool = False, losing_teacher: Path | None = None,
            progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Distil ``base`` (a generalist run, or a bundle with the training config ``config_path`` of its runs, the
    student then starting from network ``member``: :mod:`npc_tactics.training.distill_bundle`), ``losing_teacher``
    (a retreat specialist: it labels the base's decisions where the NPC is losing) and ``teachers``
    (scenario name -> specialist run) into one run folder ``out``; returns the report also written to
    ``out/distill.json`` (module docstring)."""
    from npc_tactics.agents.resolve import factory_of
    from npc_tactics.agents.search import SearchAgent
    from npc_tactics.encounters.generator import Generator, training_seed
    from npc_tactics.encounters.spec import load_encounter
    from npc_tactics.evaluation.fight import agent_rngs, play_fight
    from npc_tactics.evaluation.losing import leave_actions
    from npc_tactics.policy_io.bundle import is_bundle_dir, sha256_hex
    from npc_tactics.training.distill_bundle import load_bundle_base
    from npc_tactics.training.run_dir import read_json

    say = progress or (lambda _line: None)
    if out.exists() and not force:
        raise UserError(f"--out: {out} already exists (use --force to replace it)")
    for run in (base, *teachers.values(), *([losing_teacher] if losing_teacher is not None else [])):
        if out.resolve() == run.resolve():
            raise UserError(f"--out: {out} is one of the runs distilled; write the student to another folder")
    if out.exists() and (not out.is_dir() or (any(out.iterdir()) and not (out / "distill.json").is_file())):
        raise UserError(f"--out: {out} holds files that are not a distilled run; refusing to replace it")
    if is_bundle_dir(base):
        bundle_base = load_bundle_base(base, config_path, member)
        base_agent, config, student = bundle_base.labeller, bundle_base.config, bundle_base.student
        base_meta, config_file = bundle_base.meta, bundle_base.config_path
        base_report = {"run": base.resolve().name, "bundle": True, "member": member, "config": str(config_file),
                       "weights_sha256": sha256_hex(bundle_base.onnx_bytes)}
    else:
        if config_path is not None or member:
            raise UserError(f"{base}: --config and --member are for a bundle as the base; a run folder has its own "
                            "config.yaml and one network")
        base_agent, config = _load(base, "the base run")
        student, _ = _load(base, "the base run")
        base_meta = read_json(base / "meta.json") if (base / "meta.json").is_file() else {}
        config_file = base / "config.yaml"
        base_report = {"run": base.resolve().name, "weights_sha256": _sha256(base_agent.checkpoint)}
    if config.encounter is None or not isinstance(config.side, int):
        raise UserError(f"{base}: the base run must be trained on an encounter distribution from one seat "
                        "(a generalist), not on one scenario")
    if not teachers and not settings.search and losing_teacher is None:
        raise UserError("distill: name at least one teacher (--teacher SCENARIO=RUN, --losing-teacher RUN) or a "
                        "search (--search N)")
    if LOSING in teachers:
        raise UserError(f"--teacher: {LOSING!r} names the losing teacher's states; give this teacher another name")
    if losing_teacher is not None and settings.search:
        raise UserError("distill: --losing-teacher and --search both label the base's fights; give one of them")
    info = config.plugin
    engine = info.load("engine")(dict(config.options))
    encoder = info.load("encoder")(engine)
    content = info.load("content")
    agents: dict[str, Any] = {BASE: base_agent}
    scenarios: dict[str, Any] = {}  # a scenario teacher's shipped scenario
    families: dict[str, Any] = {}  # a distribution teacher's encounters (a Generator)
    encounters: dict[str, str] = {}  # ... and the distribution's name or file, as its config gives it
    for name, run in teachers.items():
        agent, teacher_config = _load(run, f"the teacher of {name}")
        if teacher_config.system != config.system or teacher_config.side != config.side:
            raise UserError(f"{run}: the teacher of {name} plays {teacher_config.system} side "
                            f"{teacher_config.side}, the base {config.system} side {config.side}")
        if teacher_config.encounter is not None:
            families[name] = Generator(load_encounter(teacher_config.encounter, info))
            encounters[name] = str(teacher_config.encounter)
        else:
            scenarios[name] = content.load_scenario(name)
        agents[name] = agent
    leave: frozenset[int] = frozenset()
    if losing_teacher is not None:
        agent, teacher_config = _load(losing_teacher, "the losing teacher")
        if teacher_config.system != config.system or teacher_config.side != config.side:
            raise UserError(f"{losing_teacher}: the losing teacher plays {teacher_config.system} side "
                            f"{teacher_config.side}, the base {config.system} side {config.side}")
        agents[LOSING] = agent
        leave = leave_actions(config.system, engine)
        if not leave:
            raise UserError(f"--losing-teacher: {config.system} has no leave moves, so no state is losing")
    generator = Generator(load_encounter(config.encounter, info))
    names, weights = _opponents(config)
    opponents = [factory_of(info, n) for n in names]
    search_opponent = factory_of(info, settings.search_opponent)
    seat, sides = int(config.side), int(engine.spec.sides)
    labels = Labels()
    rounds: list[dict[str, Any]] = []
    for r in range(settings.rounds):
        pick = np.random.default_rng([settings.seed, r, 0])
        plays: list[tuple[str, Any]] = []
        for i in range(settings.fights):
            drawn = generator.draw(training_seed(DISTILL_SEED + settings.seed * 100_000 + i))
            name = str(getattr(drawn.scenario, "name", ""))
            plays.append((name if name in scenarios else BASE, drawn))
        for name in teachers:
            for j in range(settings.scenario_fights):
                if name in scenarios:
                    plays.append((name, scenarios[name]))
                    continue
                drawn = families[name].draw(training_seed(FAMILY_SEED + settings.seed * 100_000 + j))
                shipped = str(getattr(drawn.scenario, "name", ""))  # a scenario teacher's own fight stays its own
                plays.append((shipped if shipped in scenarios else name, drawn))
        for i, (group, fight) in enumerate(plays):
            dice = DISTILL_SEED + 1_000_000 * (r + 1) + settings.seed * 100_000 + i
            rngs = agent_rngs(dice, sides)
            seated = [opponents[int(pick.choice(len(opponents), p=weights))](engine, rngs[s]) for s in range(sides)]
            if group == BASE and settings.search:
                search = SearchAgent(engine, np.random.default_rng([settings.seed, r, i]),
                                     policy=lambda _e, _r: student, opponent=search_opponent,
                                     budget=settings.search, encoder=encoder)
                seated[seat] = SearchLabeller(search, None if r == 0 else student, labels)
            else:
                gate = (LosingGate(leave, agents[LOSING] if r == 0 else None)
                        if group == BASE and losing_teacher is not None else None)
                seated[seat] = Recorder(agents[group] if r == 0 else student, labels, group, gate)
            play_fight(engine, encoder, fight, seated, dice)
        vectors, masks = np.stack(labels.vectors), np.stack(labels.masks)
        groups, chosen = np.array(labels.groups), np.array(labels.chosen)
        targets = np.zeros(masks.shape, dtype=np.float32)
        searched = chosen >= 0
        targets[np.flatnonzero(searched), chosen[searched]] = 1.0
        for group, agent in agents.items():
            rows = (groups == group) & ~searched
            if rows.any():
                targets[rows] = probabilities(agent.policy, vectors[rows], masks[rows])
        before = agreement(student.policy, vectors, masks, targets, groups)
        row_weights = (np.where(groups == LOSING, settings.losing_weight, 1.0).astype(np.float32)
                       if settings.losing_weight != 1 else None)
        loss_before = cross_entropy(student.policy, vectors, masks, targets, row_weights)
        loss = fit(student.policy, vectors, masks, targets, settings, r, row_weights)
        after = agreement(student.policy, vectors, masks, targets, groups)
        counts = {str(g): int((groups == g).sum()) for g in np.unique(groups)}
        rounds.append({"decisions": counts, "agreement_before": before, "agreement_after": after,
                       "loss_before": round(loss_before, 5), "loss": round(loss, 5)})
        say(f"round {r + 1}/{settings.rounds}: {len(groups)} decisions; agrees with its teacher on "
            + ", ".join(f"{g} {after[g]:.1%}" for g in sorted(after)))
    report: dict[str, Any] = {
        "base": base_report,
        "teachers": {name: {"run": run.resolve().name, "weights_sha256": _sha256(agents[name].checkpoint),
                            **({"encounter": encounters[name]} if name in encounters else {})}
                     for name, run in teachers.items()},
        **({"losing_teacher": {"run": losing_teacher.resolve().name,
                               "weights_sha256": _sha256(agents[LOSING].checkpoint)}}
           if losing_teacher is not None else {}),
        "opponents": dict(zip(names, [round(float(w), 4) for w in weights], strict=True)),
        "settings": {k: getattr(settings, k) for k in ("fights", "scenario_fights", "rounds", "epochs",
                                                       "batch_size", "learning_rate", "seed", "search",
                                                       "search_opponent")}
        | ({"losing_weight": settings.losing_weight} if settings.losing_weight != 1 else {}),
        "rounds": rounds,
    }
    timesteps = int(base_meta.get("timesteps") or 0)
    evaluation = _evaluation(student.policy, config, names, timesteps)
    wins = {str(row["opponent"]): round(float(row["win_rate"]), 4) for row in evaluation}
    report["evaluation"] = wins
    say("evaluation: " + ", ".join(f"{k} {v:.0%} wins" for k, v in wins.items()))
    _write_run(config_file, base_meta, out, student.policy, report, force, evaluation)
    return report
