"""What a tournament produced, as plain data: the runner (``tournament``) fills it, ``report`` and ``plots``
render it. Kept apart from the runner so that the renderers need not import it (no import cycle)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from npc_tactics.evaluation.aggregate import FightTally, nest_event_counts
from npc_tactics.evaluation.ratings import AgentRating

__all__ = ["PairingResult", "TournamentResult"]


@dataclass(slots=True)
class PairingResult:
    """All fights of one ordered pair, summed: ``agents[k]`` played side ``k``."""

    agents: tuple[str, str]
    tally: FightTally = field(default_factory=lambda: FightTally.empty(2))

    @property
    def fights(self) -> int:
        return self.tally.fights

    def rates(self, side: int) -> dict[str, dict[str, Any]]:
        return self.tally.rates(side)

    @property
    def mean_rounds(self) -> float:
        return self.tally.mean_rounds

    def to_dict(self) -> dict[str, Any]:
        counts = self.tally.event_counts
        return {
            "side0": self.agents[0],
            "side1": self.agents[1],
            "fights": self.fights,
            "seeds": [self.tally.first_seed, self.tally.last_seed],
            "rates": [self.rates(0), self.rates(1)],
            "mean_rounds": self.mean_rounds,
            "mean_decisions": self.tally.mean_decisions,
            "reasons": dict(sorted(self.tally.reasons.items())),
            "event_counts": [nest_event_counts(counts, 0), nest_event_counts(counts, 1)],
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
    #: the tactics section (``npc_tactics.evaluation.tactics.measure_tactics``), when asked for (``--tactics``)
    tactics: dict[str, Any] | None = None

    @property
    def report_path(self) -> Path:
        return self.out_dir / "report.md"

    def pairing(self, side0: str, side1: str) -> PairingResult:
        for p in self.pairings:
            if p.agents == (side0, side1):
                return p
        raise KeyError(f"no pairing {side0} vs {side1}; agents: {self.agents}")

    def rating(self, agent: str, seat: int = 0) -> AgentRating:
        for r in self.ratings:
            if r.agent == agent and r.seat == seat:
                return r
        raise KeyError(f"no side-{seat} rating for {agent!r}; agents: {self.agents}")

    def seat_ratings(self, seat: int) -> list[AgentRating]:
        """The agents that played side ``seat``, best first (comparable with each other only)."""
        return [r for r in self.ratings if r.seat == seat]

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
            "pairings": [p.to_dict() for p in self.pairings],
            "ratings": [r.to_dict() for r in self.ratings],
            "tactic_profiles": self.profiles,
            "action_mix": self.actions,
            "final_status": self.statuses,
            "files": {k: v.name for k, v in self.files.items()},
            **({"tactics": self.tactics} if self.tactics is not None else {}),
        }
