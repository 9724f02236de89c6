"""Monster morale (ose-bx.md §4, A13) and surprise (OSE "Surprise", option ``surprise``).

A side's check becomes due at its first death and when half of it is out; it is rolled at the side's next
morale step (3.1). ML 2 monsters will not fight; a failed check means flight, or surrender when cornered.
"""

from __future__ import annotations

from npc_tactics.rules.base import EventSink, Status
from npc_tactics.systems.ose.rules import conditions
from npc_tactics.systems.ose.rules.combat import set_status
from npc_tactics.systems.ose.rules.movement import away_direction, path_clear
from npc_tactics.systems.ose.rules.state import OSEState
from npc_tactics.systems.ose.rules.tables import MORALE_FEARLESS, MORALE_NEVER_FIGHTS, MORALE_PASSES_TO_FEARLESS


def morale_step(state: OSEState, sink: EventSink, side: int) -> None:
    """Step 3.1 for ``side`` (§4): ML 2 monsters will not fight (they leave unless cornered), then a due
    check is rolled."""
    if not state.options["morale"]:
        state.morale_due[side] = 0
        return
    for i, c in enumerate(state.combatants):
        if (
            c.side == side
            and c.status == Status.ACTIVE
            and 0 < c.prof.morale <= MORALE_NEVER_FIGHTS
            and not cornered(state, i)
        ):
            sink.emit(
                "morale", i, None, rule="ose-bx.md §4", result="never_fights", roll=0, morale=c.prof.morale
            )
            set_status(state, sink, i, Status.FLED, "morale")
    if state.morale_due[side]:
        morale_check(state, sink, side)


def cornered(state: OSEState, i: int) -> bool:
    """No way back: the square behind (away from the enemies) holds an active enemy."""
    return not path_clear(state, i, away_direction(state, i))


def effective_morale(ml: int, modifier: int) -> int:
    """ML with the referee's situational modifier (−2..+2), never applied to ML 2 or 12 (§4)."""
    if ml <= MORALE_NEVER_FIGHTS or ml >= MORALE_FEARLESS:
        return ml
    return ml + modifier


def morale_check(state: OSEState, sink: EventSink, side: int) -> None:
    """One 2d6 morale roll for a side whose check is due (§4): roll > ML -> the monster flees, or
    surrenders when cornered (OSE: "flee or surrender")."""
    state.morale_due[side] = 0
    if not state.options["morale"]:
        return
    cs = state.combatants
    checking = [
        i
        for i, c in enumerate(cs)
        if c.side == side
        and c.status == Status.ACTIVE
        and c.prof.morale > 0
        and c.prof.morale < MORALE_FEARLESS
        and c.morale_passes < MORALE_PASSES_TO_FEARLESS
    ]
    if not checking:
        return
    roll = sink.roll("2d6", "morale", checking[0]).total
    for i in checking:
        ml = effective_morale(cs[i].prof.morale, state.morale_mod[side])
        if cs[i].conditions and MORALE_NEVER_FIGHTS < ml < MORALE_FEARLESS:  # Bless: +1 (rules/conditions.py)
            ml += conditions.morale_bonus(state, i)
        failed = ml <= MORALE_NEVER_FIGHTS or roll > ml
        sink.emit(
            "morale",
            i,
            None,
            rule="ose-bx.md §4",
            result="failed" if failed else "passed",
            roll=roll,
            morale=ml,
        )
        if failed:
            if cornered(state, i):
                set_status(state, sink, i, Status.SURRENDERED, "morale")
            else:
                set_status(state, sink, i, Status.FLED, "morale")
        else:
            cs[i].morale_passes += 1


def roll_surprise(state: OSEState, sink: EventSink) -> None:
    """Option ``surprise`` (OSE "Surprise"): before round 1 each side rolls 1d6 and is surprised on 1–2 (on
    1–3 facing a bugbear: the highest ``surprise_on`` among its enemies); a surprised side loses round 1.
    If both sides are surprised, neither loses anything."""
    cs = state.combatants
    rolls, hit = [], []
    for s in (0, 1):
        on = max((c.prof.surprise_on for c in cs if c.side != s and c.status == Status.ACTIVE), default=2)
        r = sink.die(6, f"surprise side {s}")
        rolls.append(r)
        hit.append(r <= on)
    if all(hit):
        hit = [False, False]
    state.surprised = (hit[0], hit[1])
    result = "side_0" if hit[0] else "side_1" if hit[1] else "none"
    sink.emit("surprise", rule="OSE Surprise", result=result, rolls=rolls)
