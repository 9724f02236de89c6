"""Running sums over fights: what simulations and tournaments keep instead of a list of records.

A :class:`FightTally` takes one :class:`~npc_tactics.evaluation.fight.FightRecord` at a time and keeps
only counters (results, event counts, action verbs, final statuses, tactic-profile totals), so a
million-fight simulation uses the memory of one fight plus a few counters.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from npc_tactics.evaluation.fight import FightRecord
from npc_tactics.evaluation.stats import rates_from_counts

__all__ = [
    "FightTally",
    "ProfileTally",
    "SideTally",
    "flatten_profile",
    "merge_event_counts",
    "nest_event_counts",
    "profile_summary",
]


def merge_event_counts(records: Iterable[FightRecord]) -> Counter[tuple[int, str, str]]:
    """``{(side, kind, result): n}`` summed over ``records``."""
    total: Counter[tuple[int, str, str]] = Counter()
    for record in records:
        total.update(record.event_counts)
    return total


def nest_event_counts(
    counts: Mapping[tuple[int, str, str], int], side: int | None = None
) -> dict[str, dict[str, int]]:
    """``{kind: {result: n}}`` (sorted) over all sides, or only events whose actor is on ``side``
    (``-1``: events with no acting combatant)."""
    out: dict[str, dict[str, int]] = {}
    for (s, kind, result), n in sorted(counts.items()):
        if side is not None and s != side:
            continue
        bucket = out.setdefault(kind, {})
        bucket[result] = bucket.get(result, 0) + n
    return {kind: dict(sorted(out[kind].items())) for kind in sorted(out)}


def flatten_profile(profile: Mapping[str, Any], prefix: str = "") -> dict[str, float]:
    """Numeric entries of a tactic profile, nested mappings flattened to ``a.b`` keys; others
    dropped."""
    out: dict[str, float] = {}
    for key, value in profile.items():
        name = f"{prefix}{key}"
        if isinstance(value, bool):
            out[name] = float(value)
        elif isinstance(value, int | float):
            out[name] = float(value)
        elif isinstance(value, Mapping):
            out.update(flatten_profile(value, prefix=f"{name}."))
    return out


@dataclass(slots=True)
class ProfileTally:
    """Sums of tactic profiles: totals and how many fights had a non-zero value, per measure (keys
    in first-seen order: the profile author's order)."""

    totals: dict[str, float] = field(default_factory=dict)
    present: Counter[str] = field(default_factory=Counter)
    fights: int = 0

    def add(self, profile: Mapping[str, Any]) -> None:
        self.fights += 1
        for key, value in flatten_profile(profile).items():
            self.totals[key] = self.totals.get(key, 0.0) + value
            if value:
                self.present[key] += 1

    def merge(self, other: ProfileTally) -> None:
        self.fights += other.fights
        for key, value in other.totals.items():
            self.totals[key] = self.totals.get(key, 0.0) + value
        self.present.update(other.present)

    def summary(self) -> dict[str, dict[str, float]]:
        """``{"total": {key: sum}, "per_fight": {key: mean}, "fights_with": {key: share of fights
        with a non-zero value}}``."""
        n = self.fights
        keys = list(self.totals)
        return {
            "total": dict(self.totals),
            "per_fight": {k: self.totals[k] / n for k in keys} if n else {},
            "fights_with": {k: self.present[k] / n for k in keys} if n else {},
        }


def profile_summary(profiles: Iterable[Mapping[str, Any]]) -> dict[str, dict[str, float]]:
    """:meth:`ProfileTally.summary` of ``profiles``."""
    tally = ProfileTally()
    for profile in profiles:
        tally.add(profile)
    return tally.summary()


@dataclass(slots=True)
class SideTally:
    """One side's sums over fights: results, verbs chosen, final statuses, profile, decisions."""

    agent: str = ""
    results: Counter[str] = field(default_factory=Counter)
    actions: Counter[str] = field(default_factory=Counter)
    statuses: Counter[str] = field(default_factory=Counter)
    profile: ProfileTally = field(default_factory=ProfileTally)
    decisions: int = 0

    @property
    def fights(self) -> int:
        return sum(self.results.values())

    def add(self, record: FightRecord, side: int) -> None:
        if not self.agent:
            self.agent = record.agents[side]
        self.results[record.results[side]] += 1
        self.actions.update(record.actions[side])
        self.statuses.update(record.statuses[side])
        self.profile.add(record.tactic_profile[side])
        self.decisions += record.decisions_per_side[side]

    def merge(self, other: SideTally) -> None:
        self.agent = self.agent or other.agent
        self.results.update(other.results)
        self.actions.update(other.actions)
        self.statuses.update(other.statuses)
        self.profile.merge(other.profile)
        self.decisions += other.decisions

    def rates(self) -> dict[str, dict[str, Any]]:
        return rates_from_counts(self.results)


@dataclass(slots=True)
class FightTally:
    """Running sums over fights of one line-up (the same agent on each side every fight)."""

    sides: list[SideTally]
    fights: int = 0
    first_seed: int | None = None
    last_seed: int | None = None
    rounds_total: int = 0
    rounds_min: int | None = None
    rounds_max: int | None = None
    decisions: int = 0
    reasons: Counter[str] = field(default_factory=Counter)
    event_counts: Counter[tuple[int, str, str]] = field(default_factory=Counter)

    @classmethod
    def empty(cls, sides: int) -> FightTally:
        return cls([SideTally() for _ in range(sides)])

    def add(self, record: FightRecord) -> None:
        self.fights += 1
        if self.first_seed is None:
            self.first_seed = record.seed
        self.last_seed = record.seed
        self.rounds_total += record.rounds
        self.rounds_min = record.rounds if self.rounds_min is None else min(self.rounds_min, record.rounds)
        self.rounds_max = record.rounds if self.rounds_max is None else max(self.rounds_max, record.rounds)
        self.decisions += record.decisions
        self.reasons[record.reason] += 1
        self.event_counts.update(record.event_counts)
        for side, tally in enumerate(self.sides):
            tally.add(record, side)

    def rates(self, side: int) -> dict[str, dict[str, Any]]:
        return self.sides[side].rates()

    @property
    def mean_rounds(self) -> float:
        return self.rounds_total / self.fights if self.fights else 0.0

    @property
    def mean_decisions(self) -> float:
        return self.decisions / self.fights if self.fights else 0.0
