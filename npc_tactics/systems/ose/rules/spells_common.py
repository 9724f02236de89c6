"""What the OSE spell modules share: the caster's spell list and ranges, saving throws, areas on the battle line.

Areas (docs/ose-spells.md "Areas"): the battle line is one square wide, so an area is the run of squares
within some distance of its centre (the target's square); everyone standing there is caught, friend or foe,
as the published spells say, unless a spell picks its subjects (Haste, Bless).
"""

from __future__ import annotations

from functools import lru_cache

from npc_tactics.rules.base import EventSink, Status
from npc_tactics.systems.ose.rules import conditions as K
from npc_tactics.systems.ose.rules.state import OSEState, Profile
from npc_tactics.systems.ose.rules.tables import (
    FULL_COVER,
    HOLD_PERSON_MAX_HD,
    SPELL_NAMES,
    SPELLS,
    feet_to_squares,
    spell_entry,
)


@lru_cache(maxsize=64)
def _class_list(cls: str) -> str:
    from npc_tactics.systems.ose.rules.classes import classes  # reads classes.yaml once

    cc = classes().get(cls)
    return cc.spell_list if cc is not None else ""


def caster_list(prof: Profile, sid: int) -> str:
    """The spell list ``prof`` casts spell ``sid`` from: its class's, or (monsters) the spell's own."""
    return _list_of(prof.kind, prof.cls, sid)


@lru_cache(maxsize=1024)
def _list_of(kind: str, cls: str, sid: int) -> str:
    name = SPELL_NAMES[sid]
    own = _class_list(cls) if kind == "character" else ""
    if own and spell_entry(name, own) is not None:
        return own
    return SPELLS[name][1]


def spell_range(prof: Profile, sid: int) -> int:
    """Range in squares (touch and the caster: 1 square) of spell ``sid`` cast by ``prof``."""
    return _range_of(prof.kind, prof.cls, sid)


@lru_cache(maxsize=1024)
def _range_of(kind: str, cls: str, sid: int) -> int:
    entry = spell_entry(SPELL_NAMES[sid], _list_of(kind, cls, sid))
    feet = entry[1] if entry is not None else SPELLS[SPELL_NAMES[sid]][2]
    return max(1, feet_to_squares(feet))


def up(state: OSEState, i: int) -> bool:
    c = state.combatants[i]
    return c.status == Status.ACTIVE and c.hp > 0


def in_area(state: OSEState, centre: int, half: int) -> list[int]:
    """Indices of the standing combatants within ``half`` squares of square ``centre``, in index order."""
    return [j for j, c in enumerate(state.combatants) if up(state, j) and abs(c.pos - centre) <= half]


def bolt_squares(state: OSEState, ci: int, ti: int, length: int) -> tuple[int, int]:
    """The run of squares (low, high) of a bolt ``length`` squares long that starts at the target's square
    and runs away from the caster (the battle line has no walls, so it never bounces)."""
    c, t = state.combatants[ci].pos, state.combatants[ti].pos
    step = 1 if t >= c else -1
    end = t + step * (length - 1)
    return (t, end) if step > 0 else (end, t)


def person(prof: Profile) -> bool:
    """Hold Person and Charm Person: humans, demihumans and human-like monsters up to 4+1 HD; not undead."""
    too_big = prof.kind == "monster" and (
        prof.hd > HOLD_PERSON_MAX_HD or (prof.hd == HOLD_PERSON_MAX_HD and prof.hd_plus > 1)
    )
    return prof.humanoid and not prof.undead and not too_big


def save(state: OSEState, sink: EventSink, ti: int, ci: int, rule: str, modifier: int = 0) -> bool:
    """A saving throw vs spells of ``ti`` against ``ci``'s spell (emits ``save``); True = saved."""
    tp = state.combatants[ti].prof
    roll = sink.die(20, "save", ti)
    mod = modifier + K.save_bonus(state, ti)
    saved = roll + mod >= tp.save_spells
    sink.emit("save", ti, ci, rule=rule, result="saved" if saved else "failed", roll=roll,
              need=tp.save_spells, modifier=mod)
    return saved


def unaffected(sink: EventSink, ci: int, ti: int, spell: str) -> None:
    sink.emit("spell_unaffected", ci, ti, rule=f"OSE {spell}", spell=spell, result="unaffected")


_CLW = SPELL_NAMES.index("cure_light_wounds")
#: a lasting spell is not offered on a subject that already has it (no stacking); spell -> its condition
ALREADY = {"shield": "shield", "protection_from_evil": "protection_from_evil", "invisibility": "invisible",
           "mirror_image": "mirror_image_1", "light": "blind", "darkness": "blind", "striking": "striking",
           "silence_15_radius": "silenced"}
_ALREADY = {SPELL_NAMES.index(s): c for s, c in ALREADY.items()}


def spell_target_ok(state: OSEState, ci: int, ti: int, sid: int) -> bool:
    """Range and line of sight (§7): active target within range, neither in full cover, visible to the caster
    (not invisible to it, the caster not blind); spells that heal need a wounded subject."""
    c, t = state.combatants[ci], state.combatants[ti]
    if t.status != Status.ACTIVE or t.hp <= 0 or t.cover >= FULL_COVER or c.cover >= FULL_COVER:
        return False
    if sid == _CLW and t.hp >= t.max_hp:
        return False
    if (c.conditions or t.conditions) and (
        not K.targetable(state, ci, ti) or _ALREADY.get(sid, "") in t.conditions
    ):
        return False
    return abs(c.pos - t.pos) <= spell_range(c.prof, sid)
