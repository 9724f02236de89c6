"""Split attacks with a weapon skill over 100% (RQG "Skills over 100%", issue 10 RuneQuest point 11).

A combatant whose melee weapon skill is over 100% may divide it into several attacks in the same
round. The declaration stays one ``attack:<w>:enemy_k`` choice; when a split is possible the engine
asks an OPTION follow-up, reusing the ``power:<n>`` rows as "make n attacks" (``power:1`` = one
attack at the full skill), so the action space does not change.

Published detail checked: only that the skill may be divided. Not verified, chosen as the most
common reading and marked [unverified] in docs/runequest.md: every attack keeps at least 50%
(``tables.SPLIT_MIN_SKILL``), all at the declared target, each later attack DEX SR after the one
before and none past SR 12, the divided skill is the weapon's own (Bladesharp is added to each part
afterwards, as an aimed blow halves before Bladesharp). Option ``split_attacks``: "published"
(default) or "off" (v0: the skill is used whole).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from npc_tactics.systems.runequest.rules import actions as A
from npc_tactics.systems.runequest.rules import tables as T
from npc_tactics.systems.runequest.rules.state import Combatant, Intent, RQState, Step


def max_parts(c: Combatant, w: int, sr: int, options: Mapping[str, Any]) -> int:
    """How many attacks a melee attack with weapon ``w`` at ``sr`` may be split into (1: no split)."""
    skill = c.weapons[w].spec.skill
    if options["split_attacks"] == "off" or skill <= T.SPLIT_ABOVE:
        return 1
    gap = max(1, c.spec.dex_sr)
    by_sr = (T.MAX_SR - sr) // gap + 1
    return max(1, min(skill // T.SPLIT_MIN_SKILL, by_sr, T.MAX_POWER))


def part_skills(skill: int, parts: int) -> list[int]:
    """``skill`` divided into ``parts`` attacks as evenly as possible, the first ones taking the
    remainder (155 in 2 -> 78, 77)."""
    base, extra = divmod(skill, parts)
    return [base + (1 if i < extra else 0) for i in range(parts)]


def splitting(it: Intent | None) -> bool:
    """Whether an OPTION decision is the split choice (a weapon attack waiting for its count)."""
    return it is not None and it.verb == "attack" and not it.spell and len(it.steps) == 1


def split_mask(s: RQState, idx: int, options: Mapping[str, Any]) -> np.ndarray:
    """Legal counts of attacks: ``power:1`` .. ``power:n``."""
    m = np.zeros(A.N, dtype=np.bool_)
    c = s.combatants[idx]
    it = c.intent
    assert it is not None
    first = it.steps[0]
    for n in range(1, max_parts(c, first.weapon, first.sr, options) + 1):
        m[A.POWER[n - 1]] = True
    return m


def finish_split(s: RQState, idx: int, parts: int) -> int:
    """Turn the declared attack into ``parts`` attacks, each DEX SR after the previous one; return
    the SR of the last one."""
    c = s.combatants[idx]
    it = c.intent
    assert it is not None
    first = it.steps[0]
    it.sr_used = 0
    if parts <= 1:
        return first.sr
    gap = max(1, c.spec.dex_sr)
    it.steps = [
        Step(
            "attack",
            first.sr + k * gap,
            first.weapon,
            first.target,
            shot=k,
            readied=first.readied and k == 0,
            parts=parts,
        )
        for k in range(parts)
    ]
    return it.steps[-1].sr
