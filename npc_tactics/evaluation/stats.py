"""Small statistics for tournaments: Wilson score intervals, outcome rates and paired gaps.

A win rate measured over a few hundred fights is noisy; every rate we report carries its Wilson 95%
interval (Wilson 1927), which behaves well at 0% and 100% where the normal approximation collapses
to a point. Two moves or agents played on the same dice are compared by their paired gap instead.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

__all__ = ["OUTCOMES", "outcome_rates", "paired_gap", "rate_entry", "rates_from_counts", "wilson_interval"]

#: The side results a fight can give, in report order (``SideResult`` names, lower case).
OUTCOMES: tuple[str, ...] = ("win", "draw", "fled", "loss")


def wilson_interval(successes: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of ``successes`` out of ``n`` trials (``z=1.96``: 95%).

    With no trials the interval is the whole of ``[0, 1]``. Raises ``ValueError`` when the counts
    make no sense (negative, or more successes than trials)."""
    if n < 0 or successes < 0 or successes > n:
        raise ValueError(
            f"wilson_interval needs 0 <= successes <= n, got successes={successes}, n={n}"
        )
    if z <= 0:
        raise ValueError(f"wilson_interval needs z > 0, got z={z}")
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    z2 = z * z
    denom = 1.0 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = (z / denom) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == n else min(1.0, centre + half)
    return low, high


def rate_entry(count: int, n: int, z: float = 1.96) -> dict[str, Any]:
    """``{"count", "rate", "low", "high"}``: one JSON-ready rate with its Wilson interval."""
    low, high = wilson_interval(count, n, z)
    return {"count": int(count), "rate": count / n if n else 0.0, "low": low, "high": high}


def outcome_rates(results: Iterable[str], z: float = 1.96) -> dict[str, dict[str, Any]]:
    """Rates of each of :data:`OUTCOMES` among ``results`` (one side's result per fight)."""
    counts: dict[str, int] = {}
    for r in results:
        counts[r] = counts.get(r, 0) + 1
    return rates_from_counts(counts, z)


def rates_from_counts(counts: Mapping[str, int], z: float = 1.96) -> dict[str, dict[str, Any]]:
    """Rates of each of :data:`OUTCOMES` from ``{result: number of fights}``."""
    unknown = sorted(r for r, n in counts.items() if n and r not in OUTCOMES)
    if unknown:
        raise ValueError(f"unknown fight results {unknown}; expected one of {list(OUTCOMES)}")
    n = sum(counts.values())
    return {name: rate_entry(counts.get(name, 0), n, z) for name in OUTCOMES}


def format_rate(entry: Mapping[str, Any], ci: bool = True) -> str:
    """``"62.0% [52.1–71.0]"``: a rate entry as report text."""
    text = f"{100 * entry['rate']:.1f}%"
    if ci:
        text += f" [{100 * entry['low']:.1f}–{100 * entry['high']:.1f}]"
    return text


def paired_gap(a: Sequence[float], b: Sequence[float], z: float = 1.96) -> tuple[float, float, float]:
    """The mean of ``a[k] - b[k]`` and its normal ``z`` interval, for two moves measured on the same rollouts
    (rollout k of both shares its dice): the pairing removes the luck both share, so a gap far smaller than
    either rate's own interval can be told apart. With one pair, or pairs that all differ alike, the interval
    is the point."""
    n = min(len(a), len(b))
    if n == 0:
        return 0.0, 0.0, 0.0
    diff = [float(x) - float(y) for x, y in zip(a[:n], b[:n], strict=True)]
    mean = sum(diff) / n
    if n < 2:
        return mean, mean, mean
    sd = math.sqrt(sum((d - mean) ** 2 for d in diff) / (n - 1))
    half = z * sd / math.sqrt(n)
    return mean, mean - half, mean + half
