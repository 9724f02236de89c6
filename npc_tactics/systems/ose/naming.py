"""OSE move names (catalogue in ``systems/ose/rules/actions.py``)."""

from __future__ import annotations

from npc_tactics.gm.words.naming import Words
from npc_tactics.gm.words.vocab import SPELLS, WEAPONS, word
from npc_tactics.rules.base import ActionSpec

__all__ = ["label"]


def label(spec: ActionSpec, w: Words) -> str:
    _ = w._
    prof = w.actor.prof
    verb = spec.verb
    if verb == "declare_none":
        return _("declare nothing (free to move and attack this round)")
    if verb == "declare_withdraw":
        return _("declare a fighting withdrawal")
    if verb == "declare_retreat":
        return _("declare a retreat")
    if verb == "cast":
        spell = word(SPELLS, spec.option, _)
        if spec.target == "self":
            return _("cast {spell} on oneself").format(spell=spell)
        return _("cast {spell} at {target}").format(spell=spell, target=w.target(spec))
    if verb == "hold":
        return _("hold (do nothing in this step)")
    if verb == "close":
        return _("close in on {target}").format(target=w.target(spec))
    if verb == "move_away":
        return _("move away from the enemies")
    if verb == "withdraw":
        return _("carry out the fighting withdrawal")
    if verb == "retreat":
        return _("carry out the retreat")
    if verb == "shoot":
        if prof.missile_weapon:
            weapon = word(WEAPONS, prof.missile_weapon, _)
            return _("shoot {target} with {weapon}").format(target=w.target(spec), weapon=weapon)
        if prof.throws:
            weapon = word(WEAPONS, prof.melee_weapon, _)
            return _("throw {weapon} at {target}").format(target=w.target(spec), weapon=weapon)
        return _("shoot {target}").format(target=w.target(spec))
    if verb == "melee":
        weapon = word(WEAPONS, prof.melee_weapon, _)
        return _("attack {target} with {weapon}").format(target=w.target(spec), weapon=weapon)
    raise KeyError(f"OSE action {spec.name!r} has no name for the GM")
