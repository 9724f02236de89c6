"""Shared fixtures: which systems and scenarios exist, so generic tests cover every one of them."""

from __future__ import annotations

import os

import matplotlib

matplotlib.use("Agg")
os.environ.setdefault("MPLBACKEND", "Agg")


def system_scenarios() -> list[tuple[str, str]]:
    """(system, scenario) for every shipped scenario of every available system."""
    from npc_tactics.systems import available_systems

    pairs = []
    for name, info in available_systems().items():
        for scenario, _ in info.load("content").list_scenarios():
            pairs.append((name, scenario))
    return pairs


def system_names() -> list[str]:
    from npc_tactics.systems import available_systems

    return list(available_systems())
