"""What a tournament produced, as plain data: the runner (``tournament``) fills it, ``report`` and ``plots``
render it. Kept apart from the runner so that the renderers need not import it (no import cycle)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from npc_tactics.evaluation.aggregate import merge_event_counts, nest_event_counts
from npc_tactics.evaluation.fight import FightRecord
from npc_tactics.evaluation.ratings import AgentRating
from npc_tactics.evaluation.stats import outcome_rates

__all__ = ["PairingResult", "TournamentResult"]


@dataclass(slots=True)
class PairingResult:
    """All fights of one ordered pair: ``agents[k]`` played side ``k``."""

    agents: tuple[str, str]
    records: list[FightRecord]

    @property
    def fights(self) -> int:
        return len(self.records)

    def rates(self, side: int) -> dict[str, dict[str, Any]]:
        return outcome_rates(r.results[side] for r in self.records)

    @property
    def mean_rounds(self) -> float:
        return sum(r.rounds for r in self.records) / len(self.records)

    def to_dict(self) -> dict[str, Any]:
        counts = merge_event_counts(self.records)
        return {
            "side0": self.agents[0],
            "side1": self.agents[1],
            "fights": self.fights,
            "rates": [self.rates(0), self.rates(1)],
            "mean_rounds": self.mean_rounds,
            "mean_decisions": sum(r.decisions for r in self.records) / len(self.records),
            "reasons": dict(sorted(Counter(r.reason for r in self.records).items())),
            "event_counts": [nest_event_counts(counts, 0), nest_event_counts(counts, 1)],
            "fights_list": [
                {"seed": r.seed, "results": list(r.results), "rounds": r.rounds}
                for r in self.records
            ],
        }


@dataclass(slots=True)
class TournamentResult:
    """Everything a tournament produced; the files it wrote are listed in ``files``."""

    system: str
    scenario: str
    agents: list[str]
    specs: list[str]
    fights_per_pairing: int
    seed: int
    seeds: list[int]
    options: dict[str, Any]
    pairings: list[PairingResult]
    ratings: list[AgentRating]
    profiles: dict[str, Any]
    actions: dict[str, Any]
    statuses: dict[str, Any]
    command: str
    seconds: float
    out_dir: Path
    files: dict[str, Path] = field(default_factory=dict)

    @property
    def report_path(self) -> Path:
        return self.out_dir / "report.md"

    def pairing(self, side0: str, side1: str) -> PairingResult:
        for p in self.pairings:
            if p.agents == (side0, side1):
                return p
        raise KeyError(f"no pairing {side0} vs {side1}; agents: {self.agents}")

    def rating(self, agent: str) -> AgentRating:
        for r in self.ratings:
            if r.agent == agent:
                return r
        raise KeyError(f"no rating for {agent!r}; agents: {self.agents}")

    def to_dict(self) -> dict[str, Any]:
        return {
            "system": self.system,
            "scenario": self.scenario,
            "agents": self.agents,
            "agent_specs": self.specs,
            "fights_per_pairing": self.fights_per_pairing,
            "seed": self.seed,
            "seeds": self.seeds,
            "options": self.options,
            "command": self.command,
            "seconds": self.seconds,
            "pairings": [p.to_dict() for p in self.pairings],
            "ratings": [r.to_dict() for r in self.ratings],
            "tactic_profiles": self.profiles,
            "action_mix": self.actions,
            "final_status": self.statuses,
            "files": {k: str(v) for k, v in self.files.items()},
        }
