"""What should this NPC do now? Rank the legal moves of the acting NPC with a trained policy.

A GM describes the fight in the system's own terms (a situation YAML: combatants from the bestiary, current
wounds, distances, who is engaged, the round, and which NPC acts); the system's ``content.load_situation``
turns it into an engine state at that NPC's decision; the policy's masked probabilities rank the moves.
Whatever the loader had to assume (HP rolled because none was given, a default filled in) comes back as
plain-English ``assumptions`` lines, printed with the ranking and in ``--json``: the GM sees what the advice
rests on.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from npc_tactics.configs.sniff import wrong_system_error
from npc_tactics.dice import RngRoller
from npc_tactics.errors import ConfigError, UserError
from npc_tactics.systems import get_system


@dataclass(frozen=True)
class RankedMove:
    action: int
    name: str
    probability: float


@dataclass(frozen=True)
class Suggestion:
    system: str
    actor: str
    decision: str
    round: int
    moves: list[RankedMove]
    notes: list[str] = field(default_factory=list)
    situation_text: str = ""
    assumptions: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "system": self.system,
            "actor": self.actor,
            "decision": self.decision,
            "round": self.round,
            "moves": [{"action": m.name, "index": m.action, "probability": round(m.probability, 4)}
                      for m in self.moves],
            "notes": list(self.notes),
            "assumptions": list(self.assumptions),
        }

    def format(self) -> str:
        lines = [f"{self.actor} ({self.system}, round {self.round}, {self.decision.lower()} decision):"]
        for rank, m in enumerate(self.moves, 1):
            bar = "#" * int(round(m.probability * 30))
            lines.append(f"  {rank:2d}. {m.name:<28} {m.probability:6.1%} {bar}")
        lines.extend(f"  note: {n}" for n in self.notes)
        lines.extend(f"  assumed: {a}" for a in self.assumptions)
        return "\n".join(lines)


def _run_system(run: Path) -> tuple[str, dict[str, Any]]:
    """The system and rules options of a run folder, from its validated config.yaml (no model loaded)."""
    from npc_tactics.runs import RunDir

    config = RunDir(run).config()
    return config.system, dict(config.options)


def suggest(run_dir: str | Path, situation: str | Path | dict[str, Any], *, seed: int = 0,
            policy: Any | None = None) -> Suggestion:
    """Rank the legal moves of the NPC that acts in ``situation`` with the policy of ``run_dir`` (or ``policy``,
    e.g. a bundle's :class:`~npc_tactics.policy_io.onnx_agent.OnnxAgent`, whose warnings and out-of-range
    features become notes).

    Raises :class:`~npc_tactics.errors.UserError` (bad run dir) or ``ConfigError`` (bad situation file).
    The situation is read before the policy is loaded (the run's config.yaml names the system and rules
    options), so a mistake in it is reported without waiting for torch.
    """
    if policy is not None:
        system, options = policy.system, getattr(policy, "options", None) or {}
    else:
        system, options = _run_system(Path(run_dir))
    info = get_system(system)
    engine = info.load("engine")(options)
    content = info.load("content")
    assumptions: list[str] = []
    try:
        state = content.load_situation(engine, situation, RngRoller(np.random.default_rng(seed)), notes=assumptions)
    except ConfigError as exc:
        raise wrong_system_error(exc, situation, "situation", info.name, f"the run {run_dir} is") from None
    if policy is None:
        import warnings

        from npc_tactics.agents.policy import load_policy_agent
        from npc_tactics.runs import RulesVersionWarning

        with warnings.catch_warnings():  # the agent's notes carry it into the suggestion instead
            warnings.simplefilter("ignore", RulesVersionWarning)
            policy = load_policy_agent(run_dir)
    agent = policy
    encoder = info.load("encoder")(engine)
    size = int(getattr(encoder, "size", 0))
    wants = getattr(agent, "obs_size", None)
    if isinstance(wants, int) and size and wants != size:
        raise UserError(
            f"{run_dir}: its policy reads {wants} observation values but {info.name} gives {size}: the model "
            "and config.yaml of this run disagree (a model copied from another run or an older encoder?)"
        )
    decision = engine.pending(state)
    if decision is None:
        raise UserError(f"{situation}: the fight described is already over; nobody has a decision to make")
    notes: list[str] = list(getattr(agent, "notes", []))
    if decision.side != getattr(agent, "side", 0):
        notes.append(f"the acting combatant is on side {decision.side}, the policy was trained for side "
                     f"{getattr(agent, 'side', 0)}; ranking it anyway from its own perspective")
    notes.extend(f"bundle: {w}" for w in getattr(agent, "warnings", []))
    mask = engine.legal_mask(state, decision)
    vector = encoder.encode(state, decision)
    if not np.all(np.isfinite(vector)):
        raise UserError(f"{situation}: a number in this situation is too large to describe to the policy")
    outside = agent.out_of_range(vector) if hasattr(agent, "out_of_range") else []
    if outside:
        shown = ", ".join(f"{n}={v:.2f} (seen {lo:.2f}..{hi:.2f})" for n, v, lo, hi in outside[:3])
        notes.append(f"{len(outside)} observation feature(s) outside the range the policy met when exported "
                     f"({shown}{', ...' if len(outside) > 3 else ''}): trust this ranking less")
    probs = agent.action_probabilities(vector, mask)
    legal = np.flatnonzero(mask)
    order = sorted(legal, key=lambda a: (-float(probs[a]), int(a)))
    moves = [RankedMove(int(a), engine.catalogue.name(int(a)), float(probs[a])) for a in order]
    describe = getattr(engine, "describe", None)
    return Suggestion(info.name, state.combatants[decision.actor].name, decision.kind.name,
                      int(getattr(state, "round", 0)), moves, notes,
                      describe(state) if describe else "", assumptions)
