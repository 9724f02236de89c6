"""The fake system's tactics hook: the shared tactics, its verbs, its tactic profile (attacks, flights and
morale breaks of one side), and its own leaderboard count and figure (how often the side defends rather than
attacks), read by the leaderboard through the hook like a real system's."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from npc_tactics.evaluation.tactic_profile import acted_for, ratio
from npc_tactics.evaluation.tactics.common import focus_fire, retreat_when_losing
from npc_tactics.evaluation.tactics.hooks import Tactics
from npc_tactics.rules.base import Event


def tactic_profile(events: Sequence[Event], state: Any, side: int) -> dict[str, Any]:
    mine = [e for e in events if e.actor is not None and state.combatants[e.actor].side == side]
    return {
        "attacks": sum(1 for e in mine if e.kind == "attack"),
        "flees": sum(1 for e in mine if e.kind == "flee"),
        "morale_breaks": sum(1 for e in mine if e.kind == "morale" and not e.data["passed"]),
    }


def leaderboard_counts(events: Sequence[Event], sides: Sequence[int], side: int, out: Counter[str]) -> None:
    """``fake_defends``: the side's ``defend`` moves (the common profile already counts its attacks)."""
    out["fake_defends"] += sum(1 for e in events if e.kind == "defend" and acted_for(e, sides, side))


def leaderboard_figures(totals: Mapping[str, float]) -> dict[str, Any]:
    """``defend_share``: defends over defends and attacks (None when the side did neither)."""
    if "fake_defends" not in totals:
        return {}
    defends = totals["fake_defends"]
    return {"defend_share": ratio(defends, defends + totals.get("attacks", 0.0))}


TACTICS = Tactics(
    tactics=(("retreat_when_losing", retreat_when_losing), ("focus_fire", focus_fire)),
    attack_verbs=frozenset({"attack"}),
    leave_verbs=frozenset({"flee"}),
    profile=tactic_profile,
    leaderboard_counter=leaderboard_counts,
    leaderboard_figures=leaderboard_figures,
)
