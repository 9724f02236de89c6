"""The dice pool's tactics hook: dice moved to DEFENSE by who acts next, the verbs of attacking and leaving,
and the tactic profiles."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from npc_tactics.evaluation.tactic_profile import acted_for, ratio
from npc_tactics.evaluation.tactics.common import focus_fire, rate, retreat_when_losing
from npc_tactics.evaluation.tactics.hooks import Tactics
from npc_tactics.evaluation.tactics.observe import FightLog
from npc_tactics.rules.base import DecisionKind, Event
from npc_tactics.systems.dicepool.rules.profile import tactic_profile

__all__ = ["TACTICS", "defense_by_next", "leaderboard_counts", "leaderboard_figures"]


def defense_by_next(logs: Sequence[FightLog], system: str = "dicepool") -> dict[str, Any]:
    """Dice pool: dice moved to DEFENSE before each melee blow of the watched side, by who holds the next
    action slot (``self``, ``ally``, ``enemy`` or a new turn; docs/dicepool.md D5: DEFENSE dice only help
    against an enemy acting before one's own next slot). Mean dice and the share of blows with any DEFENSE."""
    dice: dict[str, list[int]] = defaultdict(list)
    for log in logs:
        for m in log.moves:
            if m.kind == DecisionKind.SPLIT:
                dice[str(m.context.get("next", "new_turn"))].append(int(m.name.rsplit(":", 1)[-1]))
    out: dict[str, Any] = {"fights": len(logs), "by_next": {}}
    for key in ("enemy", "ally", "self", "new_turn"):
        d = dice.get(key, [])
        if d:
            out["by_next"][key] = {"blows": len(d), "mean_defense_dice": round(float(np.mean(d)), 3),
                                   "any_defense": rate(sum(1 for x in d if x > 0), len(d))}
    return out


def leaderboard_counts(events: Sequence[Event], sides: Sequence[int], side: int, out: Counter[str]) -> None:
    """The leaderboard's dice-pool counts (dice-pool.md §5): dice moved to DEFENSE at each melee ``split``
    (``dice`` out of ``pool``), by who holds the ``next`` slot; ``action`` withdraw/run as retreats."""
    out["split_pool"] += 0
    for e in events:
        if not acted_for(e, sides, side):
            continue
        d = e.data
        if e.kind == "split":
            dice, pool, nxt = int(d.get("dice", 0)), int(d.get("pool", 0)), str(d.get("next", "new_turn"))
            out["split_defence"] += dice
            out["split_pool"] += pool
            out[f"split_defence_next_{nxt}"] += dice
            out[f"split_pool_next_{nxt}"] += pool
            out[f"split_{d.get('result', 'mixed')}"] += 1
        elif e.kind == "action" and d.get("result") in ("withdraw", "run"):
            out["retreats"] += 1


def leaderboard_figures(totals: Mapping[str, float]) -> dict[str, Any]:
    """From :func:`leaderboard_counts`' sums: ``defence_share`` (dice moved to DEFENSE over the pools split),
    ``splits`` (all-attack, mixed and all-DEFENSE splits) and ``defence_share_by_next`` (the same share by who
    holds the next slot)."""
    t = totals
    if "split_pool" not in t:
        return {}
    return {
        "defence_share": ratio(t.get("split_defence", 0.0), t.get("split_pool", 0.0)),
        "splits": {k: int(t.get(f"split_{k}", 0)) for k in ("all_attack", "mixed", "all_defense")},
        "defence_share_by_next": {
            n: ratio(t.get(f"split_defence_next_{n}", 0.0), t.get(f"split_pool_next_{n}", 0.0))
            for n in ("self", "ally", "enemy", "new_turn") if t.get(f"split_pool_next_{n}", 0.0)
        },
    }


#: attack verbs strike or shoot at an enemy slot; the one way out is ``withdraw`` (H6): ``run`` keeps the
#: distance (a posture against shots), so it is no way out
TACTICS = Tactics(
    tactics=(("retreat_when_losing", retreat_when_losing), ("defense_by_next", defense_by_next),
             ("focus_fire", focus_fire)),
    attack_verbs=frozenset({"strike", "shoot"}),
    leave_verbs=frozenset({"withdraw"}),
    leave_plan=("withdraw",),
    profile=tactic_profile,
    leaderboard_counter=leaderboard_counts,
    leaderboard_figures=leaderboard_figures,
)
