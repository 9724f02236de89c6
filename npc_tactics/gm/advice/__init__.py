"""Suggesting: rank the acting NPC's legal moves with a policy, with odds and a trust verdict."""
