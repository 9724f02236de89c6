"""Which catalogue entries the rules allow, per combatant and step (the masks; ose-bx.md §2, §5–§8, §13).

Each function returns a list of action indices (empty = nothing to decide in this step); the engine turns the
pending one into the boolean mask and applies single-option steps automatically.
"""

from __future__ import annotations

from npc_tactics.rules.base import Status
from npc_tactics.systems.ose.rules import actions as A
from npc_tactics.systems.ose.rules import conditions as K
from npc_tactics.systems.ose.rules.combat import range_band
from npc_tactics.systems.ose.rules.holds import held
from npc_tactics.systems.ose.rules.movement import away_direction, engaged, flying, path_clear, speed, threatened
from npc_tactics.systems.ose.rules.spells import KIND
from npc_tactics.systems.ose.rules.spells_common import spell_target_ok
from npc_tactics.systems.ose.rules.state import (
    DECL_RETREAT,
    DECL_WITHDRAW,
    PHASE_MELEE,
    PHASE_MISSILE,
    PHASE_MOVE,
    OSEState,
)
from npc_tactics.systems.ose.rules.tables import FULL_COVER, MELEE_REACH, MISSILE_MIN

PHASE_SLOW = 5


def declare(state: OSEState, i: int) -> list[int]:
    """Step 1 (§2): nothing; a fighting withdrawal (engaged, clear path behind); a retreat (engaged); a
    memorised spell at a visible target in range (§7). Only a combatant in melee moves by declaration (§5.2);
    the house option ``declare_when_threatened`` also lets one an enemy could reach this round declare.
    Conditions (:mod:`.conditions`): an entangled or helpless creature declares no move, one in a Silence
    no spell. A creature held, coiled round or swallowed (:mod:`.holds`) cannot move away."""
    c = state.combatants[i]
    out = [A.DECLARE_NONE]
    if (c.prof.move > 0 if not c.prof.fly else speed(state, i) > 0) and (
        engaged(state, i) or (state.options["declare_when_threatened"] and threatened(state, i))
    ) and K.can_move(state, i) and (c.held_by < 0 or not held(state, i)):
        if path_clear(state, i, away_direction(state, i)):
            out.append(A.DECLARE_WITHDRAW)
        out.append(A.DECLARE_RETREAT)
    spells = c.spells
    may_cast: bool | None = None
    for sid, n in enumerate(spells):
        if n <= 0:
            continue
        if may_cast is None:
            may_cast = K.can_cast(state, i)
        if not may_cast:
            break
        kind = KIND[sid]
        if kind == "enemy":
            base = A.CAST_ENEMY0[sid]
            for k, j in enumerate(state.enemies[i]):
                if spell_target_ok(state, i, j, sid):
                    out.append(base + k)
        elif kind == "self":
            if spell_target_ok(state, i, i, sid):
                out.append(A.CAST_SELF[sid])
        else:
            self_idx, ally0 = A.CAST_FRIEND[sid]
            if spell_target_ok(state, i, i, sid):
                out.append(self_idx)
            for k, j in enumerate(state.allies[i]):
                if spell_target_ok(state, i, j, sid):
                    out.append(ally0 + k)
    return out


def act(state: OSEState, i: int, phase: int) -> list[int]:
    """The options of combatant ``i`` in one step of its side's turn (move, missile, melee, slow)."""
    c = state.combatants[i]
    if c.casting >= 0:  # a caster does nothing else and does not move (§7)
        return []
    if phase == PHASE_MOVE:
        return _move(state, i) if not c.conditions or K.can_move(state, i) else []
    if c.retreating or c.attacked:  # a retreat forbids attacking; one attack per round (§5.2, §9.4)
        return []
    if c.conditions and not K.can_attack(state, i):  # blind (Light) or fainted (Phantasmal Force)
        return []
    p = c.prof
    # After a fighting withdrawal (A9, option withdraw_attack): "melee" = it may still strike an enemy
    # within 1.5 m but shoots nothing; "any" = it may also shoot; "none" = no attack that round.
    wa = state.options["withdraw_attack"] if c.declared == DECL_WITHDRAW else "any"
    if wa == "none":
        return []
    may_shoot = wa == "any"
    if phase == PHASE_MISSILE:
        return _shoot(state, i) if may_shoot and not p.missile_slow else []
    if phase == PHASE_MELEE:
        return _melee(state, i) if not p.melee_slow else []
    out: list[int] = []  # slow weapons, end of the round (§3)
    if p.melee_slow:
        out = _melee(state, i)
    if p.missile_slow and may_shoot:
        shots = _shoot(state, i)
        out = shots if not out else out + shots[1:]
    return out


def _move(state: OSEState, i: int) -> list[int]:
    c = state.combatants[i]
    if c.declared == DECL_WITHDRAW:
        return [A.WITHDRAW]
    if c.declared == DECL_RETREAT:
        return [A.RETREAT]
    if c.held_by >= 0 and held(state, i):
        return []
    if (c.prof.move <= 0 if not c.prof.fly else speed(state, i) <= 0) or (engaged(state, i) and not (
            c.prof.fly and state.options["flyer_disengage"] == "free" and flying(state, i))):
        return []  # moving in melee needs a declaration (§5.2); option flyer_disengage "free": a flyer flies off
    out = [A.HOLD]
    cs = state.combatants
    for k, j in enumerate(state.enemies[i]):
        e = cs[j]
        if e.status == Status.ACTIVE and e.hp > 0 and abs(e.pos - c.pos) > MELEE_REACH and (
            not e.conditions or K.targetable(state, i, j)
        ):
            out.append(A.CLOSE0 + k)
    out.append(A.MOVE_AWAY)
    return out


def _shoot(state: OSEState, i: int) -> list[int]:
    c = state.combatants[i]
    p = c.prof
    if p.missile_weapon is None or c.ammo == 0 or c.cover >= FULL_COVER:
        return []
    if not state.options["shoot_when_engaged"] and engaged(state, i):
        return []
    out = [A.HOLD]
    cs = state.combatants
    for k, j in enumerate(state.enemies[i]):
        e = cs[j]
        if e.status != Status.ACTIVE or e.hp <= 0 or e.cover >= FULL_COVER:
            continue
        if e.conditions and not K.targetable(state, i, j):  # invisible
            continue
        d = abs(e.pos - c.pos)
        if d >= MISSILE_MIN and range_band(p.missile_ranges, d) >= 0:
            out.append(A.SHOOT0 + k)
    return out if len(out) > 1 else []


def _melee(state: OSEState, i: int) -> list[int]:
    c = state.combatants[i]
    if c.prof.throws and c.ammo == 0:  # it threw its only weapon
        return []
    out = [A.HOLD]
    cs = state.combatants
    for k, j in enumerate(state.enemies[i]):
        e = cs[j]
        if e.status == Status.ACTIVE and e.hp > 0 and abs(e.pos - c.pos) <= MELEE_REACH and (
            not e.conditions or K.targetable(state, i, j)
        ):
            out.append(A.MELEE0 + k)
    return out if len(out) > 1 else []
