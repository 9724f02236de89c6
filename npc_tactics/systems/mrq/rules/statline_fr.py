"""The words of an MRQ stat line in the GM's language: the French Mongoose RuneQuest's abbreviations of the
characteristics (FOR CON TAI INT POU DEX CHA) and each weapon by its French name (``Cimeterre``, ``Targe``), so
the tracker's French page reads the line the French edition would print (issue 29).

The characteristics, the lookup and the article rule are shared with RuneQuest's line
(:mod:`npc_tactics.rules.line_words`), both French editions writing FOR and TAI. The weapon msgids are the
narration's own nouns (``npc_tactics/gm/words/vocab.py`` ``WEAPONS``: ``the target shield``), repeated here
because the rules may not import the GM's words: one translation serves both, its article dropped for the line.
A word the catalogue does not translate yet is printed in English, never as its msgid.
"""

from __future__ import annotations

from npc_tactics.i18n import N_
from npc_tactics.rules.line_words import characteristic, line_noun

__all__ = ["WEAPONS", "characteristic", "weapon_name"]

#: The weapons of content/weapons.yaml by the narration's nouns (article included).
WEAPONS: dict[str, str] = {
    "battleaxe": N_("the battle axe"),
    "bear_claw": N_("its claws"),
    "bite": N_("its bite"),
    "boar_tusk": N_("its tusks"),
    "broadsword": N_("the broadsword"),
    "buckler": N_("the buckler"),
    "claw": N_("its claws"),
    "club": N_("the club"),
    "dagger": N_("the dagger"),
    "fists": N_("bare fists"),
    "gore": N_("a goring horn or tusk"),
    "great_axe": N_("the great axe"),
    "great_club": N_("the great club"),
    "greatsword": N_("the greatsword"),
    "halberd": N_("the halberd"),
    "hand_axe": N_("the hand axe"),
    "head_butt": N_("a head butt"),
    "horse_kick": N_("its kick"),
    "javelin": N_("the javelin"),
    "kite_shield": N_("the kite shield"),
    "lance": N_("the lance"),
    "lion_claw": N_("its claws"),
    "longspear": N_("the long spear"),
    "mace": N_("the mace"),
    "martial_arts": N_("martial arts"),
    "scimitar": N_("the scimitar"),
    "shortbow": N_("the short bow"),
    "shortspear": N_("the short spear"),
    "shortsword": N_("the short sword"),
    "sling": N_("the sling"),
    "small_bite": N_("its bite"),
    "target_shield": N_("the target shield"),
    "tower_shield": N_("the tower shield"),
    "war_maul": N_("the war maul"),
    "whip": N_("the whip"),
    "wolf_bite": N_("its bite"),
}


def weapon_name(key: str, english: str, lang: str) -> str:
    """A weapon of the line in ``lang``: its noun without the article, capitalised (``Grande hache``);
    ``english`` (the English line's name) for a weapon the list has no noun for (a GM's own) or in English."""
    return line_noun(WEAPONS.get(key), english, lang)
