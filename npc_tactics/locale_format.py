"""Numbers as a GM reads them in their language: ``37%`` / ``37 %``, ``600,064`` / ``600 064``, ``10.5`` /
``10,5``, and the separator of a list of clauses (``; `` / `` ; ``).

French typography puts a narrow no-break space (U+202F) before ``%``, ``;``, ``:``, ``!`` and ``?``, groups
thousands with it, and writes the decimal comma. One module so every output (suggest, the tracker, cards, play)
writes numbers the same way; :mod:`npc_tactics.i18n` translates the words around them.
"""

from __future__ import annotations

__all__ = ["NNBSP", "clauses", "colon", "decimal", "integer", "percent"]

#: The narrow no-break space of French typography.
NNBSP = "\u202f"


def integer(n: int, lang: str) -> str:
    """``600,064`` in English, ``600 064`` in French (thousands grouped by a narrow no-break space)."""
    text = f"{int(n):,}"
    return text.replace(",", NNBSP) if lang == "fr" else text


def decimal(x: float, lang: str, digits: int = 1) -> str:
    """``x`` with ``digits`` decimals and the decimal comma in French (``10,5``); thousands grouped."""
    text = f"{float(x):,.{digits}f}"
    if lang != "fr":
        return text
    return text.replace(",", NNBSP).replace(".", ",")


def percent(x: float, lang: str, digits: int = 0) -> str:
    """The share ``x`` (0..1) as a percentage: ``37%`` in English, ``37 %`` in French; ``digits`` decimals."""
    value = decimal(100.0 * float(x), lang, digits)
    return f"{value}{NNBSP}%" if lang == "fr" else f"{value}%"


def clauses(parts: list[str], lang: str) -> str:
    """Clauses joined by a semicolon: ``a; b`` in English, ``a ; b`` in French."""
    return (f"{NNBSP}; " if lang == "fr" else "; ").join(parts)


def colon(lang: str) -> str:
    """The colon between a label and its value: ``: `` in English, `` : `` in French (``victoire du groupe : ...``)."""
    return f"{NNBSP}: " if lang == "fr" else ": "
