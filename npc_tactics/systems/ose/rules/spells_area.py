"""OSE spells aimed at enemies that last or spread: Fire Ball, Lightning Bolt, Web, Phantasmal Force,
Light/Darkness on a creature's eyes and Silence 15' Radius (docs/ose-spells.md for numbers and sources).

An area is centred on the declared target's square (:mod:`.spells_common`); Fire Ball, Lightning Bolt and
Web catch everyone standing in it, the caster's allies and the caster itself included, as the published
spells do; the caster of a Phantasmal Force shows its illusion to its enemies only.
"""

from __future__ import annotations

from collections.abc import Callable

from npc_tactics.rules.base import EventSink
from npc_tactics.systems.ose.rules import conditions as K
from npc_tactics.systems.ose.rules.combat import apply_damage
from npc_tactics.systems.ose.rules.spells_common import (
    bolt_squares,
    caster_list,
    in_area,
    save,
    unaffected,
    up,
)
from npc_tactics.systems.ose.rules.state import OSEState
from npc_tactics.systems.ose.rules.tables import (
    AREA_DAMAGE_DIE,
    FIRE_BALL_RADIUS,
    HOLD_PERSON_MAX_HD,
    LIGHTNING_BOLT_LENGTH,
    PHANTASMAL_HALF,
    PHANTASMAL_ROUNDS,
    ROUNDS_PER_TURN,
    SPELL_NAMES,
    WEB_BREAK_GIANT,
    WEB_BREAK_NORMAL,
    WEB_HALF,
    spell_rounds,
)


def fire_ball_caught(state: OSEState, ti: int) -> list[int]:
    """Everyone within 20' (4 squares) of the target's square."""
    return in_area(state, state.combatants[ti].pos, FIRE_BALL_RADIUS)


def bolt_caught(state: OSEState, ci: int, ti: int) -> list[int]:
    """Everyone on the 12 squares from the target's square away from the caster."""
    lo, hi = bolt_squares(state, ci, ti, LIGHTNING_BOLT_LENGTH)
    return [j for j, c in enumerate(state.combatants) if up(state, j) and lo <= c.pos <= hi]


def web_caught(state: OSEState, ti: int) -> list[int]:
    """Everyone on the target's square and the one on either side (a 10' cube)."""
    return in_area(state, state.combatants[ti].pos, WEB_HALF)


def phantasm_caught(state: OSEState, ci: int, ti: int) -> list[int]:
    """The caster's enemies within 10' of the target's square (a 20' cube)."""
    side = state.combatants[ci].side
    return [j for j in in_area(state, state.combatants[ti].pos, PHANTASMAL_HALF)
            if state.combatants[j].side != side]


def _area(sink: EventSink, ci: int, ti: int, spell: str, caught: list[int]) -> None:
    sink.emit("area", ci, ti, rule=f"OSE {spell}", spell=spell, count=len(caught),
              result="caught" if caught else "empty")


def _blast(state: OSEState, sink: EventSink, ci: int, ti: int, spell: str, caught: list[int], kind: str) -> None:
    """1d6 per caster level, one roll for the whole area; each creature saves vs spells for half (rounded
    down, at least 1); damage of ``kind`` (fire, lightning: immunities and halving apply, rules/effects.py)."""
    _area(sink, ci, ti, spell, caught)
    if not caught:
        return
    level = state.combatants[ci].prof.level
    dmg = sink.roll(f"{level}d{AREA_DAMAGE_DIE}", "damage", ci, ti).total
    for j in caught:
        half = save(state, sink, j, ci, f"OSE {spell}")
        apply_damage(state, sink, ci, j, max(1, dmg // 2) if half else dmg, spell, kind)


def _fire_ball(state: OSEState, sink: EventSink, ci: int, ti: int) -> None:
    _blast(state, sink, ci, ti, "fire_ball", fire_ball_caught(state, ti), "fire")


def _lightning_bolt(state: OSEState, sink: EventSink, ci: int, ti: int) -> None:
    _blast(state, sink, ci, ti, "lightning_bolt", bolt_caught(state, ci, ti), "lightning")


def _web(state: OSEState, sink: EventSink, ci: int, ti: int) -> None:
    """OSE Web: everyone in the 10' cube is entangled, no save, and cannot move until it breaks free: 2d4
    turns at normal strength, 2 rounds with giant strength (monsters above 4+1 HD, a choice). The web lasts
    48 turns, longer than any fight."""
    caught = web_caught(state, ti)
    _area(sink, ci, ti, "web", caught)
    for j in caught:
        p = state.combatants[j].prof
        giant = p.kind == "monster" and (p.hd > HOLD_PERSON_MAX_HD or (p.hd == HOLD_PERSON_MAX_HD
                                                                       and p.hd_plus > 1))
        rounds = WEB_BREAK_GIANT if giant else (
            sink.roll(WEB_BREAK_NORMAL, "free from entanglement", ci, j).total * ROUNDS_PER_TURN)
        K.add(state, sink, j, "webbed", rounds, ci)


def _phantasmal_force(state: OSEState, sink: EventSink, ci: int, ti: int) -> None:
    """OSE Phantasmal Force as an illusory attack (a falling ceiling): each enemy in the 20' cube that fails a
    save vs spells believes itself slain and faints for 1d4 rounds (no real damage)."""
    caught = phantasm_caught(state, ci, ti)
    _area(sink, ci, ti, "phantasmal_force", caught)
    for j in caught:
        if "illusion" in state.combatants[j].prof.immune:
            continue
        if not save(state, sink, j, ci, "OSE Phantasmal Force"):
            K.add(state, sink, j, "fainted", sink.roll(PHANTASMAL_ROUNDS, "cast", ci, j).total, ci)


def _blind(state: OSEState, sink: EventSink, ci: int, ti: int, spell: str) -> None:
    """OSE Light (or Darkness) cast on a creature's eyes: a failed save vs spells blinds it for the spell's
    duration; a blinded creature cannot attack."""
    c = state.combatants[ci]
    if "blind" in state.combatants[ti].prof.immune:
        unaffected(sink, ci, ti, spell)
        return
    if not save(state, sink, ti, ci, f"OSE {spell}"):
        sid = SPELL_NAMES.index(spell)
        K.add(state, sink, ti, "blind", spell_rounds(spell, caster_list(c.prof, sid), c.prof.level), ci)


def _silence(state: OSEState, sink: EventSink, ci: int, ti: int) -> None:
    """OSE Silence 15' Radius cast on a creature: a failed save vs spells and the silence moves with it;
    a saved one leaves it at the creature's square. Nobody within 15' can cast spells for 12 turns."""
    rounds = spell_rounds("silence_15_radius", "cleric", state.combatants[ci].prof.level)
    if save(state, sink, ti, ci, "OSE Silence 15' Radius"):
        K.add(state, sink, ci, f"{K.SILENCE_AT}{state.combatants[ti].pos}", rounds, ti)
    else:
        K.add(state, sink, ti, "silenced", rounds, ci)


EFFECTS: dict[str, Callable[[OSEState, EventSink, int, int], None]] = {
    "fire_ball": _fire_ball,
    "lightning_bolt": _lightning_bolt,
    "web": _web,
    "phantasmal_force": _phantasmal_force,
    "light": lambda st, sk, ci, ti: _blind(st, sk, ci, ti, "light"),
    "darkness": lambda st, sk, ci, ti: _blind(st, sk, ci, ti, "darkness"),
    "silence_15_radius": _silence,
}
