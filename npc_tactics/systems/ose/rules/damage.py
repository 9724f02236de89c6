"""Hit points lost, and what 0 hit points means (ose-bx.md §10; regenerators: rules/defences.py)."""

from __future__ import annotations

from npc_tactics.rules.base import EventSink, Status
from npc_tactics.systems.ose.rules import defences
from npc_tactics.systems.ose.rules.state import OSEState
from npc_tactics.systems.ose.rules.status import disrupt_before_turn, set_status

__all__ = ["apply_damage", "fall_to", "flush_dying"]


def apply_damage(
    state: OSEState, sink: EventSink, actor: int, target: int, amount: int, cause: str, kind: str = ""
) -> None:
    """Take ``amount`` hit points (already ≥ 1) of damage ``kind`` (fire, cold ...; "" weapons and plain
    magic: rules/defences.py applies immunities and halving); at 0 HP the target dies (§10), or goes down to
    revive if it regenerates. In a simultaneous step the death waits for the end of the step, so two
    opponents can kill each other (§3)."""
    t = state.combatants[target]
    disrupt_before_turn(state, sink, actor, target, cause)
    if kind or t.prof.regenerate:
        amount = defences.take_kind(state, sink, actor, target, amount, kind)
        if amount <= 0:
            return
    lost = amount if amount < t.hp else t.hp
    t.hp -= lost
    sink.emit(
        "damage",
        actor,
        target,
        rule="ose-bx.md §10",
        amount=lost,
        rolled=amount,
        hp=t.hp,
        cause=cause,
    )
    if t.hp <= 0:
        if state.simul:
            t.dying = True
        else:
            fall_to(state, sink, target, cause)


def fall_to(state: OSEState, sink: EventSink, i: int, cause: str) -> None:
    """0 hit points: dead, or down and regenerating (:func:`.defences.fall`)."""
    status, why = defences.fall(state, sink, i, cause) if state.combatants[i].prof.regenerate else (Status.DEAD, cause)
    set_status(state, sink, i, status, why)


def flush_dying(state: OSEState, sink: EventSink) -> None:
    """End of a simultaneous step: those reduced to 0 HP die now."""
    for i, c in enumerate(state.combatants):
        if c.dying:
            fall_to(state, sink, i, "damage")
