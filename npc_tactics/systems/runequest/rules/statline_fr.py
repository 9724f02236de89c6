"""The words of an RQG stat line in the GM's language: the French edition's abbreviations of the characteristics
(FOR CON TAI DEX INT POU CHA), its hit points (``15 points de vie``) and each weapon by its French name (``Épée
large``), so the tracker's French page reads the line the French edition would print (issue 29).

Why gettext msgids and not a French column in the bestiary: every word a GM reads is a msgid of the
``npc_tactics`` domain, so one catalogue translates the line, the narration and the CLI alike. The labels carry a
note in brackets (``STR (strength, in a stat line)``) so that no other sense of the same English word shares
their translation. The weapon msgids are the narration's own nouns (``npc_tactics/gm/words/vocab.py``
``WEAPONS``: ``the broadsword``), repeated here because the rules may not import the GM's words: one translation
serves both, its article dropped for the line. A word the catalogue does not translate yet is printed in English,
never as its msgid.
"""

from __future__ import annotations

import re

from npc_tactics.i18n import N_, translator

__all__ = ["CHARACTERISTICS", "HIT_POINTS", "WEAPONS", "characteristic", "hit_points", "weapon_name"]

#: Each characteristic of the line, as the French edition abbreviates it (STR -> FOR, SIZ -> TAI, POW -> POU).
CHARACTERISTICS: dict[str, str] = {
    "STR": N_("STR (strength, in a stat line)"),
    "CON": N_("CON (constitution, in a stat line)"),
    "SIZ": N_("SIZ (size, in a stat line)"),
    "DEX": N_("DEX (dexterity, in a stat line)"),
    "INT": N_("INT (intelligence, in a stat line)"),
    "POW": N_("POW (power, in a stat line)"),
    "CHA": N_("CHA (charisma, in a stat line)"),
}
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
#: A French article or possessive before the noun (``l'épée large``, ``les poings nus``, ``une ruade``).
_ARTICLE = re.compile(r"^(?:l'|l’|(?:les|le|la|ses|son|sa|une|un|des)\s+)", re.IGNORECASE)


def _said(msgid: str, lang: str) -> str | None:
    """``msgid`` in ``lang``, or None when the catalogue does not translate it."""
    said = translator(lang)(msgid)
    return None if said == msgid else said


def characteristic(key: str, lang: str) -> str:
    """A characteristic's label in ``lang`` (``SIZ`` -> ``TAI``)."""
    said = _said(CHARACTERISTICS[key], lang) if lang != "en" and key in CHARACTERISTICS else None
    return said or key


def hit_points(n: int, lang: str) -> str:
    """``HP 15`` in ``lang`` (``15 points de vie``)."""
    said = _said(HIT_POINTS, lang) if lang != "en" else None
    return said.format(n=n) if said else f"HP {n}"


def weapon_name(key: str, english: str, lang: str) -> str:
    """A weapon of the line in ``lang``: its noun without the article, capitalised (``Épée large``); ``english``
    (the English line's name) for a weapon the list has no noun for (a GM's own) or in English."""
    said = _said(WEAPONS[key], lang) if lang != "en" and key in WEAPONS else None
    if not said:
        return english
    noun = _ARTICLE.sub("", said)
    return noun[:1].upper() + noun[1:]
