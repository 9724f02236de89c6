"""The system-specific counts of the leaderboard's tactic profile, read from each engine's event kinds.

One counter per system, ``(events, sides, side, out)``: ``sides[i]`` is combatant ``i``'s side, and ``out``
collects the counts of the choices of ``side``'s combatants. The event kinds and fields used are those the
engines emit (``npc_tactics/rules/<system>/``):

* OSE: ``declare`` (``withdraw``/``retreat``), ``initiative`` (``side_0``, ``side_1``, ``tie`` or
  ``individual``) and the spell outcomes ``spell`` (``cast``) / ``spell_disrupted``: spell timing is whether
  the caster's side had won the round's initiative when the spell went off or was lost.
* RuneQuest: ``defence`` (``how`` parry/dodge, ``wclass`` of the incoming weapon), undefended ``attack``
  (``defence: none``), ``spell`` (``sr``: the strike rank it went off), ``declare`` (``retreat``).
* MRQ: ``special_effect`` (which effect), ``reaction`` (defend/evade/precise/none), ``distance``
  (``fell_back``: a voluntary step away).
* Dice pool: ``split`` (``dice`` moved to DEFENSE out of ``pool``, by who holds the ``next`` slot),
  ``action`` (``withdraw``/``run``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

from npc_tactics.rules.base import Event

__all__ = ["SYSTEM_COUNTERS", "Counter_"]

Counter_ = Callable[[Sequence[Event], Sequence[int], int, Counter[str]], None]


def _mine(e: Event, sides: Sequence[int], side: int) -> bool:
    return e.actor is not None and 0 <= e.actor < len(sides) and sides[e.actor] == side


def ose(events: Sequence[Event], sides: Sequence[int], side: int, out: Counter[str]) -> None:
    """Retreats and spell timing by initiative (ose-bx.md §3, §7)."""
    initiative = "none"
    for e in events:
        if e.kind == "initiative":
            r = str(e.data.get("result", ""))
            initiative = ("won" if r == f"side_{side}" else "lost") if r.startswith("side_") else r
            continue
        if not _mine(e, sides, side):
            continue
        if e.kind == "declare" and e.data.get("result") in ("withdraw", "retreat"):
            out["retreats"] += 1
        elif e.kind == "spell" and e.data.get("result") == "cast":
            out[f"spell_cast_init_{initiative}"] += 1
        elif e.kind == "spell_disrupted":
            out[f"spell_lost_init_{initiative}"] += 1


def runequest(events: Sequence[Event], sides: Sequence[int], side: int, out: Counter[str]) -> None:
    """Parry or dodge by incoming weapon class, spell strike ranks, retreats (rq-combat.md). A parry chosen but
    lost to an earlier fumble (``parry_lost``, before the blow) still counts as a parry against that blow's
    weapon: the profile counts choices, not rolls."""
    lost: set[tuple[int | None, int | None]] = set()  # (defender, attacker) whose chosen parry was lost
    for e in events:
        k = e.kind
        d = e.data
        if k == "defence" and _mine(e, sides, side) and d.get("how") in ("parry", "dodge"):
            out[f"{d['how']}_vs_{d.get('wclass', '?')}"] += 1
        elif k == "parry_lost" and _mine(e, sides, side):
            lost.add((e.actor, e.target))
        elif k == "attack" and e.target is not None and 0 <= e.target < len(sides) and sides[e.target] == side:
            if (e.target, e.actor) in lost:
                lost.discard((e.target, e.actor))
                out[f"parry_vs_{d.get('wclass', '?')}"] += 1
            elif d.get("defence") == "none" and not d.get("free"):
                out[f"no_defence_vs_{d.get('wclass', '?')}"] += 1
        elif k == "spell" and _mine(e, sides, side) and d.get("result") in ("success", "failure", "resisted"):
            sr = int(d.get("sr", 0))
            out[f"spell_sr_{sr}"] += 1
            out["spell_rank_sum"] += sr
        elif k == "declare" and _mine(e, sides, side) and d.get("result") == "retreat":
            out["retreats"] += 1


def mrq(events: Sequence[Event], sides: Sequence[int], side: int, out: Counter[str]) -> None:
    """Special effects chosen, Reactions, voluntary fall-backs (mrq.md)."""
    out["effects_picked"] += 0
    for e in events:
        if not _mine(e, sides, side):
            continue
        d = e.data
        if e.kind == "special_effect":
            out[f"effect:{d.get('result')}"] += 1
            out["effects_picked"] += 1
        elif e.kind == "reaction":
            out[f"reaction:{d.get('result')}"] += 1
        elif e.kind == "distance" and d.get("result") == "fell_back":
            out["retreats"] += 1


def dicepool(events: Sequence[Event], sides: Sequence[int], side: int, out: Counter[str]) -> None:
    """Dice moved to DEFENSE at each melee split, by who acts next; withdrawals (dice-pool.md §5)."""
    out["split_pool"] += 0
    for e in events:
        if not _mine(e, sides, side):
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


#: The counter of each system (a system without one gets the common counts only).
SYSTEM_COUNTERS: dict[str, Counter_] = {"ose": ose, "runequest": runequest, "mrq": mrq, "dicepool": dicepool}
