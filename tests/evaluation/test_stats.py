"""Wilson intervals against hand-computed values, and outcome rates."""

from __future__ import annotations

import math

import pytest

from npc_tactics.evaluation.stats import format_rate, outcome_rates, rate_entry, wilson_interval


def hand_wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    # centre = (p + z²/2n) / (1 + z²/n), half = z / (1 + z²/n) * sqrt(p(1-p)/n + z²/4n²)
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z / d * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return c - h, c + h


@pytest.mark.parametrize(
    ("k", "n", "low", "high"),
    [
        (0, 10, 0.0, 0.27754),  # z²/n = 0.38416; high = 0.38416 / 1.38416
        (10, 10, 0.72246, 1.0),  # mirror of 0/10
        (5, 10, 0.23659, 0.76341),  # centre 0.5, half 1.41602 * 0.186022
        (60, 100, 0.50200, 0.69060),
        (1, 2, 0.09453, 0.90547),
    ],
)
def test_wilson_hand_values(k: int, n: int, low: float, high: float) -> None:
    lo, hi = wilson_interval(k, n)
    assert lo == pytest.approx(low, abs=1e-5)
    assert hi == pytest.approx(high, abs=1e-5)


@pytest.mark.parametrize(("k", "n"), [(3, 17), (50, 51), (123, 400)])
def test_wilson_matches_formula_and_contains_p(k: int, n: int) -> None:
    lo, hi = wilson_interval(k, n)
    assert (lo, hi) == pytest.approx(hand_wilson(k, n))
    assert lo <= k / n <= hi


def test_wilson_edge_cases() -> None:
    assert wilson_interval(0, 0) == (0.0, 1.0)
    lo99, hi99 = wilson_interval(5, 10, z=2.576)
    lo95, hi95 = wilson_interval(5, 10)
    assert lo99 < lo95 and hi99 > hi95
    for bad in [(-1, 10), (11, 10), (1, -1)]:
        with pytest.raises(ValueError, match="successes"):
            wilson_interval(*bad)
    with pytest.raises(ValueError, match="z > 0"):
        wilson_interval(1, 2, z=0)


def test_outcome_rates_and_format() -> None:
    rates = outcome_rates(["win"] * 6 + ["loss"] * 3 + ["fled"])
    assert [rates[k]["count"] for k in ("win", "draw", "fled", "loss")] == [6, 0, 1, 3]
    assert sum(r["rate"] for r in rates.values()) == pytest.approx(1.0)
    assert rates["win"]["low"] < 0.6 < rates["win"]["high"]
    assert format_rate(rate_entry(60, 100)) == "60.0% [50.2–69.1]"
    with pytest.raises(ValueError, match="unknown fight results"):
        outcome_rates(["won"])
