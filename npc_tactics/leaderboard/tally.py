"""Running sums of one agent on one seat of one scenario: results, fight length, tactic profile, and whether
leaving the fight paid. Fed one fight record at a time (constant memory); merged for the pooled views."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from npc_tactics.evaluation.aggregate import ProfileTally
from npc_tactics.evaluation.fight import FightRecord
from npc_tactics.evaluation.stats import rate_entry, rates_from_counts
from npc_tactics.evaluation.tactic_profile import derive

__all__ = ["AgentTally"]


@dataclass(slots=True)
class _Branch:
    """Fights with (or without) a flight by this side: results and how many of its combatants stood."""

    results: Counter[str] = field(default_factory=Counter)
    standing: int = 0
    combatants: int = 0

    def merge(self, other: _Branch) -> None:
        self.results.update(other.results)
        self.standing += other.standing
        self.combatants += other.combatants

    def to_dict(self) -> dict[str, Any]:
        n = sum(self.results.values())
        return {
            "fights": n,
            "rates": rates_from_counts(self.results) if n else {},
            "standing": rate_entry(self.standing, self.combatants),
        }


@dataclass(slots=True)
class AgentTally:
    results: Counter[str] = field(default_factory=Counter)
    rounds: int = 0
    decisions: int = 0
    profile: ProfileTally = field(default_factory=ProfileTally)
    fled: _Branch = field(default_factory=_Branch)
    stayed: _Branch = field(default_factory=_Branch)

    @property
    def fights(self) -> int:
        return sum(self.results.values())

    def add(self, record: FightRecord, side: int) -> None:
        result = record.results[side]
        profile = record.tactic_profile[side]
        self.results[result] += 1
        self.rounds += record.rounds
        self.decisions += record.decisions_per_side[side]
        self.profile.add(profile)
        branch = self.fled if profile.get("flight_fight") else self.stayed
        branch.results[result] += 1
        branch.standing += int(profile.get("standing", 0))
        branch.combatants += int(profile.get("combatants", 0))

    def merge(self, other: AgentTally) -> None:
        self.results.update(other.results)
        self.rounds += other.rounds
        self.decisions += other.decisions
        self.profile.merge(other.profile)
        self.fled.merge(other.fled)
        self.stayed.merge(other.stayed)

    def score(self) -> float:
        """Wins plus half the draws, per fight: the pooled figure the leaderboard is sorted by."""
        n = self.fights
        return (self.results["win"] + 0.5 * self.results["draw"]) / n if n else 0.0

    def summary(self) -> dict[str, Any]:
        n = self.fights
        return {
            "fights": n,
            "rates": rates_from_counts(self.results),
            "score": self.score(),
            "mean_rounds": self.rounds / n if n else 0.0,
            "decisions_per_fight": self.decisions / n if n else 0.0,
        }

    def profile_summary(self, system: str | None = None) -> dict[str, Any]:
        """The tactic profile (``system``: only that system's figures; None: every system's, each reading its own
        counters)."""
        out = derive(self.profile.totals, self.profile.fights, system)
        out["flee_rate_ci"] = rate_entry(int(self.profile.totals.get("flight_fight", 0)), self.profile.fights)
        out["with_flight"] = self.fled.to_dict()
        out["without_flight"] = self.stayed.to_dict()
        return out
