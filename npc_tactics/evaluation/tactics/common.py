"""The tactics every system has: leaving a fight one is losing, and focusing fire in a skirmish.

A system lists them in its own :class:`~npc_tactics.evaluation.tactics.hooks.Tactics` (where it wants them in
the report); a system without tactics gets :data:`COMMON_TACTICS`. The verbs they read are the system's
``attack_verbs`` and ``leave_verbs`` (none for a system without tactics).

Both read :class:`~npc_tactics.evaluation.tactics.observe.FightLog` lists (one watched side) and return plain
data with Wilson 95% intervals (``rate_entry``). Decisions of one fight are not independent, so the intervals
are a little narrow; the fight counts are given next to them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from npc_tactics.evaluation.stats import rate_entry
from npc_tactics.evaluation.tactics.hooks import Tactic, tactics_hooks
from npc_tactics.evaluation.tactics.observe import FightLog
from npc_tactics.evaluation.tactics.tables import LOSING_HP, WOUND_BANDS
from npc_tactics.rules.base import Status

__all__ = ["COMMON_TACTICS", "SURVIVED", "focus_fire", "rate", "retreat_when_losing"]

#: a combatant survived when it is still standing or left alive (not dead, down, held or surrendered)
SURVIVED = (Status.ACTIVE, Status.FLED)


def rate(k: int, n: int) -> dict[str, Any]:
    """``k`` of ``n`` with its Wilson 95% interval and ``n`` (a null rate when ``n`` is 0)."""
    return {**rate_entry(k, n), "n": n} if n else {"count": 0, "n": 0, "rate": None, "low": 0.0, "high": 1.0}


def retreat_when_losing(logs: Sequence[FightLog], system: str, losing_hp: float = LOSING_HP) -> dict[str, Any]:
    """Retreat or flee when losing: how often, at what wound level, and whether it pays.

    Per combatant of the watched side and fight: it *was losing* when one of its own decisions came with its
    HP share at or below ``losing_hp``; it *left* when it chose one of the system's leave verbs
    (its tactics hook's ``leave_verbs``) or ended the fight fled. Reports the share of
    losing combatants that left, the HP share at each combatant's first leave decision (mean and bands), and
    the survival rate (still standing or fled alive at the end) of losing combatants that left against those
    that fought on, and the same two rates over every combatant (losing or not: a band may leave unhurt). The
    comparison is observational (who leaves is chosen by the agent), not a controlled experiment: the probes of
    issue 14 answer "does leaving here pay" by rollouts.
    """
    hooks = tactics_hooks(system)
    leave = hooks.leave_verbs if hooks is not None else frozenset()
    left_at: list[float] = []
    counts = {"losing": 0, "left": 0, "left_survived": 0, "stayed": 0, "stayed_survived": 0, "combatants": 0,
              "any_left": 0, "any_left_survived": 0, "any_stayed": 0, "any_stayed_survived": 0}
    for log in logs:
        mine = [i for i, s in enumerate(log.sides) if s == log.side]
        counts["combatants"] += len(mine)
        first_leave: dict[int, float] = {}
        losing: set[int] = set()
        for m in log.moves:
            if m.hp <= losing_hp:
                losing.add(m.actor)
            if m.verb in leave and m.actor not in first_leave:
                first_leave[m.actor] = m.hp
        for i in mine:
            fled = log.status[i] == Status.FLED
            left = i in first_leave or fled
            if i in first_leave:
                left_at.append(first_leave[i])
            survived = log.status[i] in SURVIVED
            every = "any_left" if left else "any_stayed"
            counts[every] += 1
            counts[f"{every}_survived"] += survived
            if i not in losing:
                continue
            counts["losing"] += 1
            key = "left" if left else "stayed"
            counts[key] += 1
            counts[f"{key}_survived"] += survived
    bands = {label: sum(1 for h in left_at if lo < h <= hi) for label, lo, hi in WOUND_BANDS}
    return {
        "fights": len(logs),
        "losing_hp": losing_hp,
        "combatants": counts["combatants"],
        "losing_combatants": counts["losing"],
        "left_when_losing": rate(counts["left"], counts["losing"]),
        "leave_decisions": len(left_at),
        "hp_at_first_leave_mean": round(float(np.mean(left_at)), 3) if left_at else None,
        "hp_at_first_leave_bands": bands,
        "survival_if_left": rate(counts["left_survived"], counts["left"]),
        "survival_if_stayed": rate(counts["stayed_survived"], counts["stayed"]),
        "survival_all_who_left": rate(counts["any_left_survived"], counts["any_left"]),
        "survival_all_who_stayed": rate(counts["any_stayed_survived"], counts["any_stayed"]),
    }


def focus_fire(logs: Sequence[FightLog], system: str) -> dict[str, Any]:
    """Focus fire in a skirmish: the share of the side's attacks aimed where the band already aims.

    An *attack* is a decision of the watched side whose action strikes, shoots or casts at an enemy slot
    (its tactics hook's ``attack_verbs``). Only attacks with a choice count (at least
    two enemies the same verb could name). Three rates, each over the attacks where the criterion is possible:

    * ``same_round``: aimed at an enemy an ally already attacked this round (possible when such an enemy is
      among the choices);
    * ``previous_ally``: aimed at the target of the previous ally attack, in this round or an earlier one
      (possible when that enemy is among the choices);
    * ``most_wounded``: aimed at the enemy with the smallest HP share among the choices (possible when the
      choices differ in HP share; ties all count).

    Next to each rate, ``chance``: the rate a uniformly random pick among the same choices would have.
    """
    hooks = tactics_hooks(system)
    verbs = hooks.attack_verbs if hooks is not None else frozenset()
    tally = {k: [0, 0, 0.0] for k in ("same_round", "previous_ally", "most_wounded")}  # hits, n, chance sum
    attacks = with_choice = 0
    for log in logs:
        round_targets: dict[int, dict[int, set[int]]] = {}  # round -> attacker -> targets
        last: tuple[int, int] | None = None  # (attacker, target) of the latest attack of the side
        for m in log.moves:
            if m.verb not in verbs or m.target is None:
                continue
            attacks += 1
            choices = m.options
            if len(choices) >= 2:
                with_choice += 1
                this_round = round_targets.get(m.round, {})
                earlier = {t for ally, ts in this_round.items() if ally != m.actor for t in ts}
                _score(tally["same_round"], m.target, choices, earlier & set(choices))
                if last is not None and last[0] != m.actor:
                    _score(tally["previous_ally"], m.target, choices, {last[1]} & set(choices))
                low = min(choices.values())
                if max(choices.values()) > low:
                    _score(tally["most_wounded"], m.target, choices, {i for i, h in choices.items() if h == low})
            round_targets.setdefault(m.round, {}).setdefault(m.actor, set()).add(m.target)
            last = (m.actor, m.target)
    out: dict[str, Any] = {"fights": len(logs), "attacks": attacks, "attacks_with_choice": with_choice}
    for key, (hits, n, chance) in tally.items():
        out[key] = {**rate(int(hits), int(n)), "chance": round(chance / n, 3) if n else None}
    return out


def _score(cell: list[Any], target: int, choices: dict[int, float], good: set[int]) -> None:
    """Count one attack under a criterion when the criterion is possible (``good`` non-empty)."""
    if not good:
        return
    cell[0] += target in good
    cell[1] += 1
    cell[2] += len(good) / len(choices)


#: the tactics of a system that provides none, in report order
COMMON_TACTICS: tuple[tuple[str, Tactic], ...] = (("retreat_when_losing", retreat_when_losing),
                                                  ("focus_fire", focus_fire))
