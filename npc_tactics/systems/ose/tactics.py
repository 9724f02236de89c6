"""OSE's tactics hook: spell timing against initiative, the verbs of attacking and leaving, the tactic profiles
and the facts the report adds to every watched decision (is the actor in melee)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from npc_tactics.evaluation.tactic_profile import acted_for
from npc_tactics.evaluation.tactics.common import focus_fire, rate, retreat_when_losing
from npc_tactics.evaluation.tactics.hooks import Tactics
from npc_tactics.evaluation.tactics.observe import FightLog
from npc_tactics.rules.base import DecisionKind, Event
from npc_tactics.systems.ose.rules.movement import engaged
from npc_tactics.systems.ose.rules.profile import tactic_profile

__all__ = ["TACTICS", "decision_facts", "leaderboard_counts", "leaderboard_figures", "ose_spell_timing"]


def ose_spell_timing(logs: Sequence[FightLog], system: str = "ose") -> dict[str, Any]:
    """OSE: spells are declared before initiative and lost if the caster is hit first (ose-bx.md §7, docs/ose.md
    A5). Reports the declared casts, the share disrupted (the enemy won initiative and struck first), the share
    of declarations made while an enemy stood within 5 ft (melee reach, where a hit is likeliest), and the
    declarations by round."""
    declared = disrupted = near = 0
    rounds: Counter[str] = Counter()
    for log in logs:
        mine = {i for i, s in enumerate(log.sides) if s == log.side}
        for e in log.events:
            if e.kind == "spell_disrupted" and e.actor in mine:
                disrupted += 1
        for m in log.moves:
            if m.kind == DecisionKind.DECLARE and m.verb == "cast":
                declared += 1
                near += bool(m.context.get("engaged", False))
                rounds["1" if m.round <= 1 else "2" if m.round == 2 else "3+"] += 1
    return {
        "fights": len(logs),
        "casts_declared": declared,
        "disrupted": rate(min(disrupted, declared), declared),
        "declared_in_melee": rate(near, declared),
        "cast_declarations_by_round": dict(sorted(rounds.items())),
    }


def leaderboard_counts(events: Sequence[Event], sides: Sequence[int], side: int, out: Counter[str]) -> None:
    """The leaderboard's OSE counts: retreats (``declare`` withdraw/retreat) and spell timing by initiative
    (ose-bx.md §3, §7): whether the caster's side had won the round's ``initiative`` (``side_0``, ``side_1``,
    ``tie`` or ``individual``) when the ``spell`` went off (``cast``) or was lost (``spell_disrupted``)."""
    initiative = "none"
    for e in events:
        if e.kind == "initiative":
            r = str(e.data.get("result", ""))
            initiative = ("won" if r == f"side_{side}" else "lost") if r.startswith("side_") else r
            continue
        if not acted_for(e, sides, side):
            continue
        if e.kind == "declare" and e.data.get("result") in ("withdraw", "retreat"):
            out["retreats"] += 1
        elif e.kind == "spell" and e.data.get("result") == "cast":
            out[f"spell_cast_init_{initiative}"] += 1
        elif e.kind == "spell_disrupted":
            out[f"spell_lost_init_{initiative}"] += 1


def leaderboard_figures(totals: Mapping[str, float]) -> dict[str, Any]:
    """``spell_initiative``: per initiative result (won, lost, tie, individual), the spells cast and those
    disrupted (from :func:`leaderboard_counts`); nothing when the agent cast no spell."""
    t = totals
    init = {k.removeprefix("spell_cast_init_"): int(v) for k, v in t.items() if k.startswith("spell_cast_init_")}
    lost = {k.removeprefix("spell_lost_init_"): int(v) for k, v in t.items() if k.startswith("spell_lost_init_")}
    if not (init or lost):
        return {}
    return {"spell_initiative": {when: {"cast": init.get(when, 0), "disrupted": lost.get(when, 0)}
                                 for when in sorted(set(init) | set(lost))}}


def decision_facts(state: Any, decision: Any) -> dict[str, Any]:
    """Whether the deciding combatant is in melee (an active enemy within reach, ose-bx.md §5.2)."""
    return {"engaged": engaged(state, decision.actor)}


#: attack verbs strike, shoot or cast at an enemy slot; leave verbs are the fighting withdrawal and the retreat,
#: declared then moved (ose-bx.md §2, §9)
TACTICS = Tactics(
    tactics=(("retreat_when_losing", retreat_when_losing), ("spell_timing", ose_spell_timing),
             ("focus_fire", focus_fire)),
    attack_verbs=frozenset({"melee", "shoot", "cast"}),
    leave_verbs=frozenset({"declare_withdraw", "declare_retreat", "withdraw", "retreat"}),
    # carry out what was declared, then keep backing off by fighting withdrawals (§5.2: no +2 to be hit, the
    # shield kept) until beyond the escape distance
    leave_plan=("withdraw", "retreat", "declare_withdraw", "declare_retreat"),
    profile=tactic_profile,
    leaderboard_counter=leaderboard_counts,
    leaderboard_figures=leaderboard_figures,
    decision_facts=decision_facts,
)
