"""Spells and First Aid resolved at their strike rank (§4, §20, Published data).

Spirit magic: roll POW x 5 (the stat block's ``spirit_chance``); success spends the spell's MP,
failure
spends 1 MP (rules choice R-MAGIC-1). Rune magic: roll the Rune skill; success spends the Rune
points (Heal Wound also spends MP equal to the HP it heals), failure spends nothing. Resisted spells
(Disruption, Befuddle) must then beat the target on the MP-vs-MP resistance roll.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from npc_tactics.rules.base import EventSink, Status
from npc_tactics.systems.runequest.rules import calc
from npc_tactics.systems.runequest.rules import tables as T
from npc_tactics.systems.runequest.rules.damage import heal_location, hit_location, worst_location, wound
from npc_tactics.systems.runequest.rules.state import Combatant, RQState, Step

GONE = (Status.DEAD, Status.FLED)


def spell_cost(spell: str, power: int) -> tuple[int, int]:
    """(MP, Rune points) a casting of ``spell`` at ``power`` points spends."""
    row = T.SPELLS[spell]
    pts = power if row.variable else row.fixed_cost
    if row.kind == "spirit":
        return pts, 0
    if spell == "heal_wound":
        return power, row.fixed_cost
    return 0, pts


def can_afford(c: Combatant, spell: str, power: int) -> bool:
    mp, rp = spell_cost(spell, power)
    return c.mp >= mp and c.rune_points >= rp


def spell_sr(c: Combatant, spell: str, power: int) -> int:
    """Spirit magic at DEX SR + 1 per MP beyond the first; Rune magic at SR 1 + 1 per magic point
    beyond the first spent on it (Heal Wound's MP), never per Rune point (§4, source L80)."""
    if T.SPELLS[spell].kind == "rune":
        mp, _rp = spell_cost(spell, power)  # Rune points add no SR, only MP beyond the first
        return T.RUNE_SPELL_SR + max(0, mp - 1)
    return c.spec.dex_sr + max(0, power - 1)


def cast(s: RQState, ci: int, step: Step, sink: EventSink) -> str:
    """Resolve a spell step; return its result ("success", "failure", "resisted", "no_target")."""
    c = s.combatants[ci]
    row = T.SPELLS[step.spell]
    t = s.combatants[step.target]
    rng = T.SPIRIT_RANGE_M if row.kind == "spirit" else T.RUNE_RANGE_M
    if (
        t.status in GONE
        or abs(t.pos - c.pos) > rng
        or (row.target == "enemy" and t.status != Status.ACTIVE)
    ):
        return _emit(sink, ci, step, "no_target")
    if not can_afford(c, step.spell, step.power):
        return _emit(sink, ci, step, "no_magic_points")
    chance = c.spec.spirit_chance if row.kind == "spirit" else c.spec.rune_chance
    if calc.success_level(sink.die(100, "cast", ci, step.target), chance) >= T.FAILURE:
        if row.kind == "spirit":
            c.mp = max(0, c.mp - 1)
        return _emit(sink, ci, step, "failure")
    mp, rp = spell_cost(step.spell, step.power)
    c.mp -= mp
    c.rune_points -= rp
    if row.resisted:
        chance = calc.resistance_chance(c.mp + mp, t.mp)
        if sink.die(100, "resistance", ci, step.target) > chance:
            return _emit(sink, ci, step, "resisted")
    _effect(s, ci, step, sink)
    return _emit(sink, ci, step, "success")


def _emit(sink: EventSink, ci: int, step: Step, result: str) -> str:
    sink.emit(
        "spell",
        ci,
        step.target,
        rule="§4",
        spell=step.spell,
        magic=T.SPELLS[step.spell].kind,
        sr=step.sr,
        power=step.power,
        result=result,
    )
    return result


def _effect(s: RQState, ci: int, step: Step, sink: EventSink) -> None:
    t = s.combatants[step.target]
    name, pts = step.spell, step.power
    dur = T.SPELLS[name].duration
    if name == "bladesharp":
        t.bladesharp, t.bladesharp_rounds = pts, dur
    elif name == "protection":
        t.protection, t.protection_rounds = pts, dur
    elif name == "shield":
        t.shield_spell, t.shield_rounds = pts, dur
    elif name == "truesword":
        t.truesword_rounds = dur
    elif name == "befuddle":
        t.befuddled_rounds = dur
    elif name == "disruption":
        li = hit_location(t, sink.die(20, "hit_location", ci, step.target))
        points = sink.roll(T.DISRUPTION_DAMAGE, "disruption", ci, step.target).total
        wound(s, step.target, li, points, True, sink, ci, "§4 Disruption", "spell")
    elif name in ("heal", "heal_wound"):
        li = worst_location(t)
        if li >= 0:
            healed = heal_location(t, li, pts)
            sink.emit(
                "heal",
                ci,
                step.target,
                rule="§20",
                amount=healed,
                location=t.locations[li].spec.name,
                result=name,
            )


def needs_aid(p: Combatant) -> bool:
    """A patient First Aid can help: bleeding, or a wound not yet first-aided (§20.1)."""
    if p.status in GONE:
        return False
    if p.bleed_clock or p.bleed_per_round:
        return True
    if p.hp >= p.max_hp:  # fast path: no wound (healing restores location and total HP together)
        return False
    return worst_location(p, first_aid=True) >= 0


def first_aid(s: RQState, hi: int, step: Step, sink: EventSink, options: Mapping[str, Any]) -> str:
    """One round of First Aid by ``hi`` on ``step.target`` (§20.1; test vector 19).

    A bleeding patient: one round, a success stops the bleeding. Otherwise the healer works 5 rounds
    on the worst wound, then rolls: critical 1D3+3, special 2D3, success 1D3 HP (never more than the
    wound), a fumble inflicts 1D3 more. Abandoning the task early costs the patient 2 HP (handled at
    declaration).
    """
    h, p = s.combatants[hi], s.combatants[step.target]
    if p.status in GONE or abs(p.pos - h.pos) > T.MELEE_REACH_M:
        h.aid_patient, h.aid_rounds = -1, 0
        return _aid(sink, hi, step.target, "no_target")
    if p.bleed_clock or p.bleed_per_round:
        level = calc.success_level(sink.die(100, "first_aid", hi, step.target), h.spec.first_aid)
        if level <= T.SUCCESS:
            p.bleed_clock = p.bleed_per_round = 0
            for loc in p.locations:
                if loc.spec.kind != "limb" and loc.damage >= loc.spec.max_hp:
                    loc.first_aided = True
            return _aid(sink, hi, step.target, "bleeding_stopped")
        if level == T.FUMBLE:
            _aid_fumble(s, hi, step.target, sink)
        return _aid(sink, hi, step.target, T.LEVEL_NAMES[level])
    if h.aid_patient != step.target:
        h.aid_patient, h.aid_rounds = step.target, 0
    h.aid_rounds += 1
    if h.aid_rounds < T.FIRST_AID_HEAL_ROUNDS:
        return _aid(sink, hi, step.target, "in_progress")
    h.aid_patient, h.aid_rounds = -1, 0
    li = worst_location(p, first_aid=True)
    if li < 0:
        return _aid(sink, hi, step.target, "no_wound")
    level = calc.success_level(sink.die(100, "first_aid", hi, step.target), h.spec.first_aid)
    p.locations[li].first_aided = True
    if level <= T.SUCCESS:
        healed = heal_location(
            p, li, sink.roll(T.FIRST_AID_HEAL[level], "first_aid_heal", hi).total
        )
        sink.emit(
            "heal",
            hi,
            step.target,
            rule="§20.1",
            amount=healed,
            location=p.locations[li].spec.name,
            result="first_aid",
        )
    elif level == T.FUMBLE:
        _aid_fumble(s, hi, step.target, sink, li)
    return _aid(sink, hi, step.target, T.LEVEL_NAMES[level])


def _aid_fumble(s: RQState, hi: int, pi: int, sink: EventSink, li: int = -1) -> None:
    p = s.combatants[pi]
    if li < 0:
        li = max(0, worst_location(p))
    wound(
        s,
        pi,
        li,
        sink.roll(T.FIRST_AID_FUMBLE_DAMAGE, "first_aid_fumble", hi).total,
        True,
        sink,
        hi,
        "§20.1 fumble",
        "first_aid",
    )


def abandon_aid(s: RQState, hi: int, sink: EventSink) -> None:
    """The healer did something else during the 5 rounds: the patient loses 2 HP (§20.1)."""
    h = s.combatants[hi]
    pi = h.aid_patient
    h.aid_patient, h.aid_rounds = -1, 0
    p = s.combatants[pi]
    if p.status in GONE:
        return
    p.hp -= T.FIRST_AID_ABANDON_LOSS
    p.dirty = True
    sink.emit(
        "first_aid", hi, pi, rule="§20.1", result="abandoned", penalty=T.FIRST_AID_ABANDON_LOSS
    )
    sink.emit(
        "damage",
        None,
        pi,
        rule="§20.1",
        amount=T.FIRST_AID_ABANDON_LOSS,
        location="",
        result="abandoned",
    )


def _aid(sink: EventSink, hi: int, pi: int, result: str) -> str:
    sink.emit("first_aid", hi, pi, rule="§20.1", result=result)
    return result
