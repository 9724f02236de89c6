"""Positions on the 1.5 m battle line: engagement, moving toward / away, clear paths, escaping the field.

The battlefield is a line of 1.5 m squares (ose-bx.md A7). Allies may share a square; nobody enters or
passes through a square held by an active enemy (that is what a "clear path" means, §5.2). A combatant
that moves away and ends off the field (when the scenario gives a length) or farther than the scenario's
escape distance from every active enemy has left the fight: ``Status.FLED``.

Flyers (``Profile.fly``, docs/ose-monsters.md "Flying"): unless the option ``flyer_disengage`` is ``none``, a
creature with a flying rate faster than its rate on foot moves at its flying rate, flies over the squares of
its enemies (it never ends on one), and only an enemy that flies faster than it can pursue it.
"""

from __future__ import annotations

from npc_tactics.rules.base import EventSink, Status
from npc_tactics.systems.ose.rules.state import Combatant, OSEState
from npc_tactics.systems.ose.rules.tables import MELEE_REACH


def dist(a: Combatant, b: Combatant) -> int:
    """Distance in squares (1 = adjacent = 1.5 m)."""
    d = a.pos - b.pos
    return d if d >= 0 else -d


def flying(state: OSEState, i: int) -> bool:
    """Whether ``i`` moves by flying: its flying rate beats its rate on foot and flight is played."""
    p = state.combatants[i].prof
    return p.fly > p.move and state.options["flyer_disengage"] != "none"


def speed(state: OSEState, i: int) -> int:
    """Encounter movement in squares per round: the flying rate of a flyer (:func:`flying`), else on foot."""
    p = state.combatants[i].prof
    return p.fly if p.fly > p.move and state.options["flyer_disengage"] != "none" else p.move


def engaged(state: OSEState, i: int) -> bool:
    """In melee: an active enemy within 1.5 m (§5.2, §8)."""
    c = state.combatants[i]
    cs = state.combatants
    for j in state.enemies[i]:
        e = cs[j]
        if e.status == Status.ACTIVE and abs(e.pos - c.pos) <= MELEE_REACH:
            return True
    return False


def threatened(state: OSEState, i: int) -> bool:
    """An active enemy could reach melee with ``i`` this round (within its move + 1 square)."""
    c = state.combatants[i]
    cs = state.combatants
    for j in state.enemies[i]:
        e = cs[j]
        if e.status == Status.ACTIVE and abs(e.pos - c.pos) <= MELEE_REACH + (e.prof.move if not e.prof.fly
                                                                              else speed(state, j)):
            return True
    return False


def away_direction(state: OSEState, i: int) -> int:
    """+1 or −1: away from the bulk of the active enemies; ties go toward the side's own edge."""
    c = state.combatants[i]
    cs = state.combatants
    total = 0
    for j in state.enemies[i]:
        e = cs[j]
        if e.status == Status.ACTIVE:
            total += (e.pos > c.pos) - (e.pos < c.pos)
    if total > 0:
        return -1
    if total < 0:
        return 1
    return -1 if c.side == 0 else 1


def _blocked(state: OSEState, i: int, square: int) -> bool:
    cs = state.combatants
    for j in state.enemies[i]:
        e = cs[j]
        if e.status == Status.ACTIVE and e.pos == square:
            return True
    return False


def path_clear(state: OSEState, i: int, direction: int) -> bool:
    """The square behind (in ``direction``) holds no active enemy: a withdrawal is possible (§5.2); a flyer
    flies over it."""
    if state.combatants[i].prof.fly and flying(state, i):
        return True
    return not _blocked(state, i, state.combatants[i].pos + direction)


def move_by(state: OSEState, i: int, direction: int, steps: int) -> int:
    """Move up to ``steps`` squares in ``direction``, stopping before an enemy's square; return squares moved."""
    c = state.combatants[i]
    moved = 0
    if c.prof.fly and flying(state, i):  # over the enemies' squares, landing on a free one
        last = c.pos
        for k in range(1, steps + 1):
            if not _blocked(state, i, c.pos + k * direction):
                last = c.pos + k * direction
        moved = (last - c.pos) * direction
        c.pos = last
    while moved < steps and not _blocked(state, i, c.pos + direction):
        c.pos += direction
        moved += 1
    if moved:
        c.moved = True
        c.cover = state.field.cover_at(c.pos)
    return moved


def move_toward(state: OSEState, i: int, target: int, steps: int) -> int:
    """Close on ``target``: move toward it, stopping adjacent (or before another enemy in the way)."""
    c = state.combatants[i]
    t = state.combatants[target]
    d = abs(t.pos - c.pos)
    if d <= MELEE_REACH:
        return 0
    direction = 1 if t.pos > c.pos else -1
    return move_by(state, i, direction, min(steps, d - MELEE_REACH))


def pursued(state: OSEState, i: int) -> bool:
    """Evasion and pursuit (OSE "Evasion"): an active enemy faster than ``i`` and not held in melee can run
    it down, so ``i`` has not escaped yet; the chase goes on along the line. Only a flyer pursues a flyer."""
    c = state.combatants[i]
    cs = state.combatants
    if c.prof.fly or any(cs[j].prof.fly for j in state.enemies[i]):
        mine = speed(state, i)
        up = flying(state, i)
        return any(
            cs[j].status == Status.ACTIVE and speed(state, j) > mine and (not up or flying(state, j))
            and not engaged(state, j)
            for j in state.enemies[i]
        )
    return any(
        cs[j].status == Status.ACTIVE and cs[j].prof.move > c.prof.move and not engaged(state, j)
        for j in state.enemies[i]
    )


def check_escape(state: OSEState, sink: EventSink, i: int) -> bool:
    """After a move away: off the field's edge or beyond the escape distance from every enemy -> FLED,
    unless a faster enemy is free to pursue (:func:`pursued`)."""
    c = state.combatants[i]
    f = state.field
    off_edge = f.length > 0 and (c.pos < 0 or c.pos >= f.length)
    if c.status != Status.ACTIVE or pursued(state, i):
        return False
    if not off_edge:
        if f.escape <= 0:
            return False
        cs = state.combatants
        for j in state.enemies[i]:
            e = cs[j]
            if e.status == Status.ACTIVE and abs(e.pos - c.pos) <= f.escape:
                return False
    from npc_tactics.systems.ose.rules.combat import set_status  # local import: combat imports movement

    set_status(state, sink, i, Status.FLED, "escaped_edge" if off_edge else "escaped_distance")
    return True
