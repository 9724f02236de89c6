"""RuneQuest's tactics hook: dodge or parry by the incoming weapon, spells against the enemy's strike rank, the
verbs of attacking and leaving, and the tactic profiles."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from npc_tactics.evaluation.tactic_profile import acted_for, ratio
from npc_tactics.evaluation.tactics.common import focus_fire, rate, retreat_when_losing
from npc_tactics.evaluation.tactics.hooks import Tactics
from npc_tactics.evaluation.tactics.observe import FightLog
from npc_tactics.rules.base import DecisionKind, Event
from npc_tactics.systems.runequest.rules.profile import tactic_profile

__all__ = ["TACTICS", "WEAPON_CLASSES", "dodge_vs_parry", "leaderboard_counts", "leaderboard_figures",
           "runequest_spell_timing"]

WEAPON_CLASSES = ("light", "medium", "great", "shield", "missile", "natural")


def dodge_vs_parry(logs: Sequence[FightLog], system: str = "runequest") -> dict[str, Any]:
    """RuneQuest: parry, dodge or no defence chosen by the watched side, per class of the incoming weapon
    (light / medium / great / shield / missile / natural), from the tactic profile (``parry_vs_<class>`` ...;
    ``systems/runequest/rules/profile.py``); ``dodge_share`` is dodges over parries plus dodges. Free blows at a
    fugitive are no choice and are left out by the profile."""
    counts: Counter[tuple[str, str]] = Counter()
    for log in logs:
        for key, n in log.record.tactic_profile[log.side].items():
            for prefix, how in (("parry_vs_", "parry"), ("dodge_vs_", "dodge"), ("no_defence_vs_", "none")):
                if key.startswith(prefix):
                    counts[(key.removeprefix(prefix), how)] += int(n)
    out: dict[str, Any] = {"fights": len(logs), "by_class": {}}
    for wclass in WEAPON_CLASSES:
        row = {how: counts[(wclass, how)] for how in ("parry", "dodge", "none")}
        if sum(row.values()):
            out["by_class"][wclass] = {**row, "dodge_share": rate(row["dodge"], row["dodge"] + row["parry"])}
    return out


def runequest_spell_timing(logs: Sequence[FightLog], system: str = "runequest") -> dict[str, Any]:
    """RuneQuest: spells against the enemy's strike rank. For each spell the watched side cast (the ``spell``
    event, with its SR), the first blow an enemy struck in the same round: the spell *went first* when its SR
    was lower than that blow's (or no enemy struck that round). Also: of the statements of intent where the
    caster chose a spell, in which round (1, 2, 3+)."""
    first = total = 0
    by_band: Counter[str] = Counter()
    before_by_band: Counter[str] = Counter()
    srs: list[int] = []
    rounds: Counter[str] = Counter()
    for log in logs:
        mine = {i for i, s in enumerate(log.sides) if s == log.side}
        enemy_sr: dict[int, int] = {}
        for e in log.events:
            if e.kind == "attack" and e.actor is not None and e.actor not in mine and not e.data.get("free"):
                sr = e.data.get("sr")
                if isinstance(sr, int):
                    enemy_sr[e.round] = min(enemy_sr.get(e.round, 99), sr)
        for e in log.events:
            if e.kind != "spell" or e.actor not in mine or e.data.get("result") not in ("success", "failure",
                                                                                          "resisted"):
                continue
            sr = int(e.data.get("sr", 12))
            band = "1-4" if sr <= 4 else "5-8" if sr <= 8 else "9-12"
            went_first = sr < enemy_sr.get(e.round, 99)
            total += 1
            first += went_first
            by_band[band] += 1
            before_by_band[band] += went_first
            srs.append(sr)
        for m in log.moves:
            if m.kind == DecisionKind.DECLARE and m.verb == "cast":
                rounds["1" if m.round <= 1 else "2" if m.round == 2 else "3+"] += 1
    return {
        "fights": len(logs),
        "spells": total,
        "mean_spell_sr": round(float(np.mean(srs)), 2) if srs else None,
        "went_before_enemy_blow": rate(first, total),
        "by_sr_band": {b: {"spells": by_band[b], "went_first": before_by_band[b]} for b in ("1-4", "5-8", "9-12")
                       if by_band[b]},
        "cast_declarations_by_round": dict(sorted(rounds.items())),
    }


def leaderboard_counts(events: Sequence[Event], sides: Sequence[int], side: int, out: Counter[str]) -> None:
    """The leaderboard's RuneQuest counts (rq-combat.md): parry or dodge (``defence`` ``how``) by the incoming
    weapon class (``wclass``), undefended blows (``attack`` with ``defence: none``, free blows left out), the
    strike rank each ``spell`` went off at (``sr``) and ``declare`` retreats. A parry chosen but lost to an
    earlier fumble (``parry_lost``, before the blow) still counts as a parry against that blow's weapon: the
    profile counts choices, not rolls."""
    lost: set[tuple[int | None, int | None]] = set()  # (defender, attacker) whose chosen parry was lost
    for e in events:
        k = e.kind
        d = e.data
        if k == "defence" and acted_for(e, sides, side) and d.get("how") in ("parry", "dodge"):
            out[f"{d['how']}_vs_{d.get('wclass', '?')}"] += 1
        elif k == "parry_lost" and acted_for(e, sides, side):
            lost.add((e.actor, e.target))
        elif k == "attack" and e.target is not None and 0 <= e.target < len(sides) and sides[e.target] == side:
            if (e.target, e.actor) in lost:
                lost.discard((e.target, e.actor))
                out[f"parry_vs_{d.get('wclass', '?')}"] += 1
            elif d.get("defence") == "none" and not d.get("free"):
                out[f"no_defence_vs_{d.get('wclass', '?')}"] += 1
        elif k == "spell" and acted_for(e, sides, side) and d.get("result") in ("success", "failure", "resisted"):
            sr = int(d.get("sr", 0))
            out[f"spell_sr_{sr}"] += 1
            out["spell_rank_sum"] += sr
        elif k == "declare" and acted_for(e, sides, side) and d.get("result") == "retreat":
            out["retreats"] += 1


def leaderboard_figures(totals: Mapping[str, float]) -> dict[str, Any]:
    """From :func:`leaderboard_counts`' sums: ``dodge_share_by_weapon`` (parries, dodges, undefended blows and
    the dodge share per incoming weapon class) and, once a spell went off, ``spell_strike_ranks`` (spells per
    SR) and ``spell_sr_mean``."""
    t = totals
    out: dict[str, Any] = {}
    classes = sorted({k.split("_vs_", 1)[1] for k in t if k.startswith(("parry_vs_", "dodge_vs_"))})
    if classes:
        out["dodge_share_by_weapon"] = {
            w: {"parry": int(t.get(f"parry_vs_{w}", 0)), "dodge": int(t.get(f"dodge_vs_{w}", 0)),
                "none": int(t.get(f"no_defence_vs_{w}", 0)),
                "dodge_share": ratio(t.get(f"dodge_vs_{w}", 0.0),
                                     t.get(f"dodge_vs_{w}", 0.0) + t.get(f"parry_vs_{w}", 0.0))}
            for w in classes
        }
    srs = {int(k.removeprefix("spell_sr_")): int(v) for k, v in t.items() if k.startswith("spell_sr_") and v}
    if srs or "spell_rank_sum" in t:
        out["spell_strike_ranks"] = {str(k): srs[k] for k in sorted(srs)}
        out["spell_sr_mean"] = ratio(t.get("spell_rank_sum", 0.0), sum(srs.values()))
    return out


#: attack verbs strike or cast at an enemy slot; leave verbs are retreat and flee, declared in the statement
#: of intent (§25)
TACTICS = Tactics(
    tactics=(("retreat_when_losing", retreat_when_losing), ("dodge_vs_parry", dodge_vs_parry),
             ("spell_timing", runequest_spell_timing), ("focus_fire", focus_fire)),
    attack_verbs=frozenset({"attack", "aimed", "knockback", "cast"}),
    leave_verbs=frozenset({"retreat", "flee"}),
    # a retreat only steps out of reach (§1 phase 2); flight takes the NPC out of the fight (§21), so an NPC
    # that has chosen to leave flees at its next statement of intent where it can
    leave_plan=("flee", "retreat"),
    profile=tactic_profile,
    leaderboard_counter=leaderboard_counts,
    leaderboard_figures=leaderboard_figures,
)
