"""Missile and thrown weapons, range and movement between opponents who are apart (mrq-opposed.md §6.3, §11).

The source only says that missiles exist (the thrown/missile fumble table, "escaping a volley of arrows" with
Acrobatics). The rest follows published MRQ1 where it is known and is [HOUSE] otherwise (docs/mrq.md "Missile
weapons"):

* A shot is a Combat Action with the missile weapon skill, against an enemy one is **apart** from (not engaged),
  at most double the weapon's range away; beyond the range the skill is halved [PUB unverified, as in the MRQ1
  SRD-derived OpenQuest]. One cannot shoot while engaged in melee, while prone, or without the arms the weapon
  needs (bows two, thrown weapons the right arm). Each shot spends one missile; spent missiles are not recovered.
* Fired weapons add no damage modifier, thrown ones do [HOUSE].
* The target can evade (Acrobatics vs the shooter's skill on the combat table, DP 0, A12/A13), block with a
  usable shield (its style skill, fixed DP), or not react. Weapons cannot parry missiles [PUB].
* Impale with a missile leaves it in the wound (−20%, §4.2); the victim pulls it out with ``extract_missile``:
  a Brute Force test, and on a success the missile's damage again, no modifier, armour ignored (A22 applied to
  oneself).
* Opponents who are apart stand ``gap`` metres from each other: ``advance`` closes by the combatant's
  movement (engaging at long distance once the gap is within one move), ``charge`` needs the gap within two
  moves, ``fall_back`` opens the gap to every enemy one is apart from.
"""

from __future__ import annotations

from npc_tactics.rules.base import EventSink, Status
from npc_tactics.systems.mrq.rules import fighters as F
from npc_tactics.systems.mrq.rules.damage import apply_location_damage, loc_name, roll_weapon
from npc_tactics.systems.mrq.rules.opposed import halve_down, simple_test
from npc_tactics.systems.mrq.rules.state import READY, MRQCombatant, MRQState
from npc_tactics.systems.mrq.rules.tables import APART, LEFT_ARM, LONG, MAX_GAP, RIGHT_ARM

R = "mrq-opposed.md"


def can_shoot(state: MRQState, a: int) -> bool:
    """``a`` has a ready missile weapon with ammunition, stands, and is engaged with nobody."""
    c = state.combatants[a]
    w = c.prof.missile
    if w is None or c.ammo <= 0 or c.missile_state != READY or c.prone:
        return False
    if not F.arm_free(c, RIGHT_ARM) or (not w.thrown and not F.arm_free(c, LEFT_ARM)):
        return False
    n = state.n
    row = a * n
    cs = state.combatants
    return not any(state.dist[row + e] and cs[e].status == Status.ACTIVE and cs[e].side != c.side for e in range(n))


def in_range(state: MRQState, a: int, e: int) -> bool:
    """Apart and within double the missile weapon's range."""
    w = state.combatants[a].prof.missile
    return w is not None and state.distance(a, e) == APART and state.metres(a, e) <= 2 * w.range


def missile_skill(state: MRQState, a: int, d: int) -> int:
    """Missile weapon skill of ``a`` shooting at ``d``: penalties (§4.2), the §16 cap, halved beyond the
    weapon's range."""
    c = state.combatants[a]
    skill = max(0, min(c.prof.missile_skill, c.prof.skill_cap) - F.penalty(c))
    w = c.prof.missile
    if w is not None and state.metres(a, d) > w.range:
        skill = halve_down(skill)
    return skill


def missile_dm(c: MRQCombatant) -> str:
    """Damage modifier of a missile: thrown weapons add it, fired ones do not [HOUSE]."""
    w = c.prof.missile
    return c.prof.dm if w is not None and w.thrown else ""


def advance(state: MRQState, sink: EventSink, a: int, e: int) -> None:
    """Move towards ``e``: engage at long distance once within one move, else close the gap (A23)."""
    m = state.metres(a, e)
    step = state.combatants[a].prof.move
    if m <= step:
        state.set_distance(a, e, LONG)
        sink.emit("distance", a, e, rule=f"{R} A23", result="advanced", to="long")
        return
    state.set_metres(a, e, m - step)
    sink.emit("distance", a, e, rule=f"{R} §11", result="approached", metres=m - step)


def charge_reach(state: MRQState, a: int, e: int) -> bool:
    """A charge covers up to two moves [HOUSE]."""
    return state.metres(a, e) <= 2 * state.combatants[a].prof.move


def fall_back(state: MRQState, sink: EventSink, a: int) -> None:
    """Open the gap to every ACTIVE enemy one is apart from by one move (capped at ``MAX_GAP``)."""
    c = state.combatants[a]
    for e in state.sides[1 - c.side]:
        if state.combatants[e].status == Status.ACTIVE and state.distance(a, e) == APART:
            state.set_metres(a, e, min(MAX_GAP, state.metres(a, e) + c.prof.move))
    sink.emit("distance", a, None, rule=f"{R} §11", result="fell_back", metres=c.prof.move)


def embed(state: MRQState, sink: EventSink, att: int, dfd: int, loc: int) -> None:
    """An impaling missile that wounds stays in the wound: −20% to all activities (§4.2 Impale)."""
    d = state.combatants[dfd]
    w = state.combatants[att].prof.missile
    if w is None:
        return
    d.embedded = d.embedded + ((loc, w),)
    d.impaled += 1
    sink.emit("impaled", att, dfd, rule=f"{R} §4.2 Impale", result="left_in", location=loc_name(d, loc))


def extract(state: MRQState, sink: EventSink, a: int) -> bool:
    """Pull the last embedded missile out of oneself: Brute Force; success = the missile's damage roll
    (no modifier, armour ignored) to that location (A22 applied to oneself)."""
    c = state.combatants[a]
    loc, w = c.embedded[-1]
    ok = simple_test(
        sink,
        a,
        c.prof.brute_force,
        "Brute Force: extract a missile",
        bool(state.options["automatic_success_failure"]),
        f"{R} §4.2 A22",
    )
    if ok:
        c.embedded = c.embedded[:-1]
        c.impaled = max(0, c.impaled - 1)
        extra = roll_weapon(sink, w, a, "extraction damage")
        sink.emit("impaled", a, a, rule=f"{R} §4.2 Impale", result="extracted", extra=extra)
        apply_location_damage(state, sink, a, a, loc, extra, F.base_skill(c), f"{R} §4.2 A22", pulled=True)
    return ok
