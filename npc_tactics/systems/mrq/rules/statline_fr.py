"""The words of an MRQ stat line in the GM's language: the French Mongoose RuneQuest's abbreviations of the
characteristics (FOR CON TAI INT POU DEX CHA) and each weapon by its French name (``Cimeterre``, ``Targe``), so
the tracker's French page reads the line the French edition would print (issue 29).

Why gettext msgids and not a French column in the bestiary: every word a GM reads is a msgid of the
``npc_tactics`` domain, so one catalogue translates the line, the narration and the CLI alike; the characteristics
share their msgids with the RuneQuest line (``STR (strength, in a stat line)``), both French editions writing FOR
and TAI. The weapon msgids are the narration's own nouns (``npc_tactics/gm/words/vocab.py`` ``WEAPONS``: ``the
target shield``), repeated here because the rules may not import the GM's words: one translation serves both, its
article dropped for the line. A word the catalogue does not translate yet is printed in English, never as its
msgid.
"""

from __future__ import annotations

import re

from npc_tactics.i18n import N_, translator

__all__ = ["CHARACTERISTICS", "WEAPONS", "characteristic", "weapon_name"]

#: Each characteristic of the line (the template's key), as the French edition abbreviates it.
CHARACTERISTICS: dict[str, str] = {
    "str": N_("STR (strength, in a stat line)"),
    "con": N_("CON (constitution, in a stat line)"),
    "siz": N_("SIZ (size, in a stat line)"),
    "int": N_("INT (intelligence, in a stat line)"),
    "pow": N_("POW (power, in a stat line)"),
    "dex": N_("DEX (dexterity, in a stat line)"),
    "cha": N_("CHA (charisma, in a stat line)"),
}
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
#: A French article or possessive before the noun (``l'épée large``, ``les poings nus``, ``une ruade``).
_ARTICLE = re.compile(r"^(?:l'|l’|(?:les|le|la|ses|son|sa|une|un|des)\s+)", re.IGNORECASE)


def _said(msgid: str, lang: str) -> str | None:
    """``msgid`` in ``lang``, or None when the catalogue does not translate it."""
    said = translator(lang)(msgid)
    return None if said == msgid else said


def characteristic(key: str, lang: str) -> str:
    """A characteristic's label in ``lang`` (``siz`` -> ``SIZ``, ``TAI`` in French)."""
    said = _said(CHARACTERISTICS[key], lang) if lang != "en" and key in CHARACTERISTICS else None
    return said or key.upper()


def weapon_name(key: str, english: str, lang: str) -> str:
    """A weapon of the line in ``lang``: its noun without the article, capitalised (``Grande hache``);
    ``english`` (the English line's name) for a weapon the list has no noun for (a GM's own) or in English."""
    said = _said(WEAPONS[key], lang) if lang != "en" and key in WEAPONS else None
    if not said:
        return english
    noun = _ARTICLE.sub("", said)
    return noun[:1].upper() + noun[1:]
