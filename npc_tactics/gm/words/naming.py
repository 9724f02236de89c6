"""Moves named as a GM says them: by combatant and weapon, not by catalogue slot.

``shoot:enemy_0`` becomes "shoot Brannoc with the short bow", ``ready:1`` "ready the spear", ``parry:0``
"parry with the shield", in English or French. Each system's phrasing lives in its package's ``naming.py``,
reached through its words hook (``SystemWords.label``, :mod:`npc_tactics.gm.words.hooks`), and reads the state
only through the public fields every engine documents (combatant names, weapons, locations).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from npc_tactics.i18n import translations
from npc_tactics.plugin import System
from npc_tactics.rules.base import ActionSpec, Decision, ally_slots, enemy_slots

__all__ = ["Words", "move_label"]


@dataclass(frozen=True, slots=True)
class Words:
    """What a system's namer needs: the gettext functions and the actor's view of the fight."""

    _: Callable[[str], str]
    ngettext: Callable[[str, str, int], str]
    state: Any
    decision: Decision

    @property
    def actor(self) -> Any:
        return self.state.combatants[self.decision.actor]

    def target(self, spec: ActionSpec) -> str:
        """The name of the combatant an ``enemy_k`` / ``ally_k`` entry points at (slot order of the rules)."""
        if spec.target == "self":
            return str(self.actor.name)
        slots = enemy_slots if spec.target == "enemy" else ally_slots
        indices = slots(self.state.combatants, self.decision.actor)
        if 0 <= spec.slot < len(indices):
            return str(self.state.combatants[indices[spec.slot]].name)
        if spec.target == "enemy":  # an empty slot (masked out): still readable
            return self._("enemy {n}").format(n=spec.slot + 1)
        return self._("ally {n}").format(n=spec.slot + 1)


def move_label(system: System, engine: Any, state: Any, decision: Decision, action: int, lang: str = "en") -> str:
    """The plain-words name of catalogue entry ``action`` for ``decision``'s actor in ``state``.

    ``system`` is the registered system (:func:`~npc_tactics.registry.get_system` of ``"ose"``); any entry of the
    catalogue can be named, legal or not. Unknown ``lang`` raises :class:`~npc_tactics.errors.UserError`."""
    tr = translations(lang)
    info = system
    label = info.system_words().label
    if not 0 <= int(action) < len(engine.catalogue):
        raise ValueError(f"action {action} is outside the {info.name} catalogue of {len(engine.catalogue)} entries")
    spec = engine.catalogue[int(action)]
    return str(label(spec, Words(tr.gettext, tr.ngettext, state, decision)))
