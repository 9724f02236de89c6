"""Evaluation: single fights, simulations, paired-seed tournaments, Wilson intervals, ratings and
reports.

Public API (the CLI's ``simulate`` and ``evaluate`` call these)::

    play_fight(engine, encoder, scenario, agents, seed, *, keep_events=False) -> FightRecord
    simulate(system, scenario, agents, fights, seed, options=None, progress=False) -> dict
    format_summary(summary) -> str
    run_tournament(system, scenario, agents, fights_per_pairing, seed, out_dir, options=None,
                   progress=True)
        -> TournamentResult
    wilson_interval(successes, n, z=1.96) -> (low, high)

Heavy modules (matplotlib, openskill, rich) are imported only when used.
"""

from __future__ import annotations

from npc_tactics.evaluation.fight import FightRecord, play_fight
from npc_tactics.evaluation.simulate import format_summary, simulate
from npc_tactics.evaluation.stats import wilson_interval
from npc_tactics.evaluation.tournament import TournamentResult, run_tournament

__all__ = [
    "FightRecord",
    "TournamentResult",
    "format_summary",
    "play_fight",
    "run_tournament",
    "simulate",
    "wilson_interval",
]
