"""The situation a GM reads above `suggest`'s answer and in `play`'s status block, in English or French.

The engines' ``describe(state)`` is a compact English debugging line (``render_mode="ansi"``); a French GM
asked for French gets this instead: one line per combatant (name, side, status, hit points and wounds in the
system's terms, position or distance, main weapon) and who decides what. It reads only the public fields of
each system's state, and every word goes through the ``npc_tactics`` gettext domain. A system's own line per
combatant is its package's ``summary.details`` (its words hook, ``SystemWords.details``); the helpers here are
theirs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from npc_tactics.gm.words.vocab import DECISION_KINDS, WEAPONS, word
from npc_tactics.i18n import N_, translations
from npc_tactics.plugin import System
from npc_tactics.rules.base import Decision
from npc_tactics.rules.outcome import Status

__all__ = ["STATUSES", "foes", "hit_points", "metres", "summary", "weapon_words"]

Tr = Callable[[str], str]

#: A combatant's standing; the French words are invariable (no participle agreeing with a named combatant).
STATUSES: dict[Status, str] = {
    Status.ACTIVE: N_("fighting"),
    Status.UNCONSCIOUS: N_("unconscious"),
    Status.DEAD: N_("slain"),
    Status.FLED: N_("fled the fight"),
    Status.SURRENDERED: N_("surrendered"),
    Status.INCAPACITATED: N_("out of the fight"),
}

def metres(x: float, lang: str = "en") -> str:
    """Metres to 0.1 m without trailing zeros (1.5 stays 1.5: within reach, 2 is not); the decimal comma in
    French (``1,5``)."""
    text = f"{round(float(x), 1) + 0.0:g}"
    return text.replace(".", ",") if lang == "fr" else text


def hit_points(c: Any, _: Tr) -> str:
    return _("{hp}/{max_hp} hit points").format(hp=int(c.hp), max_hp=int(c.max_hp))


def foes(state: Any, i: int) -> list[int]:
    """Indices of the standing combatants of the other sides, in order."""
    me = state.combatants[i]
    return [j for j, o in enumerate(state.combatants) if o.side != me.side and o.status == Status.ACTIVE]


def weapon_words(weapon_id: object, _: Tr) -> str:
    return _("weapon: {weapon}").format(weapon=word(WEAPONS, weapon_id, _))


def summary(system: System, engine: Any, state: Any, decision: Decision | None, lang: str = "en",
            sides: Sequence[str] = ()) -> str:
    """The fight as a GM reads it: the round, one line per combatant, then who decides what.

    ``system`` is the fight's system; ``decision`` is ``engine.pending(state)`` (None once the fight is over);
    ``sides`` what the GM calls each side ("goblins"; without it, "side 0"). ``engine`` is accepted for symmetry
    with :func:`~npc_tactics.gm.words.naming.move_label`."""
    del engine  # the state's public fields say everything shown here
    _ = translations(lang).gettext
    details = system.system_words().details
    lines = [_("Round {n}").format(n=int(getattr(state, "round", 0)))]
    for i, c in enumerate(state.combatants):
        bits = [_(STATUSES.get(Status(int(c.status)), str(c.status)))] + details(state, i, _, lang)
        lines.append(_("[{i}] {name} ({side_text}): {details}").format(
            i=i, name=c.name, details=", ".join(bits),
            side_text=sides[int(c.side)] if int(c.side) < len(sides) else _("side {side}").format(side=int(c.side))))
    if decision is None:
        lines.append(_("The fight is over."))
    else:
        kind = word(DECISION_KINDS, decision.kind.name, _)
        lines.append(_("{name} decides: {kind}").format(name=state.combatants[decision.actor].name, kind=kind))
    return "\n".join(lines)
