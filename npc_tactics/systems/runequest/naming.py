"""RuneQuest: Roleplaying in Glorantha move names (catalogue in ``systems/runequest/rules/actions.py``)."""

from __future__ import annotations

from typing import Any

from npc_tactics.gm.words.naming import Words
from npc_tactics.gm.words.vocab import LOCATIONS, SPELLS, WEAPONS, word
from npc_tactics.rules.base import ActionSpec
from npc_tactics.systems.runequest.rules import tables as T

__all__ = ["label"]


def _weapon(w: Words, slot: Any) -> tuple[str, str]:
    """(translated name, kind) of the actor's weapon ``slot``; an empty slot reads "weapon N"."""
    weapons = w.actor.weapons
    if isinstance(slot, int) and 0 <= slot < len(weapons):
        spec = weapons[slot].spec
        return word(WEAPONS, spec.name, w._), spec.kind
    return w._("weapon {n}").format(n=int(slot) + 1), "melee"


def _aim_location(w: Words, index: int) -> str:
    intent = getattr(w.actor, "intent", None)
    target = getattr(intent, "target", -1) if intent is not None else -1
    if 0 <= target < len(w.state.combatants):
        locations = w.state.combatants[target].locations
        index = T.aim_location(len(locations), index)
        if 0 <= index < len(locations):
            return word(LOCATIONS, locations[index].spec.name, w._)
    return w._("location {n}").format(n=index + 1)


def label(spec: ActionSpec, w: Words) -> str:
    _ = w._
    verb = spec.verb
    if verb in ("attack", "aimed"):
        weapon, kind = _weapon(w, spec.option)
        target = w.target(spec)
        if verb == "aimed":
            return _("aimed blow at {target} with {weapon} (strike rank 12, half skill)").format(
                target=target, weapon=weapon)
        if kind == "missile":
            return _("shoot {target} with {weapon}").format(target=target, weapon=weapon)
        if kind == "thrown":
            return _("throw {weapon} at {target}").format(target=target, weapon=weapon)
        return _("attack {target} with {weapon}").format(target=target, weapon=weapon)
    if verb == "knockback":
        return _("try to knock back {target}").format(target=w.target(spec))
    if verb == "close":
        return _("close in on {target}").format(target=w.target(spec))
    if verb == "cast":
        spell = word(SPELLS, spec.option, _)
        if spec.target == "self":
            return _("cast {spell} on oneself").format(spell=spell)
        return _("cast {spell} at {target}").format(spell=spell, target=w.target(spec))
    if verb == "ready":
        return _("ready {weapon}").format(weapon=_weapon(w, spec.option)[0])
    if verb == "first_aid":
        if spec.target == "self":
            return _("give oneself first aid")
        return _("give first aid to {target}").format(target=w.target(spec))
    if verb == "defend":
        return _("only defend (parry or dodge)")
    if verb == "retreat":
        return _("retreat out of reach")
    if verb == "flee":
        return _("flee the fight")
    if verb == "parry":
        return _("parry with {weapon}").format(weapon=_weapon(w, spec.option)[0])
    if verb == "dodge":
        return _("dodge")
    if verb == "no_defence":
        return _("take the blow without defending")
    if verb == "aim":
        return _("aim at {location}").format(location=_aim_location(w, int(spec.option)))
    if verb == "power":
        n = int(spec.option)
        return w.ngettext("put {n} point into the spell", "put {n} points into the spell", n).format(n=n)
    raise KeyError(f"RuneQuest action {spec.name!r} has no name for the GM")
