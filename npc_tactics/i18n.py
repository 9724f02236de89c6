"""Stand-in for gm-words' i18n (issue 11): ``translator(lang, domain)`` returns a gettext-style function.

gm-play needs French now (``npc-tactics play --lang fr``), so this branch's stand-in reads the standard gettext
catalogue ``npc_tactics/locale/<lang>/LC_MESSAGES/<domain>.mo`` with Python's :mod:`gettext`, falling back to
the English source strings when a domain has no catalogue. The lead keeps gm-words' module at merge (same
signature and same catalogue layout; its ``DOMAINS`` needs ``"play"`` added).
"""

from __future__ import annotations

import gettext
from collections.abc import Callable
from functools import cache
from pathlib import Path

from npc_tactics.errors import UserError

LANGUAGES = ("en", "fr")
LOCALE_DIR = Path(__file__).resolve().parent / "locale"


@cache
def _translations(lang: str, domain: str) -> gettext.NullTranslations:
    return gettext.translation(domain, str(LOCALE_DIR), languages=[lang], fallback=True)


def translator(lang: str = "en", domain: str = "npc_tactics") -> Callable[[str], str]:
    if lang not in LANGUAGES:
        raise UserError(f"unknown language {lang!r}; expected one of {', '.join(LANGUAGES)}")
    return _translations(lang, domain).gettext
