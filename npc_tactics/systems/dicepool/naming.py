"""Dice-pool (Haru'Rak'Zall) move names (catalogue in ``systems/dicepool/rules/actions.py``)."""

from __future__ import annotations

from typing import Any

from npc_tactics.gm.words.naming import Words
from npc_tactics.gm.words.vocab import LOCATIONS, WEAPONS, word
from npc_tactics.i18n import N_
from npc_tactics.rules.base import ActionSpec

__all__ = ["label"]

_POSTURES = {"standing": N_("stand up"), "kneeling": N_("kneel"), "prone": N_("drop prone")}
_COVER = {"half": N_("take half cover"), "three_quarters": N_("take three-quarters cover")}
_PLAIN = {"withdraw": N_("withdraw from melee"), "run": N_("run"), "mount": N_("mount up"),
          "wait": N_("wait")}


def _readied(w: Words) -> str:
    weapon: Any = w.actor.weapon  # the readied weapon (a property), None for empty hands
    return word(WEAPONS, weapon.name if weapon is not None else "", w._)


def label(spec: ActionSpec, w: Words) -> str:
    _ = w._
    verb = spec.verb
    if verb == "strike":
        return _("strike {target} with {weapon}").format(target=w.target(spec), weapon=_readied(w))
    if verb == "shoot":
        return _("shoot {target} with {weapon}").format(target=w.target(spec), weapon=_readied(w))
    if verb == "aim":
        return _("take aim at {target}").format(target=w.target(spec))
    if verb == "advance":
        return _("advance on {target}").format(target=w.target(spec))
    if verb == "draw":
        weapons = w.actor.weapons
        slot = int(spec.option)
        name = (word(WEAPONS, weapons[slot].name, _) if slot < len(weapons)
                else _("weapon {n}").format(n=slot + 1))
        return _("draw {weapon}").format(weapon=name)
    if verb == "reload":
        if w.actor.weapon is None:
            return _("reload")
        return _("reload {weapon}").format(weapon=_readied(w))
    if verb == "posture":
        return _(_POSTURES[str(spec.option)])
    if verb == "cover":
        return _(_COVER[str(spec.option)])
    if verb in _PLAIN:
        return _(_PLAIN[verb])
    if verb == "split":
        n = int(spec.option)
        if n == 0:
            return _("keep every die on the attack")
        return w.ngettext("move {n} die to DEFENSE", "move {n} dice to DEFENSE", n).format(n=n)
    if verb == "aim_at":
        if spec.option == "none":
            return _("shoot without aiming at a location")
        return _("aim the shot at {location} (2 dice fewer)").format(location=word(LOCATIONS, spec.option, _))
    raise KeyError(f"dice-pool action {spec.name!r} has no name for the GM")
