"""One OSE combatant as the GM's summary shows it: hit points, where it stands (grid squares in metres), the
weapon it would use now (the missile weapon while it has ammunition)."""

from __future__ import annotations

from typing import Any

from npc_tactics.gm.words.summary import Tr, hit_points, metres, weapon_words
from npc_tactics.systems.ose.rules.tables import SQUARE_M

__all__ = ["details"]


def details(state: Any, i: int, _: Tr, lang: str = "en") -> list[str]:
    c = state.combatants[i]
    prof = c.prof
    weapon = prof.missile_weapon if prof.missile_weapon and int(getattr(c, "ammo", 0)) > 0 else prof.melee_weapon
    return [hit_points(c, _), _("at {m} m").format(m=metres(c.pos * SQUARE_M, lang)), weapon_words(weapon, _)]
