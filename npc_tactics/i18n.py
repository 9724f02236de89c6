"""Stand-in for gm-words' i18n (issue 11): ``translator(lang, domain)`` returns a gettext-style function.

This branch's version is the identity with the agreed signature, so GM-facing strings can be marked with
``_()`` now; the lead keeps gm-words' real catalogue-backed module at merge.
"""

from __future__ import annotations

from collections.abc import Callable

from npc_tactics.errors import UserError

LANGUAGES = ("en", "fr")


def translator(lang: str = "en", domain: str = "npc_tactics") -> Callable[[str], str]:
    if lang not in LANGUAGES:
        raise UserError(f"unknown language {lang!r}; expected one of {', '.join(LANGUAGES)}")
    return lambda text: text
