"""Breath weapons and gaze attacks (OSE dragons, hellhound, gorgon; medusa, basilisk, vampire), on the battle
line (docs/ose-monsters.md "Breath and gaze").

A breather that attacks in melee first decides whether it breathes: its first attack of the fight always is a
breath, later ones on 1d6 <= its chance (dragons: "equal chance", 3), while it has uses left. A cone or a line
runs from the breather toward its target, :attr:`Breath.length` squares, and takes everyone on that side within
it, friend or foe (the 1-D battle line has no width); a cloud takes everyone within half its extent of the
target. Each victim saves (versus breath for dragons): half damage, or no effect for a petrifying breath.
A gazer's target saves against the gaze before the gazer's attacks (only the enemy it attacks meets its eyes).
"""

from __future__ import annotations

from npc_tactics.rules.base import EventSink, Status
from npc_tactics.systems.ose.rules import tables as T
from npc_tactics.systems.ose.rules.damage import apply_damage
from npc_tactics.systems.ose.rules.defences import save_target
from npc_tactics.systems.ose.rules.state import Breath, OSEState
from npc_tactics.systems.ose.rules.status import disrupt_before_turn, set_status

__all__ = ["AVERTED_TO_HIT", "GAZER_TO_HIT", "MIRROR_TO_HIT", "breathes", "breathe", "gaze", "gaze_to_hit"]

#: OSE medusa, basilisk: averting the eyes, -4 to hit it and it gets +2 to hit; fighting by a mirror -1 (basilisk)
AVERTED_TO_HIT = -4
GAZER_TO_HIT = 2
MIRROR_TO_HIT = -1

#: what a failed save against a gaze or a breath does, by effect
_OUT = {"petrification": Status.INCAPACITATED, "paralysis": Status.INCAPACITATED, "charm": Status.INCAPACITATED}


def breathes(state: OSEState, sink: EventSink, i: int) -> bool:
    """Whether combatant ``i`` breathes instead of using its routine this time (and counts the use)."""
    c = state.combatants[i]
    b = c.prof.breath
    if b is None or (0 <= b.uses <= c.breaths):
        return False
    if c.breaths:
        roll = sink.die(6, "breath", i)
        if roll > b.chance:
            return False
    c.breaths += 1
    return True


def area(state: OSEState, i: int, ti: int, b: Breath) -> list[int]:
    """The combatants the breath of ``i`` aimed at ``ti`` takes (active ones, the breather excluded)."""
    cs = state.combatants
    me, t = cs[i].pos, cs[ti].pos
    out = []
    for j, c in enumerate(cs):
        if j == i or c.status != Status.ACTIVE or c.hp <= 0:
            continue
        if b.shape == "cloud":
            inside = abs(c.pos - t) <= max(1, b.length // 2)
        else:
            toward = (t > me) - (t < me)
            side = (c.pos > me) - (c.pos < me)
            inside = (side == toward or side == 0) and abs(c.pos - me) <= b.length
        if inside:
            out.append(j)
    return out


def breathe(state: OSEState, sink: EventSink, i: int, ti: int) -> None:
    """The breath of ``i`` aimed at ``ti``: every victim saves; damage (halved on a save) or petrification."""
    c = state.combatants[i]
    b = c.prof.breath
    assert b is not None
    victims = area(state, i, ti, b)
    full = 0
    if b.damage == "hp":
        full = c.hp
    elif b.damage:
        full = sink.roll(b.damage, "damage", i, ti).total
    sink.emit("breath", i, ti, rule="OSE breath weapons", breath=b.kind, damage=full, count=len(victims),
              result="breathed")
    c.attacked = True
    for j in victims:
        need = save_target(state.combatants[j].prof, b.save)
        roll = sink.die(20, "save", j)
        saved = roll >= need
        sink.emit("effect", i, j, rule="OSE breath weapons", effect="breath", result="saved" if saved else "failed",
                  roll=roll, need=need, save=T.SAVE_CATEGORIES[b.save])
        if b.kind in _OUT:
            disrupt_before_turn(state, sink, i, j, "breath")
            if not saved and b.kind not in state.combatants[j].prof.immune:
                set_status(state, sink, j, _OUT[b.kind], b.kind)
            continue
        amount = full // 2 if saved else full
        if amount > 0:
            apply_damage(state, sink, i, j, amount, "breath", kind=b.kind)


def gaze_to_hit(state: OSEState, ai: int, ti: int) -> int:
    """The attack modifier of ``ai`` on ``ti`` from option ``avert_gaze`` (a petrifying gaze on either side)."""
    way = state.options["avert_gaze"]
    if way == "none":
        return 0
    a, t = state.combatants[ai].prof, state.combatants[ti].prof
    if t.gaze == "petrification":
        return AVERTED_TO_HIT if way == "avert" else MIRROR_TO_HIT
    if a.gaze == "petrification" and way == "avert":
        return GAZER_TO_HIT
    return 0


def gaze(state: OSEState, sink: EventSink, i: int, ti: int) -> None:
    """The gaze of ``i`` on the enemy it attacks: a save, or out of the fight (stone, paralysed, charmed)."""
    p = state.combatants[i].prof
    t = state.combatants[ti]
    effect = p.gaze
    if t.status != Status.ACTIVE or t.hp <= 0:
        return
    if effect == "petrification" and state.options["avert_gaze"] != "none":  # eyes averted, or a mirror
        way = "averted" if state.options["avert_gaze"] == "avert" else "mirror"
        sink.emit("effect", i, ti, rule="OSE gaze", effect=f"gaze_{effect}", result=way)
        return
    immunity = "energy_drain" if effect == "energy drain" else effect
    if immunity in t.prof.immune or (effect == "charm" and (t.prof.undead or "charm" in t.prof.immune)):
        sink.emit("effect", i, ti, rule="OSE gaze", effect=f"gaze_{effect}", result="unaffected")
        return
    need = save_target(t.prof, p.gaze_save)
    roll = sink.die(20, "save", ti)
    saved = roll >= need
    sink.emit("effect", i, ti, rule="OSE gaze", effect=f"gaze_{effect}", result="saved" if saved else "failed",
              roll=roll, need=need, save=T.SAVE_CATEGORIES[p.gaze_save])
    if not saved:
        set_status(state, sink, ti, _OUT[effect], f"gaze_{effect}")
