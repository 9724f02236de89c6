"""The tactics leaderboard (issue 14): a suite of round robins on paired seeds, across scenarios and systems,
with win/draw/flee rates, ratings, fight lengths and tactic profiles, in a Markdown and an HTML report.

``run_leaderboard(suite, out_dir)`` is the whole of ``npc-tactics leaderboard SUITE.yaml``."""

from npc_tactics.leaderboard.run import LeaderboardResult, run_leaderboard
from npc_tactics.leaderboard.suite import Suite, load_suite, parse_suite

__all__ = ["LeaderboardResult", "Suite", "load_suite", "parse_suite", "run_leaderboard"]
