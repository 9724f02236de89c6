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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from npc_tactics.errors import UserError

__all__ = ["DISTILL_SEED", "FAMILY_SEED", "BASE", "SEARCH", "DistillSettings", "distill"]

#: the first seed of distillation fights: their draws go through training_seed (training-range draws, never a
#: held-out or validation fight); their dice seeds start at DISTILL_SEED + 1,000,000 per round
DISTILL_SEED = 7_000_000
#: the first seed of the fights drawn from a distribution teacher's encounters (training-range draws, as above)
FAMILY_SEED = DISTILL_SEED + 50_000_000
#: the group of states labelled by the base run (fights that are no teacher's scenario)
BASE = "base"
#: the group of states labelled by the search over the student (expert iteration)
SEARCH = "search"


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

    def __post_init__(self) -> None:
        if isinstance(self.search, bool) or not isinstance(self.search, int) or self.search < 0:
            raise UserError(f"distill: search: expected a whole number of play-outs, 0 or more, got {self.search!r}")
        for name in ("fights", "scenario_fights", "rounds", "epochs", "batch_size"):
            if getattr(self, name) < 1:
                raise UserError(f"distill: {name}: expected at least 1, got {getattr(self, name)}")
        if not 0 < self.learning_rate < 1:
            raise UserError(f"distill: learning_rate: expected a number in (0, 1), got {self.learning_rate}")


@dataclass
class _Labels:
    """The seat's decisions collected so far: observation, legal mask and the teacher group of each."""

    vectors: list[np.ndarray] = field(default_factory=list)
    masks: list[np.ndarray] = field(default_factory=list)
    groups: list[str] = field(default_factory=list)
    #: the move a search chose at that decision (its label), or -1 where the group's teacher labels it
    chosen: list[int] = field(default_factory=list)


class _Recorder:
    """Plays ``inner`` and keeps every decision it answers under ``group``."""

    def __init__(self, inner: Any, labels: _Labels, group: str) -> None:
        self.inner, self.labels, self.group = inner, labels, group
        self.name = getattr(inner, "name", "recorded")

    def act(self, observation: Any, mask: np.ndarray) -> int:
        self.labels.vectors.append(np.asarray(observation.vector, dtype=np.float32).copy())
        self.labels.masks.append(np.array(mask, dtype=bool))
        self.labels.groups.append(self.group)
        self.labels.chosen.append(-1)
        return int(self.inner.act(observation, mask))


class _SearchLabeller:
    """Asks ``search`` at every decision and keeps its move as the label; plays that move (``expert``, round 1)
    or the student's (``player``, DAgger)."""

    def __init__(self, search: Any, player: Any | None, labels: _Labels) -> None:
        self.search, self.player, self.labels = search, player, labels
        self.name = "search"

    def act(self, observation: Any, mask: np.ndarray) -> int:
        # copied before the search: an encoder may hand out one buffer that the play-outs' encodings overwrite
        self.labels.vectors.append(np.asarray(observation.vector, dtype=np.float32).copy())
        choice = int(self.search.act(observation, mask))
        self.labels.masks.append(np.array(mask, dtype=bool))
        self.labels.groups.append(SEARCH)
        self.labels.chosen.append(choice)
        return choice if self.player is None else int(self.player.act(observation, mask))


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


def _probabilities(policy: Any, vectors: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """Masked move probabilities of a torch policy or a bundle's network (``OnnxPolicy``) for a batch."""
    if hasattr(policy, "session"):  # a bundle's onnxruntime network, an ensemble's average included
        probs = np.where(masks, np.asarray(policy.probabilities(vectors, masks), dtype=np.float64), 0.0)
        return probs / probs.sum(axis=1, keepdims=True)
    import torch as th

    with th.no_grad():
        dist = policy.get_distribution(th.as_tensor(vectors), action_masks=masks)
        probs = dist.distribution.probs.cpu().numpy()
    probs = np.where(masks, probs, 0.0)
    return probs / probs.sum(axis=1, keepdims=True)


def _agreement(student: Any, vectors: np.ndarray, masks: np.ndarray, targets: np.ndarray,
               groups: np.ndarray) -> dict[str, float]:
    """Per group, the share of decisions where the student's most probable move is the teacher's."""
    mine = _probabilities(student, vectors, masks).argmax(axis=1)
    theirs = targets.argmax(axis=1)
    return {str(g): round(float((mine[groups == g] == theirs[groups == g]).mean()), 4) for g in np.unique(groups)}


def _cross_entropy(student: Any, vectors: np.ndarray, masks: np.ndarray, targets: np.ndarray) -> float:
    """The mean masked cross-entropy of the student's actor against ``targets`` (what :func:`_fit` lowers)."""
    import torch as th

    with th.no_grad():
        latent = student.mlp_extractor.policy_net(student.extract_features(th.as_tensor(vectors),
                                                                           student.pi_features_extractor))
        logits = student.action_net(latent).masked_fill(~th.as_tensor(masks), -1e8)
        p = th.as_tensor(targets, dtype=th.float32)
        return float(-(p * th.log_softmax(logits, dim=1)).sum(dim=1).mean())


def _fit(student: Any, vectors: np.ndarray, masks: np.ndarray, targets: np.ndarray, settings: DistillSettings,
         round_index: int) -> float:
    """``epochs`` passes of masked soft cross-entropy on the student's actor; the last pass's mean loss."""
    import torch as th

    th.manual_seed(settings.seed * 1_000 + round_index)
    params = (list(student.features_extractor.parameters()) + list(student.mlp_extractor.policy_net.parameters())
              + list(student.action_net.parameters()))
    optimiser = th.optim.Adam(params, lr=settings.learning_rate)
    x, m, p = th.as_tensor(vectors), th.as_tensor(masks), th.as_tensor(targets, dtype=th.float32)
    order = th.Generator().manual_seed(settings.seed * 1_000 + round_index)
    student.set_training_mode(True)
    loss_sum = 0.0
    for _ in range(settings.epochs):
        loss_sum = 0.0
        for batch in th.randperm(len(x), generator=order).split(settings.batch_size):
            latent = student.mlp_extractor.policy_net(student.extract_features(x[batch], student.pi_features_extractor))
            logits = student.action_net(latent).masked_fill(~m[batch], -1e8)
            loss = -(p[batch] * th.log_softmax(logits, dim=1)).sum(dim=1).mean()
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            loss_sum += float(loss.detach()) * len(batch)
    student.set_training_mode(False)
    return loss_sum / len(x)


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
            config_path: Path | None = None, member: int = 0, force: bool = False,
            progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Distil ``base`` (a generalist run, or a bundle with the training config ``config_path`` of its runs, the
    student then starting from network ``member``: :mod:`npc_tactics.training.distill_bundle`) and ``teachers``
    (scenario name -> specialist run) into one run folder ``out``; returns the report also written to
    ``out/distill.json`` (module docstring)."""
    from npc_tactics.agents.resolve import factory_of
    from npc_tactics.agents.search import SearchAgent
    from npc_tactics.encounters.generator import Generator, training_seed
    from npc_tactics.encounters.spec import load_encounter
    from npc_tactics.evaluation.fight import agent_rngs, play_fight
    from npc_tactics.policy_io.bundle import is_bundle_dir, sha256_hex
    from npc_tactics.training.distill_bundle import load_bundle_base
    from npc_tactics.training.run_dir import read_json

    say = progress or (lambda _line: None)
    if out.exists() and not force:
        raise UserError(f"--out: {out} already exists (use --force to replace it)")
    for run in (base, *teachers.values()):
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
    if not teachers and not settings.search:
        raise UserError("distill: name at least one teacher (--teacher SCENARIO=RUN) or a search (--search N)")
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
    generator = Generator(load_encounter(config.encounter, info))
    names, weights = _opponents(config)
    opponents = [factory_of(info, n) for n in names]
    search_opponent = factory_of(info, settings.search_opponent)
    seat, sides = int(config.side), int(engine.spec.sides)
    labels = _Labels()
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
                seated[seat] = _SearchLabeller(search, None if r == 0 else student, labels)
            else:
                seated[seat] = _Recorder(agents[group] if r == 0 else student, labels, group)
            play_fight(engine, encoder, fight, seated, dice)
        vectors, masks = np.stack(labels.vectors), np.stack(labels.masks)
        groups, chosen = np.array(labels.groups), np.array(labels.chosen)
        targets = np.zeros(masks.shape, dtype=np.float32)
        searched = chosen >= 0
        targets[np.flatnonzero(searched), chosen[searched]] = 1.0
        for group, agent in agents.items():
            rows = (groups == group) & ~searched
            if rows.any():
                targets[rows] = _probabilities(agent.policy, vectors[rows], masks[rows])
        before = _agreement(student.policy, vectors, masks, targets, groups)
        loss_before = _cross_entropy(student.policy, vectors, masks, targets)
        loss = _fit(student.policy, vectors, masks, targets, settings, r)
        after = _agreement(student.policy, vectors, masks, targets, groups)
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
        "opponents": dict(zip(names, [round(float(w), 4) for w in weights], strict=True)),
        "settings": {k: getattr(settings, k) for k in ("fights", "scenario_fights", "rounds", "epochs",
                                                       "batch_size", "learning_rate", "seed", "search",
                                                       "search_opponent")},
        "rounds": rounds,
    }
    timesteps = int(base_meta.get("timesteps") or 0)
    evaluation = _evaluation(student.policy, config, names, timesteps)
    wins = {str(row["opponent"]): round(float(row["win_rate"]), 4) for row in evaluation}
    report["evaluation"] = wins
    say("evaluation: " + ", ".join(f"{k} {v:.0%} wins" for k, v in wins.items()))
    _write_run(config_file, base_meta, out, student.policy, report, force, evaluation)
    return report
