"""One RuneQuest combatant as the GM's summary shows it: hit points, hurt locations (points left of the
location's maximum), position in metres, the weapon in hand, and each poison dose it carries (a situation's
``poison_doses`` read back, so the GM sees the doses the answer counts with)."""

from __future__ import annotations

from typing import Any

from npc_tactics.gm.words.summary import Tr, hit_points, metres, weapon_words
from npc_tactics.gm.words.vocab import LOCATIONS, word

__all__ = ["details"]


def details(state: Any, i: int, _: Tr, lang: str = "en") -> list[str]:
    c = state.combatants[i]
    bits = [hit_points(c, _)]
    hurt = [f"{word(LOCATIONS, loc.spec.name, _)} {loc.spec.max_hp - loc.damage}/{loc.spec.max_hp}"
            for loc in c.locations if loc.damage]
    if hurt:
        bits.append(_("wounds: {locations}").format(locations=", ".join(hurt)))
    bits.append(_("at {m} m").format(m=metres(c.pos, lang)))
    ready = [w.spec.name for x, w in enumerate(c.weapons) if c.ready >> x & 1]
    bits.append(weapon_words(ready[0] if ready else "", _))
    bits += [_("poison: potency {potency}, at the end of round {due}").format(potency=pot, due=due)
             for due, victim, pot, _by in state.doses if victim == i]
    return bits
