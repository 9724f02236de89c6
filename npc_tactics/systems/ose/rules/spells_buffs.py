"""OSE spells cast on the caster or its friends: Shield, Protection from Evil, Mirror Image, Invisibility,
Haste, Bless and Striking (docs/ose-spells.md for numbers and sources).

Each puts a condition (:mod:`.conditions`) on its subjects for the spell's duration in rounds; the attack
code reads them. Haste and Bless take the caster's side only within their area (the caster picks its
subjects: "up to 24 creatures", "allies").
"""

from __future__ import annotations

from collections.abc import Callable

from npc_tactics.rules.base import EventSink
from npc_tactics.systems.ose.rules import conditions as K
from npc_tactics.systems.ose.rules.movement import engaged
from npc_tactics.systems.ose.rules.spells_common import caster_list, in_area
from npc_tactics.systems.ose.rules.state import OSEState
from npc_tactics.systems.ose.rules.tables import (
    BLESS_HALF,
    HASTE_MAX_CREATURES,
    HASTE_RADIUS,
    MIRROR_IMAGES,
    SPELL_NAMES,
    spell_rounds,
)


def _rounds(state: OSEState, ci: int, spell: str) -> int:
    p = state.combatants[ci].prof
    return spell_rounds(spell, caster_list(p, SPELL_NAMES.index(spell)), p.level)


def haste_subjects(state: OSEState, ci: int, ti: int) -> list[int]:
    """The caster's side within 30' of the target's square, nearest first, at most 24."""
    cs, side, centre = state.combatants, state.combatants[ci].side, state.combatants[ti].pos
    near = sorted((abs(cs[j].pos - centre), j) for j in in_area(state, centre, HASTE_RADIUS) if cs[j].side == side)
    return sorted(j for _, j in near[:HASTE_MAX_CREATURES])


def bless_subjects(state: OSEState, ci: int, ti: int) -> list[int]:
    """The caster's side in the 20' square around the target that is not yet in melee."""
    cs, side = state.combatants, state.combatants[ci].side
    return [j for j in in_area(state, cs[ti].pos, BLESS_HALF) if cs[j].side == side and not engaged(state, j)]


def _on(name: str, spell: str) -> Callable[[OSEState, EventSink, int, int], None]:
    def effect(state: OSEState, sink: EventSink, ci: int, ti: int) -> None:
        K.add(state, sink, ti, name, _rounds(state, ci, spell), ci)

    effect.__doc__ = f"OSE {spell}: the condition {name!r} on the subject for the spell's duration."
    return effect


def _mirror_image(state: OSEState, sink: EventSink, ci: int, ti: int) -> None:
    """OSE Mirror Image: 1d4 images for 6 turns; each attack on the caster destroys one instead."""
    n = sink.roll(MIRROR_IMAGES, "cast", ci, ci).total
    rounds = _rounds(state, ci, "mirror_image")
    for k in range(1, n + 1):
        K.add(state, sink, ci, f"{K.IMAGE}{k}", rounds, ci)


def _group(name: str, spell: str,
           subjects: Callable[[OSEState, int, int], list[int]]) -> Callable[[OSEState, EventSink, int, int], None]:
    def effect(state: OSEState, sink: EventSink, ci: int, ti: int) -> None:
        chosen = subjects(state, ci, ti)
        sink.emit("area", ci, ti, rule=f"OSE {spell}", spell=spell, count=len(chosen),
                  result="caught" if chosen else "empty")
        rounds = _rounds(state, ci, spell)
        for j in chosen:
            if name not in state.combatants[j].conditions:
                K.add(state, sink, j, name, rounds, ci)

    effect.__doc__ = f"OSE {spell}: the condition {name!r} on each subject in the area."
    return effect


EFFECTS: dict[str, Callable[[OSEState, EventSink, int, int], None]] = {
    "shield": _on("shield", "shield"),
    "protection_from_evil": _on("protection_from_evil", "protection_from_evil"),
    "invisibility": _on("invisible", "invisibility"),  # lasts until it attacks or casts
    "striking": _on("striking", "striking"),
    "mirror_image": _mirror_image,
    "haste": _group("haste", "haste", haste_subjects),
    "bless": _group("bless", "bless", bless_subjects),
}
