"""Sums over many :class:`~npc_tactics.evaluation.fight.FightRecord`: event counts and tactic
profiles.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from npc_tactics.evaluation.fight import FightRecord

__all__ = ["flatten_profile", "merge_event_counts", "nest_event_counts", "profile_summary"]


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


def profile_summary(profiles: Iterable[Mapping[str, Any]]) -> dict[str, dict[str, float]]:
    """``{"total": {key: sum}, "per_fight": {key: mean}, "fights_with": {key: share of fights with
    a non-zero value}}``, keys in the order the system's profile lists them."""
    totals: Counter[str] = Counter()
    present: Counter[str] = Counter()
    n = 0
    for profile in profiles:
        n += 1
        for key, value in flatten_profile(profile).items():
            totals[key] += value
            if value:
                present[key] += 1
    keys = list(totals)  # first-seen order: the profile author's order
    return {
        "total": {k: totals[k] for k in keys},
        "per_fight": {k: totals[k] / n for k in keys} if n else {},
        "fights_with": {k: present[k] / n for k in keys} if n else {},
    }
