"""Stand-in for gm-words' i18n module (issue 11): the same ``translator(lang, domain)`` signature over standard
gettext catalogues in ``npc_tactics/locale/<lang>/LC_MESSAGES/<domain>.mo``. The lead keeps gm-words' version
at merge; this one exists so that the web page's ``web`` domain works on this branch."""

from __future__ import annotations

import gettext
from collections.abc import Callable
from pathlib import Path

from npc_tactics.errors import UserError

LANGS: tuple[str, ...] = ("en", "fr")
LOCALE_DIR = Path(__file__).resolve().parent / "locale"


def translator(lang: str = "en", domain: str = "npc_tactics") -> Callable[[str], str]:
    """A gettext function ``_`` for ``lang``; an unknown ``lang`` raises UserError listing the valid ones."""
    if lang not in LANGS:
        raise UserError(f"--lang: unknown language {lang!r}; valid languages: {', '.join(LANGS)}")
    return gettext.translation(domain, str(LOCALE_DIR), languages=[lang], fallback=True).gettext
