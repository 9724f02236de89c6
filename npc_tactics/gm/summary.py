"""The situation a GM reads above `suggest`'s answer and in `play`'s status block, in English or French.

The engines' ``describe(state)`` is a compact English debugging line (``render_mode="ansi"``); a French GM
asked for French gets this instead: one line per combatant (name, side, status, hit points and wounds in the
system's terms, position or distance, main weapon) and who decides what. It reads only the public fields of
each system's state, and every word goes through the ``npc_tactics`` gettext domain.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from npc_tactics.gm.vocab import DECISION_KINDS, LOCATIONS, WEAPONS, word
from npc_tactics.i18n import N_, translations
from npc_tactics.rules.base import Decision
from npc_tactics.rules.outcome import Status
from npc_tactics.systems import get_system

__all__ = ["STATUSES", "summary"]

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

#: MRQ engagement distances (``rules/mrq/tables.DISTANCE_NAMES``) as a GM says them.
_MRQ_REACH: dict[str, str] = {"long": N_("long reach"), "close": N_("close range")}


def _m(x: float) -> str:
    """Metres to 0.1 m without trailing zeros (1.5 stays 1.5: within reach, 2 is not)."""
    return f"{round(float(x), 1) + 0.0:g}"


def _hp(c: Any, _: Tr) -> str:
    return _("{hp}/{max_hp} hit points").format(hp=int(c.hp), max_hp=int(c.max_hp))


def _foes(state: Any, i: int) -> list[int]:
    """Indices of the standing combatants of the other sides, in order."""
    me = state.combatants[i]
    return [j for j, o in enumerate(state.combatants) if o.side != me.side and o.status == Status.ACTIVE]


# ----- per system: (wounds and hit points, position, main weapon id) -------------------------------------------
def _ose(state: Any, i: int, _: Tr) -> list[str]:
    c = state.combatants[i]
    prof = c.prof
    weapon = prof.missile_weapon if prof.missile_weapon and int(getattr(c, "ammo", 0)) > 0 else prof.melee_weapon
    return [_hp(c, _), _("at {m} m").format(m=_m(c.pos * 1.5)), _weapon(weapon, _)]


def _runequest(state: Any, i: int, _: Tr) -> list[str]:
    c = state.combatants[i]
    bits = [_hp(c, _)]
    hurt = [f"{word(LOCATIONS, loc.spec.name, _)} {loc.spec.max_hp - loc.damage}/{loc.spec.max_hp}"
            for loc in c.locations if loc.damage]
    if hurt:
        bits.append(_("wounds: {locations}").format(locations=", ".join(hurt)))
    bits.append(_("at {m} m").format(m=_m(c.pos)))
    ready = [w.spec.name for x, w in enumerate(c.weapons) if c.ready >> x & 1]
    bits.append(_weapon(ready[0] if ready else "", _))
    return bits


def _mrq(state: Any, i: int, _: Tr) -> list[str]:
    from npc_tactics.rules.mrq import fighters as F  # noqa: PLC0415  (only MRQ states need it)
    from npc_tactics.rules.mrq.tables import DISTANCE_NAMES  # noqa: PLC0415

    c = state.combatants[i]
    bits = [_hp(c, _)]
    foes = _foes(state, i)
    engaged = [j for j in foes if state.distance(i, j)]
    if engaged:
        j = engaged[0]
        reach = DISTANCE_NAMES[state.distance(i, j)]
        bits.append(_("in melee with {name} ({reach})").format(
            name=state.combatants[j].name, reach=word(_MRQ_REACH, reach, _)))
    elif foes:
        j = min(foes, key=lambda k: (state.metres(i, k), k))
        bits.append(_("{m} m from {name}").format(m=int(state.metres(i, j)), name=state.combatants[j].name))
    bits.append(_weapon(F.attack_item(c)[1].name, _))
    return bits


def _dicepool(state: Any, i: int, _: Tr) -> list[str]:
    from npc_tactics.rules.dicepool.tables import LOCATIONS as DP_LOCATIONS  # noqa: PLC0415

    c = state.combatants[i]
    bits = [_hp(c, _)]
    serious = [word(LOCATIONS, DP_LOCATIONS[k], _) for k, s in enumerate(c.serious) if s]
    if serious:
        bits.append(_("serious wounds: {locations}").format(locations=", ".join(serious)))
    bits.append(_("at {m} m").format(m=_m(c.position)))
    bits.append(_weapon(c.weapon.name if c.weapon is not None else "", _))
    return bits


def _weapon(weapon_id: object, _: Tr) -> str:
    return _("weapon: {weapon}").format(weapon=word(WEAPONS, weapon_id, _))


_SYSTEMS: dict[str, Callable[[Any, int, Tr], list[str]]] = {
    "ose": _ose, "runequest": _runequest, "mrq": _mrq, "dicepool": _dicepool}


def summary(system: str, engine: Any, state: Any, decision: Decision | None, lang: str = "en") -> str:
    """The fight as a GM reads it: the round, one line per combatant, then who decides what.

    ``system`` is a registry name or alias; ``decision`` is ``engine.pending(state)`` (None once the fight is
    over). ``engine`` is accepted for symmetry with :func:`~npc_tactics.gm.naming.move_label`."""
    del engine  # the state's public fields say everything shown here
    _ = translations(lang).gettext
    details = _SYSTEMS[get_system(system).name]
    lines = [_("Round {n}").format(n=int(getattr(state, "round", 0)))]
    for i, c in enumerate(state.combatants):
        bits = [_(STATUSES.get(Status(int(c.status)), str(c.status)))] + details(state, i, _)
        lines.append(_("[{i}] {name} ({side_text}): {details}").format(
            i=i, name=c.name, side_text=_("side {side}").format(side=int(c.side)), details=", ".join(bits)))
    if decision is None:
        lines.append(_("The fight is over."))
    else:
        kind = word(DECISION_KINDS, decision.kind.name, _)
        lines.append(_("{name} decides: {kind}").format(name=state.combatants[decision.actor].name, kind=kind))
    return "\n".join(lines)
