"""Text rendering of a fight: the engine's own description plus the last round's events, readable by a GM."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from npc_tactics.rules.base import Event


def format_event(event: Event, combatants: Sequence[Any]) -> str:
    """One event as a line: ``r2 Goblin -> Fighter attack: hit (roll=15, needed=14)``."""

    def who(i: int | None) -> str:
        return combatants[i].name if i is not None and 0 <= i < len(combatants) else ""

    data = dict(event.data)
    result = data.pop("result", None)
    head = f"r{event.round} "
    actors = who(event.actor)
    if event.target is not None:
        actors += f" -> {who(event.target)}"
    detail = ", ".join(f"{k}={v}" for k, v in data.items())
    text = f"{head}{actors} {event.kind}" if actors else f"{head}{event.kind}"
    if result is not None:
        text += f": {result}"
    if detail:
        text += f" ({detail})"
    return text


def render_text(engine: Any, state: Any, events: Sequence[Event], max_events: int = 40,
                show_rolls: bool = False) -> str:
    """The fight as text: combatants (engine.describe) then the events of the current/last round."""
    lines = [engine.describe(state)] if hasattr(engine, "describe") else []
    shown = [e for e in events if show_rolls or e.kind != "roll"]
    if shown:
        lines.append("-- last round --")
        lines.extend(format_event(e, state.combatants) for e in shown[-max_events:])
    outcome = engine.outcome(state)
    if outcome is not None:
        lines.append(f"== over after {outcome.rounds} rounds: "
                     + ", ".join(f"side {i} {r.name.lower()}" for i, r in enumerate(outcome.results))
                     + f" ({outcome.reason})")
    return "\n".join(lines) + "\n"
