"""The tactics only some rules allow, one function each, reading watched fights (``FightLog`` lists).

* RuneQuest: :func:`dodge_vs_parry` by the incoming weapon's class; :func:`runequest_spell_timing`, spells
  against the strike rank of the enemy's blows that round.
* OSE: :func:`ose_spell_timing`, spells declared before initiative and disrupted when the enemy acts first.
* MRQ: :func:`special_effects`, the effect chosen by role and success margin.
* Dice pool: :func:`defense_by_next`, dice moved to DEFENSE by who holds the next action slot.

:data:`TACTICS` lists, per system, the functions the tactics report runs (the shared ones of
:mod:`~npc_tactics.evaluation.tactics.common` included).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from npc_tactics.evaluation.tactics.common import _rate, focus_fire, retreat_when_losing
from npc_tactics.evaluation.tactics.observe import FightLog
from npc_tactics.rules.base import DecisionKind

__all__ = [
    "TACTICS",
    "decision_facts",
    "defense_by_next",
    "dodge_vs_parry",
    "ose_spell_timing",
    "runequest_spell_timing",
    "special_effects",
]

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
            out["by_class"][wclass] = {**row, "dodge_share": _rate(row["dodge"], row["dodge"] + row["parry"])}
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
        "went_before_enemy_blow": _rate(first, total),
        "by_sr_band": {b: {"spells": by_band[b], "went_first": before_by_band[b]} for b in ("1-4", "5-8", "9-12")
                       if by_band[b]},
        "cast_declarations_by_round": dict(sorted(rounds.items())),
    }


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
        "disrupted": _rate(min(disrupted, declared), declared),
        "declared_in_melee": _rate(near, declared),
        "cast_declarations_by_round": dict(sorted(rounds.items())),
    }


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
                                   "any_defense": _rate(sum(1 for x in d if x > 0), len(d))}
    return out


def decision_facts(system: str) -> Callable[[Any, Any], dict[str, Any]] | None:
    """The system's facts added to each watched decision's context (its registry ``decision_facts``), or None."""
    from npc_tactics.registry import get_system

    info = get_system(system)
    return info.load("decision_facts") if info.decision_facts else None


Tactic = Callable[[Sequence[FightLog], str], dict[str, Any]]

#: the tactics measured per system, in report order
TACTICS: dict[str, tuple[tuple[str, Tactic], ...]] = {
    "ose": (("retreat_when_losing", retreat_when_losing), ("spell_timing", ose_spell_timing),
            ("focus_fire", focus_fire)),
    "runequest": (("retreat_when_losing", retreat_when_losing), ("dodge_vs_parry", dodge_vs_parry),
                  ("spell_timing", runequest_spell_timing), ("focus_fire", focus_fire)),
    "mrq": (("retreat_when_losing", retreat_when_losing), ("special_effects", special_effects),
            ("focus_fire", focus_fire)),
    "dicepool": (("retreat_when_losing", retreat_when_losing), ("defense_by_next", defense_by_next),
                 ("focus_fire", focus_fire)),
}
