"""MRQ's tactics hook: the special effect chosen by role and margin, the verbs of attacking and leaving, and
the tactic profiles."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from npc_tactics.evaluation.tactic_profile import acted_for
from npc_tactics.evaluation.tactics.common import focus_fire, retreat_when_losing
from npc_tactics.evaluation.tactics.hooks import Tactics
from npc_tactics.evaluation.tactics.observe import FightLog
from npc_tactics.rules.base import DecisionKind, Event
from npc_tactics.systems.mrq.rules.profile import tactic_profile

__all__ = ["TACTICS", "leaderboard_counts", "leaderboard_figures", "special_effects"]


def special_effects(logs: Sequence[FightLog], system: str = "mrq") -> dict[str, Any]:
    """MRQ: the special effect the watched side chose at each EFFECT decision, by its role (attacker or
    defender) and success margin (decision context), as counts and the most chosen effect per situation."""
    by_situation: dict[str, Counter[str]] = defaultdict(Counter)
    totals: Counter[str] = Counter()
    for log in logs:
        for m in log.moves:
            if m.kind != DecisionKind.EFFECT:
                continue
            key = f"{m.context.get('role', '?')}:margin_{m.context.get('margin', '?')}"
            by_situation[key][m.verb] += 1
            totals[m.verb] += 1
    n = sum(totals.values())
    return {
        "fights": len(logs),
        "effect_decisions": n,
        "effects": {k: {"count": v, "share": round(v / n, 3)} for k, v in totals.most_common()},
        "by_situation": {k: dict(v.most_common()) for k, v in sorted(by_situation.items())},
    }


def leaderboard_counts(events: Sequence[Event], sides: Sequence[int], side: int, out: Counter[str]) -> None:
    """The leaderboard's MRQ counts (mrq.md): the ``special_effect`` chosen, the ``reaction``
    (defend/evade/precise/none), and voluntary fall-backs (``distance`` ``fell_back``) as retreats."""
    out["effects_picked"] += 0
    for e in events:
        if not acted_for(e, sides, side):
            continue
        d = e.data
        if e.kind == "special_effect":
            out[f"effect:{d.get('result')}"] += 1
            out["effects_picked"] += 1
        elif e.kind == "reaction":
            out[f"reaction:{d.get('result')}"] += 1
        elif e.kind == "distance" and d.get("result") == "fell_back":
            out["retreats"] += 1


def leaderboard_figures(totals: Mapping[str, float]) -> dict[str, Any]:
    """From :func:`leaderboard_counts`' sums: ``special_effects`` (each effect picked, most picked first) and
    ``reactions`` (each reaction chosen)."""
    t = totals
    out: dict[str, Any] = {}
    effects = {k.removeprefix("effect:"): int(v) for k, v in t.items() if k.startswith("effect:") and v}
    if effects or "effects_picked" in t:
        out["special_effects"] = dict(sorted(effects.items(), key=lambda kv: (-kv[1], kv[0])))
    reactions = {k.removeprefix("reaction:"): int(v) for k, v in t.items() if k.startswith("reaction:") and v}
    if reactions:
        out["reactions"] = dict(sorted(reactions.items()))
    return out


#: attack verbs strike, shoot or trip an enemy slot; leave verbs are withdraw, fall back and disengage (Combat
#: Actions, §20.1)
TACTICS = Tactics(
    tactics=(("retreat_when_losing", retreat_when_losing), ("special_effects", special_effects),
             ("focus_fire", focus_fire)),
    attack_verbs=frozenset({"attack", "precise_attack", "double_precise_attack", "charge", "shoot",
                            "entangle_trip"}),
    leave_verbs=frozenset({"withdraw", "fall_back", "disengage"}),
    # withdraw leaves the fight but only when not engaged (A6); engaged, the NPC disengages first
    leave_plan=("withdraw", "disengage", "fall_back"),
    profile=tactic_profile,
    leaderboard_counter=leaderboard_counts,
    leaderboard_figures=leaderboard_figures,
)
