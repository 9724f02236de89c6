"""One MRQ combatant as the GM's summary shows it: hit points, hurt locations (points left of the location's
maximum, by its body's names: a wolf's forelegs), whom it is engaged with and at what reach (or how far the nearest
foe stands), the weapon it attacks with."""

from __future__ import annotations

from typing import Any

from npc_tactics.gm.words.summary import Tr, hit_points, weapon_words
from npc_tactics.gm.words.summary import foes as standing_foes
from npc_tactics.gm.words.vocab import LOCATIONS, word
from npc_tactics.i18n import N_
from npc_tactics.systems.mrq.rules import fighters as F
from npc_tactics.systems.mrq.rules.tables import DISTANCE_NAMES, LOCATION_NAMES

__all__ = ["details"]

#: MRQ engagement distances (``rules/tables.DISTANCE_NAMES``) as a GM says them.
_REACH: dict[str, str] = {"long": N_("long reach"), "close": N_("close range")}


def details(state: Any, i: int, _: Tr, lang: str = "en") -> list[str]:
    c = state.combatants[i]
    bits = [hit_points(c, _)]
    names = LOCATION_NAMES[c.prof.body]
    hurt = [f"{word(LOCATIONS, names[k], _)} {hp}/{top}"
            for k, (hp, top) in enumerate(zip(c.loc_hp, c.prof.loc_max, strict=True)) if hp < top]
    if hurt:
        bits.append(_("wounds: {locations}").format(locations=", ".join(hurt)))
    foes = standing_foes(state, i)
    engaged = [j for j in foes if state.distance(i, j)]
    if engaged:
        j = engaged[0]
        reach = DISTANCE_NAMES[state.distance(i, j)]
        bits.append(_("in melee with {name} ({reach})").format(
            name=state.combatants[j].name, reach=word(_REACH, reach, _)))
    elif foes:
        j = min(foes, key=lambda k: (state.metres(i, k), k))
        bits.append(_("{m} m from {name}").format(m=int(state.metres(i, j)), name=state.combatants[j].name))
    bits.append(weapon_words(F.attack_item(c)[1].name, _))
    return bits
