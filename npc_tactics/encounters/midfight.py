"""Mid-fight starts: play a drawn fight's first decisions before anyone learns or is measured on it.

A GM's fight is often already under way when the NPCs' next move is asked. An encounter with ``warmup`` > 0
(drawn from a distribution's ``midfight`` key) is started by :meth:`Encounter.start_combat
<npc_tactics.encounters.generator.Encounter.start_combat>`, which calls :func:`warm_up` after the opening
and the wear: that many decisions are answered through the engine protocol alone (``pending``,
``legal_mask``, ``step``, ``outcome``; no agent, no policy), so the fight starts in round N with wounds
dealt, ammunition shot, positions moved and reactions pending.

How a warm-up move is chosen. Each decision's legal moves, less the catalogue entries whose verb is in
:data:`FLIGHT_VERBS` (a declared flight is carried out steps later), are tried in a uniformly random order (at
most :data:`MAX_TRIES` of them); each is played on a copy (``step`` without ``inplace``) and the first one
whose step keeps the fight live is kept: the fight has no outcome and a pending decision, and no combatant
who was active left the fight alive (status ``FLED`` or ``SURRENDERED``: a flight move, an escape past the
escape distance, a morale break, a surrender, whatever the system calls it). So the warm-up never ends the
fight and never takes anyone off the field; blows, kills that leave both sides standing, spells, movement
and reloads are all kept. When no tried move keeps the fight live (the last foe would fall whatever is
chosen, a sleep spell declared earlier takes a whole side out, a retreat declared earlier carries the
retreating side off the field), the warm-up stops *before* that decision: the fight starts there, after
fewer decisions than drawn (deterministically: the same encounter always stops at the same place).

Randomness. The moves come from ``default_rng([seed, 4])`` and the warm-up's dice from
``RngRoller(default_rng([seed, 5]))``, ``seed`` being the encounter's: the fight's own roller (the one passed
to ``start_combat``) only rolls the opening, as in a plain start, and the dice it rolls after the warm-up are
the ones a plain start would roll after its opening. (Stream ``[seed, 1]`` places the wear, ``[seed, 2]``
picks shipped scenarios, ``[seed, 3]`` decides whether and how long a warm-up is, at draw time.)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from npc_tactics.dice import RngRoller
from npc_tactics.rules.base import Engine, Event, Status

#: how many of a decision's legal moves are tried (in random order) before the warm-up stops there
MAX_TRIES = 8
#: statuses a warm-up move must not give an active combatant: out of the fight alive (flight, morale, surrender)
LEFT = (Status.FLED, Status.SURRENDERED)
#: catalogue verbs never tried: a declared flight (RuneQuest's statement of intent ``flee``) is carried out
#: steps later, past the status check of the step that declared it
FLIGHT_VERBS = frozenset({"flee", "surrender"})
#: the streams of one encounter seed: whether and how long a warm-up is, its moves, its dice
DRAW_STREAM, MOVE_STREAM, DICE_STREAM = 3, 4, 5


def _live(engine: Engine[Any], before: Any, after: Any) -> bool:
    """The step from ``before`` to ``after`` kept the fight going: no outcome, a decision pending, nobody
    active fled or surrendered."""
    if engine.outcome(after) is not None or engine.pending(after) is None:
        return False
    return not any(a.status in LEFT and b.status == Status.ACTIVE
                   for b, a in zip(before.combatants, after.combatants, strict=True))


def warm_up(engine: Engine[Any], state: Any, decisions: int, seed: int, *, record_rolls: bool = False
            ) -> tuple[Any, list[Event], int]:
    """Answer up to ``decisions`` decisions of the live fight ``state`` with engine-chosen moves (module
    docstring: random legal moves that keep the fight live, on streams of ``seed``'s own).

    Returns the state reached (a new object when at least one decision was played; ``state`` itself is never
    changed), the events of the warm-up's steps (rolls recorded only with ``record_rolls``) and the number of
    decisions played (fewer than ``decisions`` when the warm-up had to stop before a decision, or 0 when
    ``state`` is already over)."""
    moves = np.random.default_rng([int(seed), MOVE_STREAM])
    dice = RngRoller(np.random.default_rng([int(seed), DICE_STREAM]))
    events: list[Event] = []
    played = 0
    while played < decisions and engine.outcome(state) is None:
        decision = engine.pending(state)
        if decision is None:
            break
        mask = engine.legal_mask(state, decision)
        catalogue = engine.catalogue
        legal = [int(a) for a in np.flatnonzero(mask) if catalogue[int(a)].verb not in FLIGHT_VERBS]
        kept: tuple[Any, list[Event]] | None = None
        for action in moves.permutation(np.array(legal, dtype=np.int64))[:MAX_TRIES]:
            after, step_events = engine.step(state, int(action), dice, record_rolls=record_rolls, mask=mask)
            if _live(engine, state, after):
                kept = after, step_events
                break
        if kept is None:  # every move tried would end the fight or take someone off the field: start here
            break
        state, step_events = kept
        events.extend(step_events)
        played += 1
    return state, events, played
