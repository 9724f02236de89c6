"""Mongoose RuneQuest (opposed tests) move names (catalogue in ``systems/mrq/rules/actions.py``)."""

from __future__ import annotations

from npc_tactics.gm.words.naming import Words
from npc_tactics.gm.words.vocab import EFFECTS, LOCATIONS, WEAPONS, word
from npc_tactics.i18n import N_
from npc_tactics.rules.base import ActionSpec
from npc_tactics.systems.mrq.rules import fighters as F
from npc_tactics.systems.mrq.rules import tables as T
from npc_tactics.systems.mrq.rules.damage import loc_name

__all__ = ["label"]

DISTANCES = {"apart": N_("disengaged"), "long": N_("long reach"), "close": N_("close range")}

_TARGETED = {
    "attack": N_("attack {target} with {weapon}"),
    "precise_attack": N_("precise attack on {target} with {weapon}"),
    "double_precise_attack": N_("doubly precise attack on {target} with {weapon}"),
    "charge": N_("charge {target} with {weapon}"),
    "advance": N_("advance on {target}"),
    "close": N_("slip inside the reach of {target}"),
    "step_back": N_("step back to keep {target} at reach"),
    "entangle_trip": N_("pull {target} down with {weapon} (target entangled)"),
    "shoot": N_("shoot {target} with {weapon}"),
}
_PLAIN = {
    "disengage": N_("disengage"),
    "withdraw": N_("withdraw from the fight"),
    "stand_up": N_("stand up"),
    "free_self": N_("break free of the entanglement"),
    "pull_free": N_("pull the stuck weapon free"),
    "fall_back": N_("fall back a move"),
    "extract_missile": N_("pull the embedded missile out"),
    "hold": N_("hold (do nothing)"),
    "defend": N_("defend (parry or block)"),
    "precise_defence": N_("precise defence"),
    "evade": N_("evade"),
    "no_reaction": N_("do not react"),
    "evade_charge": N_("evade the charge"),
    "impale_leave": N_("leave the weapon in the wound"),
    "impale_pull": N_("pull the weapon out (more damage)"),
}


def _location(w: Words, name: object) -> str:
    """A location slot (named after the humanoid table), shown in the body plan of the combatant the blow lands
    on: Choose Location and Deflect Blow both pick a location of the exchange's defender."""
    ex = getattr(w.state, "exchange", None)
    if ex is not None and name in T.LOCATIONS and 0 <= ex.defender < len(w.state.combatants):
        name = loc_name(w.state.combatants[ex.defender], T.LOCATIONS.index(str(name)))
    return word(LOCATIONS, name, w._)


def label(spec: ActionSpec, w: Words) -> str:
    _ = w._
    verb = spec.verb
    c = w.actor
    if verb in _TARGETED:
        item = F.strike_item(c, verb == "shoot")
        weapon = word(WEAPONS, item.name, _)
        return _(_TARGETED[verb]).format(target=w.target(spec), weapon=weapon)
    if verb == "ready_weapon":
        return _("ready {weapon}").format(weapon=word(WEAPONS, c.prof.weapon.name, _))
    if verb == "receive_charge":
        return _("receive the charge with {weapon}").format(weapon=word(WEAPONS, F.attack_item(c)[1].name, _))
    if verb in _PLAIN:
        return _(_PLAIN[verb])
    effect = word(EFFECTS, verb, _)
    if verb in ("choose_location", "deflect_blow"):
        return _("special effect: {effect} ({location})").format(effect=effect, location=_location(w, spec.option))
    if verb == "change_distance":
        where = word(DISTANCES, spec.option, _)
        return _("special effect: {effect} ({distance})").format(effect=effect, distance=where)
    if verb in EFFECTS:
        return _("special effect: {effect}").format(effect=effect)
    raise KeyError(f"MRQ action {spec.name!r} has no name for the GM")
