"""Which spells a combatant may declare (§4, A26): the per-stat-block spell rows and the spell part of
the DECLARE mask, split out of :mod:`.intents` to keep modules small."""

from __future__ import annotations

import numpy as np

from npc_tactics.rules.base import Status
from npc_tactics.systems.runequest.rules import actions as A
from npc_tactics.systems.runequest.rules import tables as T
from npc_tactics.systems.runequest.rules.hands import has_free_hand
from npc_tactics.systems.runequest.rules.magic import GONE, spell_cost, spell_sr
from npc_tactics.systems.runequest.rules.state import Combatant, CombatantSpec, RQState

ACTIVE = Status.ACTIVE


def _has_wound(c: Combatant) -> bool:
    return any(loc.damage > 0 and not loc.severed for loc in c.locations)


_SPELLS_OF: dict[int, tuple[CombatantSpec, list[tuple[str, str, int, int, int, int, bool]]]] = {}


def spells_of(c: Combatant) -> list[tuple[str, str, int, int, int, int, bool]]:
    """Per stat block, cached: (spell, target kind, MP, Rune points, SR at 1 point, range,
    healing)."""
    spec = c.spec
    hit = _SPELLS_OF.get(id(spec))
    if hit is not None and hit[0] is spec:
        return hit[1]
    rows = []
    for name, _pts in spec.spirit + spec.rune:
        row = T.SPELLS.get(name)
        if row is None or (name == "truesword" and not any(w.spec.sword for w in c.weapons)):
            continue
        mp, rp = spell_cost(name, 1 if row.variable else row.fixed_cost)
        rng = T.SPIRIT_RANGE_M if row.kind == "spirit" else T.RUNE_RANGE_M
        rows.append(
            (name, row.target, mp, rp, spell_sr(c, name, 1), rng, name in ("heal", "heal_wound"))
        )
    _SPELLS_OF[id(spec)] = (spec, rows)
    return rows


def spell_mask(
    s: RQState,
    c: Combatant,
    allies: list[int],
    enemies: list[int],
    m: np.ndarray,
    extra: int,
    spirit_only: bool = False,
    free: bool | None = None,
) -> None:
    if free is None:
        free = has_free_hand(c)
    for name, target, mp, rp, sr1, rng, healing in spells_of(c):
        if c.mp < mp or c.rune_points < rp or sr1 + extra > T.MAX_SR:
            continue
        if spirit_only and rp > 0:
            continue
        if not free and T.SPELLS[name].kind == "spirit" and name not in T.NO_FREE_HAND_SPELLS:
            continue  # most spirit spells need a free hand (§4, A26)
        if target == "enemy":
            row_e = A.CAST_ENEMY[name]
            for k, ei in enumerate(enemies):
                e = s.combatants[ei]
                if e.status == ACTIVE and abs(e.pos - c.pos) <= rng:
                    m[row_e[k]] = True
            continue
        if not healing or _has_wound(c):
            m[A.CAST_SELF[name]] = True
        if target == "friend":
            row_a = A.CAST_ALLY[name]
            for k, ai in enumerate(allies):
                p = s.combatants[ai]
                if p.status in GONE or abs(p.pos - c.pos) > rng or (healing and not _has_wound(p)):
                    continue
                m[row_a[k]] = True
