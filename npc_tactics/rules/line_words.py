"""The words of a stat line in the GM's language, shared by the systems' printers (RuneQuest's and MRQ's
``statline_fr``): the characteristics as the French editions abbreviate them (FOR CON TAI INT POU DEX CHA, both
French RuneQuests), a msgid said in a language or nothing when the catalogue lacks it (a line never shows a
msgid), and a noun of the narration without its article (``l'épée large`` -> ``Épée large``).

The msgids are in the ``npc_tactics`` domain: one catalogue translates the lines, the narration and the CLI. The
labels carry a note in brackets (``STR (strength, in a stat line)``) so that no other sense of the same English
word shares their translation.
"""

from __future__ import annotations

import re

from npc_tactics.i18n import N_, translator

__all__ = ["ARTICLE", "CHARACTERISTICS", "characteristic", "line_noun", "said_or_none"]

#: Each characteristic of a line, by its English abbreviation (STR -> FOR, SIZ -> TAI, POW -> POU in French).
CHARACTERISTICS: dict[str, str] = {
    "STR": N_("STR (strength, in a stat line)"),
    "CON": N_("CON (constitution, in a stat line)"),
    "SIZ": N_("SIZ (size, in a stat line)"),
    "DEX": N_("DEX (dexterity, in a stat line)"),
    "INT": N_("INT (intelligence, in a stat line)"),
    "POW": N_("POW (power, in a stat line)"),
    "CHA": N_("CHA (charisma, in a stat line)"),
}
#: A leading article or possessive, English or French, as a whole word and its space ("une ruade" -> "ruade",
#: never "e ruade"), or an elided one ("l'épée").
ARTICLE = re.compile(r"^(?:(?:the|its|an|a|les|le|la|son|sa|ses|une|un|des)\s+|l['’]\s*)", re.IGNORECASE)


def said_or_none(msgid: str, lang: str) -> str | None:
    """``msgid`` in ``lang``, or None in English or when the catalogue does not translate it."""
    if lang == "en":
        return None
    said = translator(lang)(msgid)
    return None if said == msgid else said


def characteristic(abbreviation: str, lang: str) -> str:
    """A characteristic's label in ``lang`` (``SIZ``; ``TAI`` in French); the abbreviation itself otherwise."""
    key = abbreviation.upper()
    said = said_or_none(CHARACTERISTICS[key], lang) if key in CHARACTERISTICS else None
    return said or key


def line_noun(msgid: str | None, english: str, lang: str) -> str:
    """The noun of ``msgid`` (a narration noun with its article, ``the broadsword``) in ``lang``, its article
    dropped and capitalised (``Épée large``); ``english`` where there is no msgid, in English, or when the
    catalogue does not translate it."""
    said = said_or_none(msgid, lang) if msgid is not None else None
    if not said:
        return english
    noun = ARTICLE.sub("", said)
    return noun[:1].upper() + noun[1:]
