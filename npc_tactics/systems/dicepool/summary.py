"""One dice-pool combatant as the GM's summary shows it: hit points, serious wounds by location, position in
metres, the weapon in hand."""

from __future__ import annotations

from typing import Any

from npc_tactics.gm.words.summary import Tr, hit_points, metres, weapon_words
from npc_tactics.gm.words.vocab import LOCATIONS, word
from npc_tactics.systems.dicepool.rules.tables import LOCATIONS as DP_LOCATIONS

__all__ = ["details"]


def details(state: Any, i: int, _: Tr) -> list[str]:
    c = state.combatants[i]
    bits = [hit_points(c, _)]
    serious = [word(LOCATIONS, DP_LOCATIONS[k], _) for k, s in enumerate(c.serious) if s]
    if serious:
        bits.append(_("serious wounds: {locations}").format(locations=", ".join(serious)))
    bits.append(_("at {m} m").format(m=metres(c.position)))
    bits.append(weapon_words(c.weapon.name if c.weapon is not None else "", _))
    return bits
