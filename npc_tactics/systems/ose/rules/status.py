"""Status changes and what they set off: the side's morale triggers and a pending spell lost (ose-bx.md §4, §7).

The lowest module of the attack code: damage (:mod:`.damage`), effects, breath and spells all change statuses
through :func:`set_status`.
"""

from __future__ import annotations

from npc_tactics.rules.base import EventSink, Status
from npc_tactics.systems.ose.rules.state import OSEState
from npc_tactics.systems.ose.rules.tables import SPELL_NAMES

__all__ = ["OUT", "OUT_WITH_FLED", "STATUS_NAMES", "disrupt_before_turn", "lose_spell", "set_status"]

STATUS_NAMES = {s: s.name.lower() for s in Status}
#: Who counts toward "half the side incapacitated or killed" (§4, A13); fled and surrendered members only
#: with the house option ``morale_count_fled``.
OUT = frozenset((Status.DEAD, Status.INCAPACITATED, Status.UNCONSCIOUS))
OUT_WITH_FLED = OUT | {Status.FLED, Status.SURRENDERED}


def set_status(state: OSEState, sink: EventSink, i: int, status: Status, cause: str) -> None:
    """Change a combatant's status, emit it, drop a pending spell and fire the side's morale triggers (§4)."""
    c = state.combatants[i]
    if c.status == status:
        return
    if c.status == Status.ACTIVE:
        state.active[c.side] -= 1
    elif status == Status.ACTIVE:
        state.active[c.side] += 1
    c.status = status
    c.dying = False
    sink.emit(
        "status",
        i,
        None,
        rule="ose-bx.md §10" if status == Status.DEAD else "ose-bx.md §4",
        status=STATUS_NAMES[status],
        cause=cause,
        result=STATUS_NAMES[status],
    )
    if c.casting >= 0:  # a caster taken out before its turn loses the spell (§7)
        lose_spell(state, sink, i, cause)
    if c.prof.swallow is not None and status != Status.ACTIVE:
        _free_swallowed(state, sink, i)
    side = c.side
    trigger = False
    if status == Status.DEAD and not state.first_death[side]:
        state.first_death[side] = True
        trigger = True
    if not state.half_out[side]:
        members = [x for x in state.combatants if x.side == side]
        gone = OUT_WITH_FLED if state.options["morale_count_fled"] else OUT
        out = sum(1 for x in members if x.status in gone)
        if 2 * out >= len(members):
            state.half_out[side] = True
            trigger = True
    if trigger:
        state.morale_due[side] = 1


def _free_swallowed(state: OSEState, sink: EventSink, i: int) -> None:
    """A swallower out of the fight frees those it swallowed (OSE purple worm: "until the worm dies"); still
    alive, they fight on from its square (rules/holds.py)."""
    for k, v in enumerate(state.combatants):
        if v.inside and v.held_by == i:
            v.inside = False
            v.held_by = -1
            v.pos = state.combatants[i].pos
            sink.emit("effect", i, k, rule="OSE swallow", effect="swallow", result="released")
            if v.hp > 0 and v.status == Status.INCAPACITATED:
                set_status(state, sink, k, Status.ACTIVE, "released")


def lose_spell(state: OSEState, sink: EventSink, i: int, cause: str) -> None:
    """The declared spell is disrupted: no effect, erased from memory as if cast (§7)."""
    c = state.combatants[i]
    sid = c.casting
    c.casting = -1
    c.spells[sid] -= 1
    sink.emit(
        "spell_disrupted",
        i,
        None,
        rule="ose-bx.md §7",
        spell=SPELL_NAMES[sid],
        cause=cause,
        result="disrupted",
    )


def disrupt_before_turn(state: OSEState, sink: EventSink, actor: int, target: int, cause: str) -> None:
    """§7: a caster whose side lost initiative, hit or damaged (a Magic Missile too) before its turn, loses
    the declared spell. Nobody lost initiative inside a tied (simultaneous) group (A5)."""
    t = state.combatants[target]
    if t.casting >= 0 and t.group > state.combatants[actor].group and not state.simul:
        lose_spell(state, sink, target, cause)
