"""The dice pool's tactics hook: dice moved to DEFENSE by who acts next, the verbs of attacking and leaving,
and the tactic profiles."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from typing import Any

import numpy as np

from npc_tactics.evaluation.tactic_profile import acted_for
from npc_tactics.evaluation.tactics.common import focus_fire, rate, retreat_when_losing
from npc_tactics.evaluation.tactics.hooks import Tactics
from npc_tactics.evaluation.tactics.observe import FightLog
from npc_tactics.rules.base import DecisionKind, Event
from npc_tactics.systems.dicepool.rules.profile import tactic_profile

__all__ = ["TACTICS", "defense_by_next", "leaderboard_counts"]


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


#: attack verbs strike or shoot at an enemy slot; the one way out is ``withdraw`` (H6): ``run`` keeps the
#: distance (a posture against shots), so it is no way out
TACTICS = Tactics(
    tactics=(("retreat_when_losing", retreat_when_losing), ("defense_by_next", defense_by_next),
             ("focus_fire", focus_fire)),
    attack_verbs=frozenset({"strike", "shoot"}),
    leave_verbs=frozenset({"withdraw"}),
    profile=tactic_profile,
    leaderboard_counter=leaderboard_counts,
)
