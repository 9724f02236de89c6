"""Special defences, damage kinds and regeneration's hold on death (docs/ose-monsters.md): harmed only by silver or
magic weapons, immune to or halving a damage kind, damage a regenerator cannot heal, and a regenerator that goes
down instead of dying. Below :mod:`.damage`, which asks these questions of every blow."""

from __future__ import annotations

from npc_tactics.rules.base import EventSink, Status
from npc_tactics.systems.ose.rules.state import OSEState, Profile

__all__ = ["fall", "harms", "save_target", "take_kind"]


def save_target(p: Profile, category: int) -> int:
    """The saving throw of ``p`` in ``category`` (index of tables.SAVE_CATEGORIES)."""
    return p.saves[category] if p.saves else p.save_spells


def harms(attacker: Profile, target: Profile) -> bool:
    """Whether the attacker's weapon can harm the target at all (OSE: "only harmed by silver or magic weapons")."""
    if not target.hit_by:
        return True
    return attacker.weapon_magic > 0 or (target.hit_by == "silver" and attacker.weapon_silver)


def take_kind(state: OSEState, sink: EventSink, ai: int, ti: int, amount: int, kind: str) -> int:
    """``amount`` of damage of ``kind`` (fire, cold, acid, lightning ...; "" = weapons) after the target's
    immunity or halving; notes damage it cannot regenerate. Returns the damage to apply (0 = none)."""
    t = state.combatants[ti]
    p = t.prof
    if kind:
        if kind in p.immune:
            sink.emit("resist", ai, ti, rule="OSE monster immunities", damage_kind=kind, result="immune", amount=0)
            return 0
        if kind in p.halved:
            amount = max(1, amount // 2)
            sink.emit("resist", ai, ti, rule="OSE monster immunities", damage_kind=kind, result="halved", amount=amount)
    if p.regenerate:
        if kind in p.regenerate_not:
            t.burnt += amount if amount < t.hp else t.hp
        if not t.regen_from:
            t.regen_from = state.round + p.regenerate_after
    return amount


def fall(state: OSEState, sink: EventSink, i: int, cause: str) -> tuple[Status, str]:
    """What 0 hit points means for combatant ``i``: death, or (a regenerator with hit points it can still
    regenerate) down until it revives after the ``revives`` dice of rounds (OSE troll)."""
    c = state.combatants[i]
    p = c.prof
    if p.regenerate and p.revives and c.burnt < c.max_hp:
        c.revive_in = sink.roll(p.revives, "revive", i).total
        return Status.INCAPACITATED, "regenerating"
    return Status.DEAD, cause
