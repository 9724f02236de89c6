"""The words of an RQG stat line in the GM's language: the French edition's abbreviations of the characteristics
(FOR CON TAI DEX INT POU CHA), its hit points (``15 points de vie``) and each weapon by its French name (``Épée
large``), so the tracker's French page reads the line the French edition would print (issue 29).

The characteristics, the lookup and the article rule are shared with MRQ's line
(:mod:`npc_tactics.rules.line_words`). The weapon msgids are the narration's own nouns
(``npc_tactics/gm/words/vocab.py`` ``WEAPONS``: ``the broadsword``), repeated here because the rules may not
import the GM's words: one translation serves both, its article dropped for the line. A word the catalogue does
not translate yet is printed in English, never as its msgid.
"""

from __future__ import annotations

from npc_tactics.i18n import N_
from npc_tactics.rules.line_words import characteristic, line_noun, said_or_none

__all__ = ["HIT_POINTS", "WEAPONS", "characteristic", "hit_points", "weapon_name"]

#: The hit points of the line (``HP 15`` in English).
HIT_POINTS = N_("HP {n} (hit points, in a stat line)")
#: The weapons of the equipment list (content/equipment.yaml) by the narration's nouns (article included).
WEAPONS: dict[str, str] = {
    "battleaxe": N_("the battle axe"),
    "beak": N_("its beak"),
    "bite": N_("its bite"),
    "broadsword": N_("the broadsword"),
    "claw": N_("its claws"),
    "club": N_("the club"),
    "composite_bow": N_("the composite bow"),
    "constrict": N_("its coils"),
    "dagger": N_("the dagger"),
    "fist": N_("its fist"),
    "gore": N_("a goring horn or tusk"),
    "great_axe": N_("the great axe"),
    "greatsword": N_("the greatsword"),
    "head_butt": N_("a head butt"),
    "heavy_mace": N_("the heavy mace"),
    "javelin": N_("the javelin"),
    "kick": N_("a kick"),
    "large_shield": N_("the large shield"),
    "medium_shield": N_("the medium shield"),
    "short_bow": N_("the short bow"),
    "short_spear": N_("the short spear"),
    "shortsword": N_("the short sword"),
    "sling": N_("the sling"),
    "small_shield": N_("the small shield"),
    "spear": N_("the spear"),
    "troll_maul": N_("the troll maul"),
}


def hit_points(n: int, lang: str) -> str:
    """``HP 15`` in ``lang`` (``15 points de vie``)."""
    said = said_or_none(HIT_POINTS, lang)
    return said.format(n=n) if said else f"HP {n}"


def weapon_name(key: str, english: str, lang: str) -> str:
    """A weapon of the line in ``lang``: its noun without the article, capitalised (``Épée large``); ``english``
    (the English line's name) for a weapon the list has no noun for (a GM's own) or in English."""
    return line_noun(WEAPONS.get(key), english, lang)
